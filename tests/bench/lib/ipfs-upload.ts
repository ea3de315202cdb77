// One POST /ipfs/add from its own process (as a remote client would be), for bench:ipfs:
// argv: gateway URL, project key, bytes, seed. Prints {ms, status} as JSON.
import { ipfsAdd, pseudoRandom } from '../../helpers/ipfs';

const [url, key, bytes, seed] = process.argv.slice(2) as [string, string, string, string];
const t = performance.now();
const res = await ipfsAdd(url, key, pseudoRandom(Number(bytes), seed), 'bench.bin');
console.log(JSON.stringify({ ms: performance.now() - t, status: res.status, body: res.body }));
process.exit(0);
