import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as tar from 'tar';
import { SANDBOX_CHAINS_DIR, type Config } from '../config';
import { createDb, migrateLatest, sqliteFileIn, type Db } from '../db/index';
import { migrations } from '../db/migrations/index';
import { CAIRN_VERSION } from '../version';

// `npm run operator -- backup <file>` and `restore <file>`: one archive (a gzipped tar) holding a
// consistent snapshot of the database, taken while Cairn runs (SQLite: VACUUM INTO, a transactional
// copy; PostgreSQL: pg_dump, one repeatable-read snapshot), and the data directory's files (the
// embedded IPFS store's blocks, the generated session secret, anything else Cairn keeps there).
// Blocks are written once under their CID and renamed into place, so copying them after the
// database snapshot gives every block the snapshot's pins name; blocks added later are extra and
// the IPFS collector removes them in time.

export const BACKUP_FORMAT = 'cairn-backup';
export const BACKUP_FORMAT_VERSION = 1;
/** The archive's file mode: owner read and write only. */
export const BACKUP_FILE_MODE = 0o600;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  createdAt: string;
  cairnVersion: string;
  engine: 'sqlite' | 'postgresql';
  /** The last migration the database had: a restore refuses a backup from a newer Cairn. */
  lastMigration: string | null;
  files: number;
  bytes: number;
}

/** A refusal the operator can act on (printed as is, exit code 1). */
export class BackupError extends Error {}

const SQLITE_DUMP = 'cairn.sqlite';
const PG_DUMP = 'database.pgdump';
const DATA = 'data';
const STAGING_PREFIX = '.cairn-backup-';

/** Files of the data directory a backup leaves out: the live SQLite files (the snapshot stands for them), half-written blocks, staging folders. */
const skipped = (rel: string) => {
  const base = path.basename(rel);
  return (
    /^cairn\.sqlite(-wal|-shm|-journal)?$/.test(rel) ||
    // The sandbox chains' sweep is derived from their options alone: a restored gateway sweeps again.
    rel === SANDBOX_CHAINS_DIR ||
    base.startsWith(STAGING_PREFIX) ||
    (base.startsWith('.') && base.endsWith('.tmp'))
  );
};

const engineOf = (config: Config): BackupManifest['engine'] => (config.databaseUrl ? 'postgresql' : 'sqlite');

/** Runs pg_dump / pg_restore, failing with what it wrote to stderr. */
function runTool(tool: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    const child = spawn(tool, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'ENOENT' ? new BackupError(`${tool} was not found: install PostgreSQL's client tools (the same major version as the server or newer) and put them on the PATH.`) : err),
    );
    child.on('close', (code) => (code === 0 ? resolve() : reject(new BackupError(`${tool} failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`))));
  });
}

async function lastMigration(db: Db): Promise<string | null> {
  if (!(await db.schema.hasTable('knex_migrations'))) return null;
  const row = (await db('knex_migrations').orderBy('id', 'desc').first('name')) as { name: string } | undefined;
  return row?.name ?? null;
}

/** Every file under `root` (relative paths, '/'-separated), except skipped ones. */
function walk(root: string, rel = ''): string[] {
  const dir = path.join(root, rel);
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (skipped(child)) continue;
    if (entry.isDirectory()) out.push(...walk(root, child));
    else if (entry.isFile()) out.push(child);
  }
  return out;
}

/** Places `from` at `to`: a hard link where it can (same file system, no copy), a copy otherwise. A file that vanished meanwhile is skipped. */
function linkOrCopy(from: string, to: string): number {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    fs.linkSync(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return -1;
    if (code !== 'EXDEV' && code !== 'EPERM') throw err;
    try {
      fs.copyFileSync(from, to);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return -1;
      throw e;
    }
  }
  return fs.statSync(to).size;
}

const stagingIn = (dataDir: string) => {
  fs.mkdirSync(dataDir, { recursive: true });
  return fs.mkdtempSync(path.join(dataDir, STAGING_PREFIX));
};

export interface BackupSummary {
  file: string;
  manifest: BackupManifest;
}

