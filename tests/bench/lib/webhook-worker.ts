// One webhook worker process for bench:webhooks: a Dispatcher on the given database, started on 'go'
// and stopped on 'stop' (then it exits). BENCH_DB is a postgres:// URL or a SQLite file path.
import { createDb } from '../../../server/db/index';
import { createLogger } from '../../../server/logger';
import { devMailbox } from '../../../server/mail/mailer';
import { Dispatcher } from '../../../server/features/webhooks/dispatcher';
import { parseAllowlist } from '../../../server/features/webhooks/ssrf';

const target = process.env.BENCH_DB!;
const db = createDb(target.startsWith('postgres') ? { databaseUrl: target } : { sqliteFile: target });
const logger = createLogger('silent');
const dispatcher = new Dispatcher(db, logger, devMailbox(logger), {
  allowlist: parseAllowlist('127.0.0.1'),
  timeoutMs: 15_000,
  retrySchedule: [0, 5000],
  publicUrl: 'http://localhost:3000',
  pollMs: 50,
  // The production defaults unless a run asks for others (BENCH_LANES, BENCH_BATCH).
  ...(process.env.BENCH_LANES ? { lanes: Number(process.env.BENCH_LANES) } : {}),
  ...(process.env.BENCH_BATCH ? { concurrency: Number(process.env.BENCH_BATCH) } : {}),
});
await db.raw('select 1');
process.on('message', (m: string) => {
  if (m === 'go') dispatcher.start();
  if (m === 'stop') {
    void dispatcher
      .stop()
      .then(() => db.destroy())
      .then(() => process.exit(0));
  }
});
process.send?.('ready');
