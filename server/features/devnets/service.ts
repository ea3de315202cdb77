// The steering calls of a devnet, whoever makes them (a devnet key on the gateway, a member on the
// project page): each is one change of the chain, written through the database and recorded in the
// workspace's audit log. Plain arguments in, plain data out; HTTP lives in gateway.ts and routes.ts.
import type { Db } from '../../db/index';
import { Invalid, NotFound } from '../../errors';
import { recordAudit, type AuditOrigin } from '../audit/index';
import type { AuditAction, AuditActor } from '../../../shared/audit';
import type { AdvanceTime, DevnetGenesisSettings, DevnetStateDto, DevnetTipDto, FundRequest } from '../../../shared/devnets';
import { isDevnetNetwork } from '../../../shared/networks';
import type { DevnetChain } from './engine';
import type { DevnetRegistry } from './registry';
import { deleteSnapshot, insertSnapshot, listSnapshots, readSnapshot } from './store';

const NO_DEVNET = 'This project has no devnet: only Cardano devnet projects have one.';

/** Whose call it is, on which devnet project. */
export interface SteeringCall {
  projectId: number;
  projectUuid: string;
  workspaceId: number;
  actor: AuditActor;
  origin: AuditOrigin;
}

export type DevnetService = ReturnType<typeof devnetService>;

type Details = Record<string, string | number | boolean | null>;

/** What every steering call shares: the state it answers, its audit entry, the change run through the registry. */
function steeringKit(db: Db, registry: DevnetRegistry) {
  const stateOf = async (devnetId: number, chain: DevnetChain): Promise<DevnetStateDto> => {
    const f = chain.facts();
    return {
      tip: chain.tip(),
      paused: f.paused,
      block_interval_ms: f.blockIntervalMs,
      slot_length_ms: f.slotLengthMs,
      epoch_length: f.epochLength,
      network_magic: f.networkMagic,
      system_start: Math.floor(f.systemStart / 1000),
      snapshots: await listSnapshots(db, devnetId),
    };
  };

  const audit = async (c: SteeringCall, action: AuditAction, details: Details) => {
    const project = (await db('projects').where({ id: c.projectId }).first('name')) as { name: string } | undefined;
    const label = project?.name ?? c.projectUuid;
    // A key's call is recorded under its project's name (the key itself is never written).
    const actor = 'projectKey' in c.actor ? { projectKey: label } : c.actor;
    await recordAudit(db, { workspaceId: c.workspaceId, actor, action, target: { type: 'project', id: c.projectUuid, label }, details, ...c.origin });
  };

  /** A steering call: the change, its audit entry with what it did, and the devnet's state after it. */
  async function steered<T>(c: SteeringCall, action: AuditAction, change: (chain: DevnetChain, devnetId: number) => Promise<T>, details: (result: T, tip: DevnetTipDto) => Details) {
    let devnetId = 0;
    let chain: DevnetChain | null = null;
    const result = await registry.steer(c.projectId, async (ch, id) => {
      devnetId = id;
      chain = ch;
      return change(ch, id);
    });
    const state = await stateOf(devnetId, chain!);
    await audit(c, action, details(result, state.tip));
    return { result, state };
  }

  return { stateOf, audit, steered };
}
type Kit = ReturnType<typeof steeringKit>;

/** A refusal of the chain (a bad address, an amount out of range, a snapshot it cannot read) is the caller's 400. */
async function rangeToInvalid<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof RangeError) throw new Invalid(err.message.endsWith('.') ? err.message : `${err.message}.`);
    throw err;
  }
}

/** Snapshots: taken, restored and deleted by name. */
function snapshotCalls(db: Db, { steered }: Kit, now: () => number) {
  return {
    async snapshot(c: SteeringCall, name: string) {
      return (
        await steered(
          c,
          'devnet.snapshot_taken',
          async (ch, devnetId) => {
            await insertSnapshot(db, devnetId, name, await ch.steering.snapshot(), ch.tip().height, now());
          },
          (_r, tip) => ({ name, height: tip.height }),
        )
      ).state;
    },

    async restore(c: SteeringCall, name: string) {
      return (
        await rangeToInvalid(
          steered(
            c,
            'devnet.snapshot_restored',
            async (ch, devnetId) => {
              const snapshot = await readSnapshot(db, devnetId, name);
              if (!snapshot) throw new NotFound(`This devnet has no snapshot named ${name}.`);
              await ch.steering.restore(snapshot);
            },
            (_r, tip) => ({ name, height: tip.height }),
          ),
        )
      ).state;
    },

    async deleteSnapshot(c: SteeringCall, name: string) {
      return (
        await steered(
          c,
          'devnet.snapshot_deleted',
          async (_ch, devnetId) => {
            if (!(await deleteSnapshot(db, devnetId, name))) throw new NotFound(`This devnet has no snapshot named ${name}.`);
          },
          () => ({ name }),
        )
      ).state;
    },
  };
}

