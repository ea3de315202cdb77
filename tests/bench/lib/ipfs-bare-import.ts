// bench:ipfs's baseline, from a process of its own (as the gateway's add has its own server
// process): the bare ipfs-unixfs-importer writing a generated file into a blockstore-fs.
// argv: blockstore folder, bytes, seed. Prints {ms} of the timed import as JSON.
import { FsBlockstore } from 'blockstore-fs';
import { importer } from 'ipfs-unixfs-importer';
import { pseudoRandom } from '../../helpers/ipfs';

const WARMUP_BYTES = 16_000_000;
const [dir, bytes, seed] = process.argv.slice(2) as [string, string, string];
const store = new FsBlockstore(dir);
await store.open();
/** The file in 64 KB pieces (a file stream's), made before the clock starts as the client's is. */
const file = (size: number, s: string) => [...pseudoRandom(size, s)];
const add = async (content: Buffer[]) => {
  for await (const _ of importer([{ content }], store, { cidVersion: 0, rawLeaves: false })) void _;
};
// Warmed up first (compiled, heap grown) like the long-running gateway it is compared with.
await add(file(WARMUP_BYTES, `${seed}-warm-up`));
const content = file(Number(bytes), seed);
const t = performance.now();
await add(content);
console.log(JSON.stringify({ ms: performance.now() - t }));
process.exit(0);
