// The metering worker thread's entry (metering.ts starts it): a worker runs no loader of its parent,
// so this registers tsx for the thread and then loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./metering-worker.ts');
