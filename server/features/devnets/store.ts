// The devnets and their snapshots in the database (tables devnets, devnet_snapshots).
import type { Db } from '../../db/index';
import { Conflict } from '../../errors';
import { MAX_DEVNET_SNAPSHOTS, type DevnetSnapshotDto } from '../../../shared/devnets';
import type { DevnetSnapshotJson, DevnetStateJson } from './engine';

export interface DevnetRow {
  id: number;
  projectId: number;
  state: DevnetStateJson;
  version: number;
}

const rowOf = (r: Record<string, unknown>): DevnetRow => ({
  id: Number(r.id),
  projectId: Number(r.project_id),
  state: JSON.parse(String(r.state)) as DevnetStateJson,
  version: Number(r.version),
});

export async function readDevnet(db: Db, projectId: number): Promise<DevnetRow | null> {
  const r = (await db('devnets').where({ project_id: projectId }).first('id', 'project_id', 'state', 'version')) as Record<string, unknown> | undefined;
  return r ? rowOf(r) : null;
}

/** The version alone (null: the project has no devnet yet). */
export async function devnetVersion(db: Db, projectId: number): Promise<number | null> {
  const r = (await db('devnets').where({ project_id: projectId }).first('version')) as { version: number | string } | undefined;
  return r ? Number(r.version) : null;
}

/**
 * What a gateway compares with the chain it holds, at each request, in one statement: the devnet's
 * version, and the sequence number of the last entry of its ledger (`ledgerKey` in sandbox_ledger;
 * 0 when none), which tells whether other processes accepted transactions since the last read.
 */
export async function devnetFreshness(db: Db, projectId: number, ledgerKey: string): Promise<{ version: number; seq: number } | null> {
  const last = db('sandbox_ledger').where({ network: ledgerKey }).max('seq').as('seq');
  const r = (await db('devnets').where({ project_id: projectId }).first('version', last)) as { version: number | string; seq: number | string | null } | undefined;
  return r ? { version: Number(r.version), seq: r.seq === null ? 0 : Number(r.seq) } : null;
}

/**
 * Inserts a project's devnet (`running`: whether its clock runs); when another process inserted it
 * first, answers that one. One statement when the row is new (its id comes back with the insert).
 */
export async function insertDevnet(db: Db, projectId: number, state: DevnetStateJson, running: boolean, now: number): Promise<DevnetRow> {
  const text = JSON.stringify(state);
  const inserted = (await db('devnets').insert({ project_id: projectId, state: text, running, version: 1, created_at: now, updated_at: now }).onConflict(['project_id']).ignore().returning('id')) as Array<{ id: number | string } | number>;
  const first = inserted[0];
  if (first === undefined) return (await readDevnet(db, projectId))!;
  return { id: Number(typeof first === 'object' ? first.id : first), projectId, state: JSON.parse(text) as DevnetStateJson, version: 1 };
}

/** Writes a new state (`running`: whether its clock runs) if the devnet is still at `version`; false when another process changed it meanwhile. */
export async function saveDevnetState(db: Db, id: number, version: number, state: DevnetStateJson, running: boolean, now: number): Promise<boolean> {
  const n = await db('devnets').where({ id, version }).update({ state: JSON.stringify(state), running, version: version + 1, updated_at: now });
  return n === 1;
}

/**
 * Takes a devnet's steering lease for `token` until `until` when no other call holds it (or the one
 * that does let it expire): what a steering call on SQLite takes before it writes anything.
 */
export async function claimSteering(db: Db, projectId: number, token: string, now: number, until: number): Promise<boolean> {
  const n = await db('devnets')
    .where({ project_id: projectId })
    .andWhere((q) => q.whereNull('steering_until').orWhere('steering_until', '<', now))
    .update({ steering_by: token, steering_until: until });
  return n === 1;
}

/** Gives the lease back (a no-op once it expired and another call took it). */
export async function releaseSteering(db: Db, projectId: number, token: string): Promise<void> {
  await db('devnets').where({ project_id: projectId, steering_by: token }).update({ steering_by: null, steering_until: null });
}

export async function listSnapshots(db: Db, devnetId: number): Promise<DevnetSnapshotDto[]> {
  const rows = (await db('devnet_snapshots').where({ devnet_id: devnetId }).orderBy('created_at', 'asc').orderBy('id', 'asc').select('name', 'created_at', 'height')) as Array<{ name: string; created_at: number | string; height: number | string }>;
  return rows.map((r) => ({ name: r.name, created_at: Math.floor(Number(r.created_at) / 1000), height: Number(r.height) }));
}

export async function insertSnapshot(db: Db, devnetId: number, name: string, snapshot: DevnetSnapshotJson, height: number, now: number): Promise<void> {
  await db.transaction(async (trx) => {
    const counted = (await trx('devnet_snapshots').where({ devnet_id: devnetId }).count({ n: '*' })) as Array<{ n: number | string }>;
    if (Number(counted[0]?.n ?? 0) >= MAX_DEVNET_SNAPSHOTS) throw new Conflict(`A devnet keeps at most ${MAX_DEVNET_SNAPSHOTS} snapshots: delete one first.`);
    const inserted = await trx('devnet_snapshots').insert({ devnet_id: devnetId, name, snapshot: JSON.stringify(snapshot), height, created_at: now }).onConflict(['devnet_id', 'name']).ignore().returning('id');
    if (inserted.length === 0) throw new Conflict(`A snapshot named ${name} exists already: choose another name, or delete it first.`);
  });
}

export async function readSnapshot(db: Db, devnetId: number, name: string): Promise<DevnetSnapshotJson | null> {
  const r = (await db('devnet_snapshots').where({ devnet_id: devnetId, name }).first('snapshot')) as { snapshot: string } | undefined;
  return r ? (JSON.parse(r.snapshot) as DevnetSnapshotJson) : null;
}

export async function deleteSnapshot(db: Db, devnetId: number, name: string): Promise<boolean> {
  return (await db('devnet_snapshots').where({ devnet_id: devnetId, name }).delete()) > 0;
}

/**
 * The accepted transactions of devnets that no longer exist (their project was deleted, the devnet
 * with it): the ledger's rows are keyed `devnet:<id>` and have no foreign key to the devnet.
 */
export async function pruneDevnetLedgers(db: Db): Promise<number> {
  return db('sandbox_ledger')
    .where('network', 'like', 'devnet:%')
    .whereNotExists((q) => q.select(db.raw('1')).from('devnets').whereRaw("sandbox_ledger.network = 'devnet:' || devnets.id"))
    .delete();
}
