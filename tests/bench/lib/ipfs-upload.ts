// One POST /ipfs/add from its own process (as a remote client would be), for bench:ipfs:
// argv: gateway URL, project key, bytes, seed. Prints {ms, status} of the upload as JSON.
import { ipfsAdd, pseudoRandom } from '../../helpers/ipfs';

const [url, key, bytes, seed] = process.argv.slice(2) as [string, string, string, string];
// The file is made before the clock starts (the bare importer's is too), and written 1 MB at a time:
// this client shares the machine's two cores with the server it measures, and a remote client's
// CPU would not be taken from the server.
const file = [...pseudoRandom(Number(bytes), seed, 1 << 20)];
const t = performance.now();
const res = await ipfsAdd(url, key, file, 'bench.bin', { contentBytes: Number(bytes) });
console.log(JSON.stringify({ ms: performance.now() - t, status: res.status, body: res.body }));
process.exit(0);