/** Writes a backup of the configured Cairn to `file` (replacing it only once the archive is complete). */
export async function backup(config: Config, file: string): Promise<BackupSummary> {
  const out = path.resolve(file);
  if (fs.existsSync(out) && fs.statSync(out).isDirectory()) throw new BackupError(`${file} is a folder: name the archive to write, e.g. cairn-backup.tar.gz.`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const dataDir = config.dataDir;
  const engine = engineOf(config);
  if (engine === 'sqlite' && !fs.existsSync(sqliteFileIn(dataDir))) throw new BackupError(`There is no database at ${sqliteFileIn(dataDir)}: check DATA_DIR (and DATABASE_URL for PostgreSQL).`);
  const staging = stagingIn(dataDir);
  const partial = `${out}.partial`;
  try {
    // The database first: the data files copied after it hold every block its pins name.
    let migration: string | null;
    if (engine === 'sqlite') {
      const db = createDb({ sqliteFile: sqliteFileIn(dataDir) });
      try {
        migration = await lastMigration(db);
        await db.raw('VACUUM INTO ?', [path.join(staging, SQLITE_DUMP)]);
      } finally {
        await db.destroy();
      }
    } else {
      const db = createDb({ databaseUrl: config.databaseUrl });
      try {
        migration = await lastMigration(db);
      } finally {
        await db.destroy();
      }
      await runTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${path.join(staging, PG_DUMP)}`, `--dbname=${config.databaseUrl}`]);
    }
    let files = 0;
    let bytes = 0;
    for (const rel of walk(dataDir)) {
      const size = linkOrCopy(path.join(dataDir, rel), path.join(staging, DATA, rel));
      if (size < 0) continue;
      files += 1;
      bytes += size;
    }
    fs.mkdirSync(path.join(staging, DATA), { recursive: true });
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      cairnVersion: CAIRN_VERSION,
      engine,
      lastMigration: migration,
      files,
      bytes,
    };
    fs.writeFileSync(path.join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    const entries = ['manifest.json', engine === 'sqlite' ? SQLITE_DUMP : PG_DUMP, DATA];
    // The archive holds the session secret, sessions, project keys and webhook secrets: readable
    // by its owner only, from its first byte (the mode is set on creation, not after writing).
    fs.rmSync(partial, { force: true });
    await tar.create({ gzip: true, file: partial, cwd: staging, portable: true, mode: BACKUP_FILE_MODE }, entries);
    fs.chmodSync(partial, BACKUP_FILE_MODE);
    fs.renameSync(partial, out);
    return { file: out, manifest };
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

export interface RestoreSummary {
  manifest: BackupManifest;
  /** Migrations applied after the restore (a backup from an older release is brought up to date). */
  migrated: number;
}

async function postgresIsEmpty(databaseUrl: string): Promise<boolean> {
  const db = createDb({ databaseUrl });
  try {
    const rows = (await db.raw("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = current_schema()")) as { rows: Array<{ n: number }> };
    return rows.rows[0]!.n === 0;
  } finally {
    await db.destroy();
  }
}

function readManifest(staging: string): BackupManifest {
  const file = path.join(staging, 'manifest.json');
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupManifest;
  } catch {
    throw new BackupError('This file is not a Cairn backup (it has no readable manifest.json).');
  }
  if (manifest.format !== BACKUP_FORMAT) throw new BackupError('This file is not a Cairn backup.');
  if (manifest.formatVersion > BACKUP_FORMAT_VERSION) throw new BackupError(`This backup was written by a newer Cairn (backup format ${manifest.formatVersion}); restore it with that release or a later one.`);
  return manifest;
}

/** Restores `file` into the configured, empty data directory and database, then migrates it to this release. */
export async function restore(config: Config, file: string): Promise<RestoreSummary> {
  const src = path.resolve(file);
  if (!fs.existsSync(src) || !fs.statSync(src).isFile()) throw new BackupError(`There is no backup file at ${file}.`);
  const dataDir = config.dataDir;
  const engine = engineOf(config);
  const existing = fs.existsSync(dataDir) ? fs.readdirSync(dataDir).filter((n) => !n.startsWith(STAGING_PREFIX)) : [];
  if (existing.length > 0) throw new BackupError(`Restore needs an empty data directory, and ${dataDir} holds ${existing.slice(0, 3).join(', ')}${existing.length > 3 ? '…' : ''}. Point DATA_DIR at a new folder.`);
  if (engine === 'postgresql' && !(await postgresIsEmpty(config.databaseUrl!))) throw new BackupError('Restore needs an empty database, and the one DATABASE_URL names has tables. Create a new database and point DATABASE_URL at it.');
  const staging = stagingIn(dataDir);
  try {
    try {
      await tar.extract({ file: src, cwd: staging, strict: true });
    } catch (err) {
      throw new BackupError(`This file is not a readable Cairn backup (${(err as Error).message}).`);
    }
    const manifest = readManifest(staging);
    if (manifest.engine !== engine) {
      throw new BackupError(
        manifest.engine === 'sqlite'
          ? 'This backup holds a SQLite database: restore it with DATABASE_URL unset (into DATA_DIR).'
          : 'This backup holds a PostgreSQL database: restore it with DATABASE_URL naming an empty PostgreSQL database.',
      );
    }
    if (manifest.lastMigration && !migrations.some(([name]) => name === manifest.lastMigration)) {
      throw new BackupError(`This backup was written by a newer Cairn (${manifest.cairnVersion}, migration ${manifest.lastMigration}); restore it with that release or a later one.`);
    }
    // Data files first, then the database: a failed database restore leaves files an operator removes with the folder.
    const data = path.join(staging, DATA);
    for (const rel of walk(data)) {
      const to = path.join(dataDir, rel);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.renameSync(path.join(data, rel), to);
    }
    if (engine === 'sqlite') {
      const dump = path.join(staging, SQLITE_DUMP);
      if (!fs.existsSync(dump)) throw new BackupError('This backup has no database in it.');
      fs.renameSync(dump, sqliteFileIn(dataDir));
    } else {
      const dump = path.join(staging, PG_DUMP);
      if (!fs.existsSync(dump)) throw new BackupError('This backup has no database in it.');
      await runTool('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${config.databaseUrl}`, dump]);
    }
    const db = createDb(engine === 'sqlite' ? { sqliteFile: sqliteFileIn(dataDir) } : { databaseUrl: config.databaseUrl });
    try {
      const [, applied] = (await migrateLatest(db)) as [number, string[]];
      return { manifest, migrated: applied.length };
    } finally {
      await db.destroy();
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
