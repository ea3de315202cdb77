import type { Db } from '../../db/index';
import type { Knex } from 'knex';
import { AppError, NotFound, PlanLimit } from '../../errors';
import { ipfsNetwork } from '../../../shared/networks';
import { COUNTED_PIN_STATES, PIN_QUEUE_LIMIT, ipfsMessages, mbText, type IpfsPin, type PinState } from '../../../shared/ipfs';
import { getSubscription, withOwnerLock } from '../workspaces/index';

// IPFS bookkeeping: who added and pinned what, and the storage each subscription uses. Storage is
// pooled like projects (every workspace the owner owns) and counts each CID once per owner.

/** The project a gateway call came from, and the subscription owner its storage counts against. */
export interface IpfsActor {
  projectId: number;
  ownerId: number;
}

export interface PinRow {
  id: number;
  project_id: number;
  cid: string;
  size: number;
  state: PinState;
  filecoin: boolean;
  time_created: number;
  time_pinned: number | null;
  updated_at: number;
  provider_request_id: string | null;
  failure: string | null;
}

export class PinQueueFull extends AppError {
  constructor() {
    super(425, 'pin_queue_full', `This project already has ${PIN_QUEUE_LIMIT} pins queued. Wait until some of them are pinned, then try again.`);
  }
}

export class FilecoinPinPermanent extends AppError {
  constructor() {
    super(400, 'filecoin_permanent', ipfsMessages.filecoinRemove);
  }
}

const toRow = (r: Record<string, unknown>): PinRow => ({
  id: Number(r.id),
  project_id: Number(r.project_id),
  cid: String(r.cid),
  size: Number(r.size),
  state: r.state as PinState,
  filecoin: r.filecoin === true || r.filecoin === 1,
  time_created: Number(r.time_created),
  time_pinned: r.time_pinned == null ? null : Number(r.time_pinned),
  updated_at: Number(r.updated_at),
  provider_request_id: (r.provider_request_id as string | null) ?? null,
  failure: (r.failure as string | null) ?? null,
});

/** The gateway's shape of a pin: UNIX seconds, size as a string. */
export const pinDto = (p: PinRow): IpfsPin => ({
  time_created: Math.floor(p.time_created / 1000),
  time_pinned: p.time_pinned == null ? null : Math.floor(p.time_pinned / 1000),
  ipfs_hash: p.cid,
  size: String(p.size),
  state: p.state,
  filecoin: p.filecoin,
});

/** Pins of every project in workspaces the owner owns (a transferred workspace takes its pins along). */
const ownerPins = (db: Db, ownerId: number) =>
  db('ipfs_pins as ip').join('projects as pr', 'pr.id', 'ip.project_id').join('workspaces as w', 'w.id', 'pr.workspace_id').where('w.owner_id', ownerId);

/** Bytes counted for the owner, each CID once: ordinary storage, or Filecoin storage. */
async function counted(db: Db, ownerId: number, filecoin: boolean): Promise<number> {
  const perCid = ownerPins(db, ownerId)
    .whereIn('ip.state', COUNTED_PIN_STATES as PinState[])
    .andWhere('ip.filecoin', filecoin)
    .groupBy('ip.cid')
    .select('ip.cid')
    .max({ s: 'ip.size' });
  const row = await db.from(perCid.as('x')).sum({ total: 's' }).first();
  return Number(row?.total ?? 0);
}

/**
 * Bytes of the owner's adds the collector still keeps (added within the grace period) whose CID no
 * counted pin of the owner already counts, each CID once.
 */
async function keptAdds(db: Db, ownerId: number, graceMs: number, now: number): Promise<number> {
  const pinnedCids = ownerPins(db, ownerId).whereIn('ip.state', COUNTED_PIN_STATES as PinState[]).andWhere('ip.filecoin', false).select('ip.cid');
  const perCid = db('ipfs_objects as io')
    .join('projects as pr', 'pr.id', 'io.project_id')
    .join('workspaces as w', 'w.id', 'pr.workspace_id')
    .where('w.owner_id', ownerId)
    .andWhere('io.created_at', '>=', now - graceMs)
    .whereNotIn('io.cid', pinnedCids)
    .groupBy('io.cid')
    .select('io.cid')
    .max({ s: 'io.size' });
  const row = await db.from(perCid.as('x')).sum({ total: 's' }).first();
  return Number(row?.total ?? 0);
}

