import { Address, RewardAddress } from '@emurgo/cardano-serialization-lib-nodejs';
import type { Db } from '../../db/index';
import { SerialTicker } from '../../ticker';
import { AppError, Conflict, Invalid, NotFound } from '../../errors';
import { messages } from '../../../shared/messages';
import { endpointNetworks, looksLikeShelleyAddress, type CommunityEndpoint, type EndpointNetwork, type ReviewedEndpoint } from '../../../shared/endpoints';

// Community endpoints: submitted by the people who run a Blockfrost-compatible backend, checked,
// enabled or rejected by an operator; the gateway uses the enabled ones as upstreams of their network.

/** The network id (1 mainnet, 0 test networks) of a Shelley payment address, decoded with cardano-serialization-lib. */
export function paymentAddressNetworkId(value: string): number {
  const invalid = () => new Invalid(messages.submitEndpoint.addressInvalid, [{ path: 'paymentAddress', message: messages.submitEndpoint.addressInvalid }]);
  if (!looksLikeShelleyAddress(value)) throw invalid();
  let address: Address;
  try {
    address = Address.from_bech32(value);
  } catch {
    throw invalid();
  }
  try {
    // A reward (stake) address cannot receive payments.
    if (RewardAddress.from_address(address)) throw invalid();
    return address.network_id();
  } finally {
    address.free();
  }
}

export class EndpointCheckError extends AppError {
  constructor(message: string) {
    super(422, 'endpoint_check_failed', message, [{ path: 'endpoint', message }]);
  }
}

interface Row {
  id: number;
  user_id: number;
  url: string;
  payment_address: string;
  network: string;
  status: string;
  backend_version: string | null;
  position: number;
  checked_at: number | string;
  reviewed_at: number | string | null;
  created_at: number | string;
  requests_served?: number | string | null;
  submitter_email?: string;
}

const toEndpoint = (r: Row): CommunityEndpoint => ({
  id: r.id,
  url: r.url,
  payment_address: r.payment_address,
  network: r.network as EndpointNetwork,
  status: r.status as CommunityEndpoint['status'],
  backend_version: r.backend_version,
  position: r.position,
  checked_at: Number(r.checked_at),
  reviewed_at: r.reviewed_at === null ? null : Number(r.reviewed_at),
  created_at: Number(r.created_at),
  requests_served: Number(r.requests_served ?? 0),
});

const withServed = (db: Db) =>
  db('community_endpoints as e')
    .leftJoin(db('community_endpoint_usage').select('endpoint_id').sum({ requests_served: 'requests' }).groupBy('endpoint_id').as('u'), 'u.endpoint_id', 'e.id')
    .select('e.*', 'u.requests_served');

export interface SubmitArgs {
  userId: number;
  endpoint: string;
  paymentAddress: string;
  /** Checks the backend and detects its network (GET /, /health, /blocks/latest, /genesis); throws with the reason. */
  check: (url: string) => Promise<{ network: EndpointNetwork; version: string | null }>;
  now?: number;
}

