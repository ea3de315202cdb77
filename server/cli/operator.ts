import 'dotenv/config';
import { ConfigError, loadConfig } from '../config';
import { createDb, migrateLatest, sqliteFileIn, type Db } from '../db/index';
import { AppError } from '../errors';
import { findUserForOperator, grantBoostByOperator, listUsersForOperator, setPlanByOperator } from '../features/operator/index';
import { backup, BackupError, restore } from './backup';
import { isBoostType, isPlanName, type SubscriptionStatus } from '../../shared/plans';

// `npm run operator -- <command>`: what the operator page does, from the shell, on the database the
// configuration names (DATABASE_URL or DATA_DIR). Useful before anyone is named in OPERATOR_EMAILS.

const USAGE = `Usage: npm run operator -- <command>

  list [search]                               users with plan, status and workspaces
  set-plan <email|id> <PLAN> [status]         PLAN: STARTER, HOBBY, DEVELOPER, ENTERPRISE; status: active (default),
                                              past_due, unpaid, incomplete, incomplete_expired, canceled
  grant-boost <email|id> <TYPE> [days] [workspaceId]
                                              TYPE: REQUESTS_BOOST_300K, REQUESTS_BOOST_1M (30 days by default)
  backup <file>                               writes a consistent snapshot of the database and the data directory,
                                              while Cairn runs
  restore <file>                              restores a backup into an empty DATA_DIR (and an empty DATABASE_URL
                                              database), then migrates it to this release
`;

const STATUSES: SubscriptionStatus[] = ['active', 'past_due', 'unpaid', 'incomplete', 'incomplete_expired', 'canceled'];

export interface OperatorCommandOptions {
  env?: Record<string, string | undefined>;
  /** A database handle to use instead of the configured one (tests); left open. */
  db?: Db;
  out?: (line: string) => void;
}

export async function runOperatorCommand(args: string[], opts: OperatorCommandOptions = {}): Promise<number> {
  const out = opts.out ?? ((l: string) => process.stdout.write(l + '\n'));
  const [command, ...rest] = args;
  if (!command || command === 'help' || command === '--help') {
    out(USAGE);
    return command ? 0 : 2;
  }
  if (command === 'backup' || command === 'restore') return backupCommand(command, rest, opts.env ?? process.env, out);
  let db = opts.db;
  if (!db) {
    const config = loadConfig(opts.env ?? process.env);
    db = createDb({ databaseUrl: config.databaseUrl, sqliteFile: sqliteFileIn(config.dataDir) });
    await migrateLatest(db);
  }
  try {
    if (command === 'list') {
      for (const u of await listUsersForOperator(db, rest[0] ?? '')) {
        out(`${u.id}\t${u.email}\t${u.plan}\t${u.status}\t${u.workspaces.map((w) => `${w.name} (#${w.id}, ${w.projects} projects, ${w.members} members${w.boosts.length ? `, ${w.boosts.map((b) => b.type).join('+')}` : ''})`).join('; ')}`);
      }
      return 0;
    }
    if (command === 'set-plan') {
      const [who, plan, status = 'active'] = rest;
      if (!who || !isPlanName(plan) || !STATUSES.includes(status as SubscriptionStatus)) {
        out(USAGE);
        return 2;
      }
      const user = await findUserForOperator(db, who);
      const state = await setPlanByOperator(db, user.id, plan, status as SubscriptionStatus);
      out(`${user.email} is now on ${state.plan} (${state.status}).`);
      return 0;
    }
    if (command === 'grant-boost') {
      const [who, type, days, workspaceId] = rest;
      const d = days === undefined ? undefined : Number(days);
      const w = workspaceId === undefined ? undefined : Number(workspaceId);
      if (!who || !isBoostType(type) || (d !== undefined && !(Number.isInteger(d) && d >= 1 && d <= 366)) || (w !== undefined && !(Number.isInteger(w) && w > 0))) {
        out(USAGE);
        return 2;
      }
      const user = await findUserForOperator(db, who);
      const { expiresAt } = await grantBoostByOperator(db, user.id, type, w, d);
      out(`${type} granted to ${user.email} until ${new Date(expiresAt).toISOString()}.`);
      return 0;
    }
    out(`Unknown command: ${command}\n\n${USAGE}`);
    return 2;
  } catch (err) {
    if (err instanceof AppError) {
      out(`Not done: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    if (!opts.db) await db.destroy();
  }
}

async function backupCommand(command: 'backup' | 'restore', rest: string[], env: Record<string, string | undefined>, out: (line: string) => void): Promise<number> {
  const [file] = rest;
  if (!file || rest.length > 1) {
    out(USAGE);
    return 2;
  }
  const config = loadConfig(env);
  try {
    if (command === 'backup') {
      const { file: written, manifest } = await backup(config, file);
      out(`Backup written to ${written}: the ${manifest.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'} database and ${manifest.files} data files (${manifest.bytes} bytes).`);
      out('It holds the session secret, sessions, project keys and webhook secrets: it is readable by its owner only (mode 0600); keep it, and every copy, as secret as the server.');
    } else {
      const { manifest, migrated } = await restore(config, file);
      out(`Restored the backup of ${manifest.createdAt} (Cairn ${manifest.cairnVersion}) into ${config.databaseUrl ? 'the PostgreSQL database' : config.dataDir}${migrated ? `, then applied ${migrated} newer migrations` : ''}.`);
    }
    return 0;
  } catch (err) {
    if (err instanceof BackupError) {
      out(`Not done: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (isMain) {
  runOperatorCommand(process.argv.slice(2))
    .then((code) => process.exit(code))
    .catch((err: unknown) => {
      process.stderr.write((err instanceof ConfigError ? err.message : `operator: ${(err as Error).message}`) + '\n');
      process.exit(1);
    });
}