/**
 * What counts against the storage of the subscription owned by ownerId (pooled over their
 * workspaces, each CID once): the counted pins and the adds not yet collected, as an add's limit
 * check counts them; and the Filecoin pins.
 */
export async function storageUsed(db: Db, ownerId: number, graceMs: number, now = Date.now()): Promise<{ storage: number; filecoin: number }> {
  const [pinned, added, filecoin] = await Promise.all([counted(db, ownerId, false), keptAdds(db, ownerId, graceMs, now), counted(db, ownerId, true)]);
  return { storage: pinned + added, filecoin };
}

/** Room for an add in the owner's storage: the plan's storageLimit less what counts against it (storageUsed). */
export async function addRoom(db: Db, ownerId: number, graceMs: number, now = Date.now()): Promise<{ limit: number; used: number; planName: string }> {
  const [{ plan }, pinned, added] = await Promise.all([getSubscription(db, ownerId), counted(db, ownerId, false), keptAdds(db, ownerId, graceMs, now)]);
  return { limit: plan.storageLimit, used: pinned + added, planName: plan.name };
}

/** Records a finished add. Called by the store inside its add, so the row and the blocks appear together. */
export async function recordObject(db: Db, actor: IpfsActor, object: { cid: string; name: string; size: number }, now = Date.now()): Promise<void> {
  await db('ipfs_objects').insert({ project_id: actor.projectId, cid: object.cid, name: object.name.slice(0, 255), size: object.size, created_at: now });
}

/**
 * Pins cid for the project. The storage check and the write happen under the owner's lock, so
 * parallel pins can never overshoot the plan. `queued` pins wait for the queue (Filecoin deals, a
 * Kubo node fetching the content); others are pinned at once. Pinning what the project already pins
 * answers the existing pin.
 */
export async function requestPin(
  db: Db,
  actor: IpfsActor,
  pin: { cid: string; size: number; filecoin: boolean; queued: boolean },
  now = Date.now(),
): Promise<PinRow> {
  return withOwnerLock(db, actor.ownerId, async (trx) => {
    const existing = await trx('ipfs_pins').where({ project_id: actor.projectId, cid: pin.cid }).first();
    const current = existing ? toRow(existing) : null;
    if (current && COUNTED_PIN_STATES.includes(current.state) && (current.filecoin || !pin.filecoin)) return current;
    const filecoin = pin.filecoin || (current?.filecoin ?? false);
    const state: PinState = pin.queued || filecoin ? 'queued' : 'pinned';
    if (state === 'queued') {
      const queued = await trx('ipfs_pins').where({ project_id: actor.projectId, state: 'queued' }).count({ n: '*' }).first();
      if (Number(queued?.n ?? 0) >= PIN_QUEUE_LIMIT) throw new PinQueueFull();
    }
    const already = await ownerPins(trx, actor.ownerId)
      .where({ 'ip.cid': pin.cid, 'ip.filecoin': filecoin })
      .whereIn('ip.state', COUNTED_PIN_STATES as PinState[])
      .first('ip.id');
    if (!already) {
      const { plan } = await getSubscription(trx, actor.ownerId);
      const limit = filecoin ? plan.storageLimitFilecoin : plan.storageLimit;
      const used = await counted(trx, actor.ownerId, filecoin);
      if (used + pin.size > limit) {
        throw new PlanLimit(
          `${filecoin ? 'Filecoin storage' : 'Storage'} limit of the ${plan.name} plan reached: ${mbText(used)} of ${mbText(limit)} used, and this object needs ${mbText(pin.size)}. Remove pins or upgrade the plan.`,
          { limit: filecoin ? 'storageLimitFilecoin' : 'storageLimit', max: limit, used, needed: pin.size },
        );
      }
    }
    const values = {
      size: pin.size,
      state,
      filecoin,
      time_pinned: state === 'pinned' ? now : null,
      updated_at: now,
      provider_request_id: null,
      failure: null,
    };
    if (current) await trx('ipfs_pins').where({ id: current.id }).update(values);
    else await trx('ipfs_pins').insert({ project_id: actor.projectId, cid: pin.cid, time_created: now, ...values });
    return toRow(await trx('ipfs_pins').where({ project_id: actor.projectId, cid: pin.cid }).first());
  });
}