export async function submitEndpoint(db: Db, args: SubmitArgs): Promise<CommunityEndpoint> {
  const addressNetwork = paymentAddressNetworkId(args.paymentAddress);
  if (await db('community_endpoints').where({ url: args.endpoint }).first('id')) throw new Conflict('This endpoint has already been submitted.');
  let detected: { network: EndpointNetwork; version: string | null };
  try {
    detected = await args.check(args.endpoint);
  } catch (err) {
    throw new EndpointCheckError(`The endpoint did not answer like a Blockfrost backend. ${(err as Error).message}`);
  }
  const { label, addressNetworkId } = endpointNetworks[detected.network];
  if (addressNetwork !== addressNetworkId) {
    const message = `The payment address is a ${addressNetwork === 1 ? 'mainnet' : 'test network'} address, but the endpoint serves ${label}.`;
    throw new Invalid(message, [{ path: 'paymentAddress', message }]);
  }
  const now = args.now ?? Date.now();
  try {
    const [row] = await db('community_endpoints')
      .insert({
        user_id: args.userId,
        url: args.endpoint,
        payment_address: args.paymentAddress,
        network: detected.network,
        status: 'pending',
        backend_version: detected.version,
        position: 0,
        checked_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning('*');
    return toEndpoint(row as Row);
  } catch (err) {
    if (/unique|duplicate/i.test((err as Error).message)) throw new Conflict('This endpoint has already been submitted.');
    throw err;
  }
}

export async function endpointsOf(db: Db, userId: number): Promise<CommunityEndpoint[]> {
  const rows = (await withServed(db).where('e.user_id', userId).orderBy('e.id', 'desc')) as Row[];
  return rows.map(toEndpoint);
}

export async function allEndpoints(db: Db): Promise<ReviewedEndpoint[]> {
  const rows = (await withServed(db).join('users', 'users.id', 'e.user_id').select('users.email as submitter_email').orderBy([{ column: 'e.network' }, { column: 'e.position' }, { column: 'e.id' }])) as Row[];
  return rows.map((r) => ({ ...toEndpoint(r), submitter_email: r.submitter_email ?? '' }));
}

/**
 * Enable (appended after the network's enabled upstreams), disable, or reject an endpoint. Enabling
 * checks the backend again first, so what was submitted long ago is not enabled without answering.
 */
export async function reviewEndpoint(
  db: Db,
  id: number,
  action: 'enable' | 'disable' | 'reject',
  operatorId: number,
  check: SubmitArgs['check'],
  now = Date.now(),
): Promise<CommunityEndpoint> {
  const existing = (await db('community_endpoints').where({ id }).first('url', 'network')) as { url: string; network: string } | undefined;
  if (!existing) throw new NotFound('There is no such endpoint.');
  let recheck: { version: string | null } | null = null;
  if (action === 'enable') {
    let detected: { network: EndpointNetwork; version: string | null };
    try {
      detected = await check(existing.url);
    } catch (err) {
      throw new EndpointCheckError(`The endpoint does not answer like a Blockfrost backend now. ${(err as Error).message}`);
    }
    if (detected.network !== existing.network) throw new EndpointCheckError(`The endpoint now serves ${endpointNetworks[detected.network].label}, not ${existing.network}; it has to be submitted again.`);
    recheck = { version: detected.version };
  }
  return db.transaction(async (trx) => {
    const row = (await trx('community_endpoints').where({ id }).first()) as Row | undefined;
    if (!row) throw new NotFound('There is no such endpoint.');
    const patch: Record<string, unknown> = { reviewed_at: now, reviewed_by: operatorId, updated_at: now };
    if (recheck) Object.assign(patch, { checked_at: now, backend_version: recheck.version });
    if (action === 'enable') {
      if (row.status !== 'enabled') {
        const last = (await trx('community_endpoints').where({ network: row.network, status: 'enabled' }).max({ p: 'position' }).first()) as { p: number | null } | undefined;
        patch.position = Number(last?.p ?? 0) + 1;
      }
      patch.status = 'enabled';
    } else patch.status = action === 'disable' ? 'disabled' : 'rejected';
    await trx('community_endpoints').where({ id }).update(patch);
    const [updated] = (await withServed(trx as unknown as Db).where('e.id', id)) as Row[];
    return toEndpoint(updated!);
  });
}

/** The enabled endpoints, in order of use per network (read by the gateway). */
export async function enabledEndpoints(db: Db): Promise<Array<{ id: number; url: string; network: EndpointNetwork; position: number; updated_at: number }>> {
  const rows = await db('community_endpoints').where({ status: 'enabled' }).orderBy([{ column: 'network' }, { column: 'position' }, { column: 'id' }]).select('id', 'url', 'network', 'position', 'updated_at');
  return rows.map((r: { id: number; url: string; network: EndpointNetwork; position: number; updated_at: number | string }) => ({ ...r, updated_at: Number(r.updated_at) }));
}

/** Adds the requests each endpoint served on a day (the gateway's periodic flush). */
export async function addServedRequests(db: Db, counts: Map<number, number>, dayMs: number): Promise<void> {
  const rows = [...counts].filter(([, n]) => n > 0).map(([endpoint_id, requests]) => ({ endpoint_id, day_ms: dayMs, requests }));
  if (rows.length === 0) return;
  await db('community_endpoint_usage')
    .insert(rows)
    .onConflict(['endpoint_id', 'day_ms'])
    .merge({ requests: db.raw('community_endpoint_usage.requests + excluded.requests') });
}

/**
 * The Cardano networks some enabled community endpoint serves, refreshed every few seconds: their
 * projects no longer get the sandbox chain, so the dashboard stops marking them 'Sandbox data'.
 */
export function communityServedNetworks(db: Db, onError: (err: Error) => void, intervalMs = 2000) {
  let served = new Set<string>();
  const ticker = new SerialTicker(
    async () => {
      served = new Set((await db('community_endpoints').where({ status: 'enabled' }).distinct('network')).map((r: { network: string }) => r.network));
    },
    intervalMs,
    onError,
  );
  ticker.start();
  return { has: (network: string) => served.has(network), stop: () => ticker.stop() };
}
