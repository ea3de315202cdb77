// Imported first by a background thread's entry (the sweep worker's): lowers the thread's priority
// before the rest of its code loads, so that on a machine of few cores the server's thread (and
// whatever else serves) is never kept off a core by background work, its loading included. On
// Linux a thread's nice value is its own (setpriority on the thread's id); elsewhere the thread
// keeps the process's priority.
import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, constants.priority.PRIORITY_LOW);
} catch {
  // No /proc, or a system where a thread's priority is its process's.
}
