// The devnets' sums worker thread's entry (devnet-sums.ts starts it): a worker runs no loader of
// its parent, so this registers tsx for the thread and then loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
// The thread's priority lowered before the worker's modules are compiled and loaded.
await import('./lowest-priority.ts');
await import('./devnet-sums-worker.ts');