export function devnetService(db: Db, registry: DevnetRegistry, now: () => number = Date.now) {
  const kit = steeringKit(db, registry);
  const { stateOf, audit, steered } = kit;
  return {
    ...snapshotCalls(db, kit, now),
    /** A project of another network has no devnet: 404 on the dashboard's routes. */
    async assertDevnetProject(projectId: number): Promise<void> {
      const row = (await db('projects').where({ id: projectId }).first('network_id')) as { network_id: number } | undefined;
      if (!row || !isDevnetNetwork(row.network_id)) throw new NotFound(NO_DEVNET);
    },

    async state(projectId: number): Promise<DevnetStateDto> {
      const { devnetId, chain } = await registry.chainOf(projectId);
      return stateOf(devnetId, chain);
    },

    async create(c: SteeringCall, genesis: DevnetGenesisSettings): Promise<DevnetStateDto> {
      const { devnetId, chain } = await registry.replace(c.projectId, genesis);
      const state = await stateOf(devnetId, chain);
      await audit(c, 'devnet.created', { slot_length_ms: genesis.slotLengthMs, epoch_length: genesis.epochLength, block_interval_ms: genesis.blockIntervalMs, initial_funds: genesis.initialFunds.length, initial_dreps: genesis.initialDReps.length, committee_members: genesis.committee?.members.length ?? 0, initial_pools: genesis.initialPools.length, initial_delegations: genesis.initialDelegations.length });
      return state;
    },

    async produce(c: SteeringCall, count: number) {
      return (await steered(c, 'devnet.blocks_produced', (ch) => ch.steering.produce(count), (_r, tip) => ({ count, height: tip.height }))).state;
    },

    async pause(c: SteeringCall) {
      return (await steered(c, 'devnet.paused', async (ch) => ch.steering.pause(), (_r, tip) => ({ height: tip.height }))).state;
    },

    async resume(c: SteeringCall) {
      return (await steered(c, 'devnet.resumed', async (ch) => ch.steering.resume(), (_r, tip) => ({ height: tip.height }))).state;
    },

    async setInterval(c: SteeringCall, ms: number) {
      let from = 0;
      return (
        await steered(
          c,
          'devnet.interval_changed',
          async (ch) => {
            from = ch.facts().blockIntervalMs;
            ch.steering.setBlockInterval(ms);
          },
          () => ({ from_ms: from, to_ms: ms }),
        )
      ).state;
    },

    async rollback(c: SteeringCall, blocks: number, txs: 'mempool' | 'drop') {
      const { result, state } = await rangeToInvalid(
        steered(
          c,
          'devnet.rolled_back',
          async (ch) => {
            if (blocks > ch.tip().height) throw new RangeError(`blocks must be at most ${ch.tip().height}: the chain has that many blocks after its genesis`);
            return ch.steering.rollback(blocks, txs);
          },
          (r, tip) => ({ blocks, txs, height: tip.height, requeued: r.requeued.length, dropped: r.dropped.length }),
        ),
      );
      return { ...state, requeued: result.requeued, dropped: result.dropped };
    },

    async advance(c: SteeringCall, by: AdvanceTime) {
      return (await steered(c, 'devnet.time_advanced', (ch) => ch.steering.advance(by), (_r, tip) => ({ ...('slots' in by ? { slots: by.slots } : { to: by.to }), slot: tip.slot, epoch: tip.epoch }))).state;
    },

    async fund(c: SteeringCall, f: FundRequest) {
      const { result, state } = await rangeToInvalid(
        steered(
          c,
          'devnet.funded',
          (ch) => ch.steering.fund(f.address, f.lovelace, f.assets),
          (r) => ({ address: f.address, lovelace: String(f.lovelace), assets: f.assets?.length ?? 0, tx_hash: r.txHash }),
        ),
      );
      return { tx_hash: result.txHash, height: result.height, policy_id: result.policyId, state };
    },

    async reset(c: SteeringCall) {
      return (await steered(c, 'devnet.reset', (ch) => ch.steering.reset(), (_r, tip) => ({ height: tip.height }))).state;
    },
  };
}
