// One worker process of bench:webhook-latency: the worker role's webhook part (startWebhookWorker:
// chain follower, dispatcher, notices) on the database in DATABASE_URL or DATA_DIR, configured from
// the environment as `npm start -- --role worker` is, following the bench's scheduled chain
// (BENCH_CHAIN_FILE, one block every BENCH_BLOCK_MS from the wall-clock time the message {go: ms}
// gives) instead of the sandbox. It tells the parent {read: [height, wall-clock ms]} the first time its
// follower reads a block; 'stop' stops it as SIGTERM would, then it exits.
import { loadConfig } from '../../../server/config';
import { createDb, sqliteFileIn } from '../../../server/db/index';
import { createLogger } from '../../../server/logger';
import { devMailbox } from '../../../server/mail/mailer';
import { startWebhookWorker } from '../../../server/features/webhooks/index';
import { readChain, scheduledSource } from './latency-chain';

const config = loadConfig();
const db = createDb({ databaseUrl: config.databaseUrl, sqliteFile: sqliteFileIn(config.dataDir) });
const logger = createLogger('error');
const chain = readChain(process.env.BENCH_CHAIN_FILE!);
await db.raw('select 1');
let worker: ReturnType<typeof startWebhookWorker> | undefined;
process.on('message', (m: string | { go: number }) => {
  if (typeof m === 'object') {
    const source = scheduledSource(chain, m.go, Number(process.env.BENCH_BLOCK_MS), (height, at) => process.send?.({ read: [height, at] }));
    worker = startWebhookWorker({ config, db, logger, mailer: devMailbox(logger), chains: {}, sources: new Map([[0, source]]) });
  }
  if (m === 'stop') {
    void (worker?.stop() ?? Promise.resolve())
      .then(() => db.destroy())
      .then(() => process.exit(0));
  }
});
process.send?.('ready');
