// The sandbox chain's sweep worker thread's entry (sweep.ts starts it): a worker runs no loader of
// its parent, so this registers tsx for the thread and then loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./sweep-worker.ts');