export async function getPin(db: Db, projectId: number, cid: string): Promise<PinRow> {
  const row = await db('ipfs_pins').where({ project_id: projectId, cid }).first();
  if (!row) throw new NotFound();
  return toRow(row);
}

export async function listPins(db: Db, projectId: number, page: { count: number; page: number; order: 'asc' | 'desc' }): Promise<PinRow[]> {
  const rows = await db('ipfs_pins')
    .where({ project_id: projectId })
    .orderBy([{ column: 'time_created', order: page.order }, { column: 'id', order: page.order }])
    .limit(page.count)
    .offset((page.page - 1) * page.count);
  return rows.map(toRow);
}

export async function countPins(db: Db, projectId: number): Promise<number> {
  const row = await db('ipfs_pins').where({ project_id: projectId }).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** Unpins: the pin stops counting at once and its blocks go at the next collection. Filecoin pins stay for good. */
export async function removePin(db: Db, projectId: number, cid: string, now = Date.now()): Promise<PinRow> {
  return db.transaction(async (trx) => {
    const row = await trx('ipfs_pins').where({ project_id: projectId, cid }).forUpdate().first();
    if (!row) throw new NotFound();
    const pin = toRow(row);
    if (pin.filecoin) throw new FilecoinPinPermanent();
    if (pin.state === 'unpinned' || pin.state === 'gc') return pin;
    await trx('ipfs_pins').where({ id: pin.id }).update({ state: 'unpinned', updated_at: now });
    return { ...pin, state: 'unpinned', updated_at: now };
  });
}

/** How long a queue pass holds a pin it claimed (longer than a call to the pinning service may take). */
export const PIN_CLAIM_MS = 5 * 60_000;

const unclaimed = (q: Knex.QueryBuilder, now: number) => q.whereNull('claimed_until').orWhere('claimed_until', '<', now);

/** Queued pins no other queue pass holds, least recently worked on first. */
export async function queuedPins(db: Db, limit: number, now = Date.now()): Promise<PinRow[]> {
  return (await db('ipfs_pins').where({ state: 'queued' }).andWhere((q) => unclaimed(q, now)).orderBy('updated_at').limit(limit)).map(toRow);
}

/**
 * Claims a queued pin for this pass until PIN_CLAIM_MS from now; answers false when another pass
 * claimed it first (or it left the queue). What the pass writes next about the pin releases it.
 */
export async function claimPin(db: Db, id: number, now = Date.now()): Promise<boolean> {
  const n = await db('ipfs_pins').where({ id, state: 'queued' }).andWhere((q) => unclaimed(q, now)).update({ claimed_until: now + PIN_CLAIM_MS });
  return n === 1;
}

export async function markPinned(db: Db, id: number, now = Date.now()): Promise<void> {
  await db('ipfs_pins').where({ id, state: 'queued' }).update({ state: 'pinned', time_pinned: now, updated_at: now, failure: null, claimed_until: null });
}

export async function markFailed(db: Db, id: number, reason: string, now = Date.now()): Promise<void> {
  await db('ipfs_pins').where({ id, state: 'queued' }).update({ state: 'failed', updated_at: now, failure: reason.slice(0, 500), claimed_until: null });
}

export async function setProviderRequest(db: Db, id: number, requestId: string, now = Date.now()): Promise<void> {
  await db('ipfs_pins').where({ id }).update({ provider_request_id: requestId, updated_at: now, claimed_until: null });
}

/** Touches a queued pin so the queue moves on to others before asking about it again. */
export async function touchPin(db: Db, id: number, now = Date.now()): Promise<void> {
  await db('ipfs_pins').where({ id }).update({ updated_at: now, claimed_until: null });
}

/**
 * One collection's bookkeeping: unpinned pins become gc (their CIDs are returned with whether any
 * pin still holds them, so a Kubo node can be told to unpin), gc pins older than the grace period
 * are deleted.
 */
export async function expirePins(db: Db, graceMs: number, now = Date.now()): Promise<{ released: string[] }> {
  const unpinned = await db('ipfs_pins').where({ state: 'unpinned' }).select('id', 'cid');
  const released: string[] = [];
  if (unpinned.length) {
    await db('ipfs_pins').whereIn('id', unpinned.map((r) => r.id)).andWhere({ state: 'unpinned' }).update({ state: 'gc', updated_at: now });
    const cids = [...new Set(unpinned.map((r) => String(r.cid)))];
    const held = new Set((await db('ipfs_pins').whereIn('cid', cids).whereIn('state', COUNTED_PIN_STATES as PinState[]).distinct('cid')).map((r) => String(r.cid)));
    for (const c of cids) if (!held.has(c)) released.push(c);
  }
  await db('ipfs_pins').where({ state: 'gc' }).andWhere('updated_at', '<', now - graceMs).delete();
  return { released };
}

/**
 * Bytes of what the store keeps, by the database's record: every pinned or queued CID and every
 * add within the grace period, each CID once (the metrics' store size; one query).
 */
export async function storedBytes(db: Db, graceMs: number, now = Date.now()): Promise<number> {
  const kept = db('ipfs_pins')
    .whereIn('state', COUNTED_PIN_STATES as PinState[])
    .select('cid', 'size')
    .unionAll((q) => {
      q.from('ipfs_objects').where('created_at', '>=', now - graceMs).select('cid', 'size');
    });
  const perCid = db.from(kept.as('k')).groupBy('cid').select('cid').max({ s: 'size' });
  const row = await db.from(perCid.as('x')).sum({ total: 's' }).first();
  return Number(row?.total ?? 0);
}

/** What a collection must keep: every pinned or queued CID, and everything added within the grace period. */
export async function collectionRoots(db: Db, graceMs: number, now = Date.now()): Promise<Set<string>> {
  const [pins, recent] = await Promise.all([
    db('ipfs_pins').whereIn('state', COUNTED_PIN_STATES as PinState[]).distinct('cid'),
    db('ipfs_objects').where('created_at', '>=', now - graceMs).distinct('cid'),
  ]);
  return new Set([...pins, ...recent].map((r) => String(r.cid)));
}

/** The IPFS figures of one project for its page: pooled storage of its subscription and the project's pins. */
/** The id of a workspace's IPFS project; NotFound for another network's project, or none. */
export async function findIpfsProjectId(db: Db, uuid: string, workspaceId: number): Promise<number> {
  const project = await db('projects').where({ uuid, workspace_id: workspaceId, network_id: ipfsNetwork.value }).first('id');
  if (!project) throw new NotFound('Project not found.');
  return project.id as number;
}

export async function projectIpfs(db: Db, projectId: number, ownerId: number, page: { count: number; page: number }, graceMs: number) {
  const [{ plan }, used, pins, total] = await Promise.all([
    getSubscription(db, ownerId),
    storageUsed(db, ownerId, graceMs),
    listPins(db, projectId, { ...page, order: 'desc' }),
    countPins(db, projectId),
  ]);
  return {
    storage: { used: used.storage, limit: plan.storageLimit, filecoinUsed: used.filecoin, filecoinLimit: plan.storageLimitFilecoin },
    pins: pins.map(pinDto),
    totalPins: total,
  };
}
