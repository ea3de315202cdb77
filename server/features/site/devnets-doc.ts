// The API reference's Devnets page (/docs, document /docs/devnets-api.json): the steering calls of a
// Cardano devnet project's own chain under /cairn/v1/devnet on the gateway, with request and answer
// examples. The schemas' limits and messages are shared/devnets.ts's.
import type { Config } from '../../config';
import { CAIRN_VERSION } from '../../version';
import { devnetNetwork } from '../../../shared/networks';
import { DEVNET_MESSAGES, MAX_DEVNET_SNAPSHOTS, MAX_PRODUCE_BLOCKS, MAX_ROLLBACK_BLOCKS, type DevnetStateDto } from '../../../shared/devnets';
import { NOT_A_DEVNET_KEY } from '../devnets/index';

const STATE_EXAMPLE: DevnetStateDto = {
  tip: { height: 1285, hash: '3f1c9a0e5d7b2c4e6f8a1b3d5c7e9f0a2b4c6d8e0f1a3b5c7d9e1f3a5b7c9d0e', slot: 1285, epoch: 2, time: 1764413085 },
  paused: false,
  block_interval_ms: 1000,
  slot_length_ms: 1000,
  epoch_length: 600,
  network_magic: 42,
  system_start: 1764411800,
  snapshots: [{ name: 'before-upgrade', created_at: 1764412900, height: 1100 }],
};

const tipSchema = { type: 'object', properties: { height: { type: 'integer' }, hash: { type: 'string' }, slot: { type: 'integer' }, epoch: { type: 'integer' }, time: { type: 'integer', description: 'Unix seconds' } } };
const stateSchema = {
  type: 'object',
  properties: {
    tip: tipSchema,
    paused: { type: 'boolean' },
    block_interval_ms: { type: 'integer' },
    slot_length_ms: { type: 'integer' },
    epoch_length: { type: 'integer', description: 'Slots per epoch' },
    network_magic: { type: 'integer' },
    system_start: { type: 'integer', description: 'Unix seconds: slot 0' },
    snapshots: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, created_at: { type: 'integer' }, height: { type: 'integer' } } } },
  },
};
const errorSchema = { type: 'object', properties: { status_code: { type: 'integer' }, error: { type: 'string' }, message: { type: 'string' } } };
const errorOf = (status: number, error: string, message: string) => ({ description: message, content: { 'application/json': { schema: errorSchema, example: { status_code: status, error, message } } } });

interface Op {
  id: string;
  summary: string;
  description: string;
  body?: { schema: Record<string, unknown>; example: unknown };
  status?: number;
  answer?: { schema: Record<string, unknown>; example: unknown };
  badInput?: string;
  notFound?: string;
  conflict?: string;
  params?: boolean;
}

const operation = (o: Op) => ({
  tags: ['Devnets'],
  operationId: o.id,
  summary: o.summary,
  description: o.description,
  ...(o.params ? { parameters: [{ name: 'name', in: 'path', required: true, description: 'The snapshot\'s name.', schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$' } }] } : {}),
  ...(o.body ? { requestBody: { required: true, content: { 'application/json': { schema: o.body.schema, example: o.body.example } } } } : {}),
  responses: {
    [String(o.status ?? 200)]: { description: 'The devnet after the call.', content: { 'application/json': { schema: o.answer?.schema ?? stateSchema, example: o.answer?.example ?? STATE_EXAMPLE } } },
    ...(o.badInput ? { '400': errorOf(400, 'Bad Request', o.badInput) } : {}),
    '403': errorOf(403, 'Forbidden', NOT_A_DEVNET_KEY),
    ...(o.notFound ? { '404': errorOf(404, 'Not Found', o.notFound) } : {}),
    ...(o.conflict ? { '409': errorOf(409, 'Conflict', o.conflict) } : {}),
  },
});

const int = (min: number, max: number, description: string) => ({ type: 'integer', minimum: min, maximum: max, description });
const hex56 = { type: 'string', pattern: '^[0-9a-fA-F]{56}$', description: '28 bytes in hex' };

export function devnetsApiDocument(config: Config): Record<string, unknown> {
  const gw = config.gateway.publicUrl;
  const snapshotMissing = 'This devnet has no snapshot named before-upgrade.';
  return {
    openapi: '3.0.3',
    info: {
      title: 'Cairn devnets',
      version: CAIRN_VERSION,
      description:
        `A ${devnetNetwork.label} project (network \`${devnetNetwork.slug}\`, keys starting with \`${devnetNetwork.prefix}\`) has a development chain of its own: ` +
        'its key\'s Blockfrost calls (`/api/v0/…`, the data API) are answered by that chain alone, with network magic 42, testnet addresses and the slot ' +
        'configuration its genesis gives (`/genesis`: `system_start`, `slot_length`, `epoch_length`). These calls steer it, with the same project key ' +
        '(the `project_id` header): each is one call, counted like any request and recorded in the workspace\'s audit log; the project page\'s Devnet ' +
        'card makes the same calls. A key of another network is refused with 403; bad input with 400 and a message saying what is expected.\n\n' +
        '```sh\n' +
        `curl -H "project_id: $KEY" ${gw}/cairn/v1/devnet\n` +
        `curl -H "project_id: $KEY" -H 'Content-Type: application/json' -d '{"count": 10}' ${gw}/cairn/v1/devnet/blocks\n` +
        `curl -H "project_id: $KEY" ${gw}/api/v0/blocks/latest\n` +
        '```',
    },
    servers: [
      { url: gw, description: 'The gateway (the key names the devnet)' },
      { url: `${gw}/${devnetNetwork.slug}`, description: devnetNetwork.label },
    ],
    security: [{ project_id: [] }],
    tags: [{ name: 'Devnets' }],
    paths: {
      '/cairn/v1/devnet': {
        get: operation({ id: 'devnetState', summary: 'The devnet\'s state', description: 'Tip (height, hash, slot, epoch, time), whether the clock runs, the block interval, the genesis\' slot length and epoch length, the snapshots.' }),
        post: operation({
          id: 'devnetCreate',
          summary: 'Start again from a genesis of your own',
          description:
            'A new chain from this genesis (every field optional): its transactions are forgotten. `blockIntervalMs` is a multiple of `slotLengthMs`, an epoch at least 4 blocks. `protocolParams` overrides parameters by their /epochs/latest/parameters names (fees, deposits, sizes, prices, cost models); `initialFunds` are paid in block 0; `initialDReps` are registered in it. ' +
            '`committee` replaces the sandbox\'s: its members (cold key or script hash, last epoch from 1 to committee_max_term_length) authorize hot keys and vote with them, /governance/committee answers them, and a submitted proposal is ratified at the end of an epoch when their yes votes among the active members that do not abstain reach `threshold` (above 0, at most 1; 2/3 by default) and the DReps\' and pools\' votes pass. ' +
            '`initialPools` are registered from block 0 beside the sandbox\'s pools (a `poolKeyHash` of yours, or one derived from the seed); `initialDelegations` register and delegate stake keys of initial funds to them (`pool`: a place in initialPools or a pool id) and their votes to initialDReps (`drep`), active from epoch 0, so /pools/{id}, its delegators and /accounts/{stake} agree from block 0, and the epoch snapshots and rewards follow. A field the chain cannot use is a 400 naming its path; nothing is created.',
          body: {
            schema: {
              type: 'object',
              properties: {
                genesis: {
                  type: 'object',
                  properties: {
                    slotLengthMs: int(100, 1000, 'Milliseconds a slot lasts, a multiple of 100 (default 1000)'),
                    epochLength: int(10, 432000, 'Slots per epoch (default 600)'),
                    blockIntervalMs: int(100, 3600000, 'Milliseconds between blocks (default 1000)'),
                    securityParam: int(1, 2160, 'k (default 100)'),
                    protocolParams: { type: 'object', additionalProperties: true },
                    initialFunds: { type: 'array', maxItems: 100, items: { type: 'object', properties: { address: { type: 'string' }, lovelace: { type: 'string' } } } },
                    initialDReps: { type: 'array', maxItems: 32, items: { type: 'object', required: ['credential'], properties: { credential: hex56, script: { type: 'boolean' } } } },
                    committee: {
                      type: 'object',
                      required: ['members'],
                      properties: {
                        members: { type: 'array', minItems: 1, maxItems: 32, items: { type: 'object', required: ['coldCredential', 'expiryEpoch'], properties: { coldCredential: hex56, script: { type: 'boolean' }, expiryEpoch: int(1, 10000, 'The last epoch the member serves in (at most committee_max_term_length)') } } },
                        threshold: { oneOf: [{ type: 'object', properties: { numerator: { type: 'integer' }, denominator: { type: 'integer' } } }, { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1 }], description: 'The quorum: a share above 0, at most 1 (default 2/3)' },
                      },
                    },
                    initialPools: {
                      type: 'array',
                      maxItems: 16,
                      items: {
                        type: 'object',
                        required: ['pledge', 'cost', 'margin'],
                        properties: { poolKeyHash: hex56, vrfKeyHash: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' }, pledge: { type: 'string' }, cost: { type: 'string' }, margin: { type: 'number', minimum: 0, maximum: 1 }, rewardAccount: { type: 'string' }, ticker: { type: 'string' }, name: { type: 'string' } },
                      },
                    },
                    initialDelegations: { type: 'array', maxItems: 100, items: { type: 'object', required: ['stakeAddress'], properties: { stakeAddress: { type: 'string' }, pool: { oneOf: [{ type: 'integer', minimum: 0 }, { type: 'string', description: 'pool1…' }] }, drep: { type: 'string', description: "A credential of initialDReps, 'abstain' or 'no_confidence'" } } } },
                  },
                },
              },
            },
            example: {
              genesis: {
                slotLengthMs: 200, epochLength: 100, blockIntervalMs: 200, protocolParams: { min_fee_a: 44, key_deposit: '2000000' }, initialFunds: [{ address: 'addr_test1qz…', lovelace: '1000000000000' }],
                committee: { members: [{ coldCredential: '8a3b…', expiryEpoch: 100 }, { coldCredential: 'c24d…', expiryEpoch: 100 }], threshold: { numerator: 1, denominator: 2 } },
                initialPools: [{ pledge: '1000000000', cost: '340000000', margin: 0.02, ticker: 'MINE' }],
                initialDelegations: [{ stakeAddress: 'stake_test1uq…', pool: 0 }],
              },
            },
          },
          status: 201,
          badInput: 'genesis.committee.threshold: a share above 0 and at most 1: { numerator, denominator } (whole numbers up to 1,000,000) or a decimal with at most 6 digits after the point',
        }),
      },
      '/cairn/v1/devnet/blocks': {
        post: operation({ id: 'devnetProduce', summary: 'Produce blocks now', description: `This many blocks at once (1 to ${MAX_PRODUCE_BLOCKS}), paused or not.`, body: { schema: { type: 'object', required: ['count'], properties: { count: int(1, MAX_PRODUCE_BLOCKS, 'Blocks') } }, example: { count: 10 } }, badInput: DEVNET_MESSAGES.count }),
      },
      '/cairn/v1/devnet/pause': { post: operation({ id: 'devnetPause', summary: 'Pause the clock', description: 'No block comes until resume; producing blocks and time travel still work.' }) },
      '/cairn/v1/devnet/resume': { post: operation({ id: 'devnetResume', summary: 'Resume the clock', description: 'Blocks come again at the block interval, from the tip.' }) },
      '/cairn/v1/devnet/interval': {
        put: operation({ id: 'devnetInterval', summary: 'Set the block interval', description: 'A block every `ms` of wall time from the tip on (a multiple of the slot length); blocks made keep their slots.', body: { schema: { type: 'object', required: ['ms'], properties: { ms: int(100, 600000, 'Milliseconds') } }, example: { ms: 5000 } }, badInput: DEVNET_MESSAGES.interval }),
      },
      '/cairn/v1/devnet/rollback': {
        post: operation({
          id: 'devnetRollback',
          summary: 'Roll back',
          description: `The tip goes back \`blocks\` (1 to ${MAX_ROLLBACK_BLOCKS}, at most the tip's height) and a new branch grows from there: other block hashes and background transactions. The transactions of the rolled-back blocks go back to the mempool (\`mempool\`, the default: into the next block if still valid) or are dropped (\`drop\`).`,
          body: { schema: { type: 'object', required: ['blocks'], properties: { blocks: int(1, MAX_ROLLBACK_BLOCKS, 'Blocks'), txs: { type: 'string', enum: ['mempool', 'drop'] } } }, example: { blocks: 3, txs: 'mempool' } },
          answer: { schema: { ...stateSchema, properties: { ...stateSchema.properties, requeued: { type: 'array', items: { type: 'string' } }, dropped: { type: 'array', items: { type: 'string' } } } }, example: { ...STATE_EXAMPLE, tip: { ...STATE_EXAMPLE.tip, height: 1282 }, requeued: ['6f1b0e3c6bd4b8e9e0c7d6c1f1f3f08ad4c8a4b7d3e2a1f0e9d8c7b6a5f4e3d2'], dropped: [] } },
          badInput: DEVNET_MESSAGES.txs,
        }),
      },
      '/cairn/v1/devnet/time': {
        post: operation({
          id: 'devnetTime',
          summary: 'Travel forward in time',
          description: 'By a number of slots, or to the first block of the next epoch; the blocks between exist and epoch effects (rewards, snapshots, governance expiry) happen as they would.',
          body: { schema: { oneOf: [{ type: 'object', required: ['slots'], properties: { slots: int(1, 1000000, 'Slots') } }, { type: 'object', required: ['to'], properties: { to: { type: 'string', enum: ['next-epoch'] } } }] }, example: { to: 'next-epoch' } },
          badInput: DEVNET_MESSAGES.time,
        }),
      },
      '/cairn/v1/devnet/snapshots': {
        post: operation({ id: 'devnetSnapshot', summary: 'Take a snapshot', description: `A named snapshot of the chain (its tip, ledger and clock); a devnet keeps at most ${MAX_DEVNET_SNAPSHOTS}.`, body: { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$' } } }, example: { name: 'before-upgrade' } }, status: 201, badInput: DEVNET_MESSAGES.snapshotName, conflict: 'A snapshot named before-upgrade exists already: choose another name, or delete it first.' }),
      },
      '/cairn/v1/devnet/snapshots/{name}/restore': {
        post: operation({ id: 'devnetRestore', summary: 'Restore a snapshot', description: 'The chain is back at the snapshot: its tip, its ledger (an output spent since is unspent again), its clock; what grows after it is a new branch.', params: true, notFound: snapshotMissing }),
      },
      '/cairn/v1/devnet/snapshots/{name}': {
        delete: operation({ id: 'devnetDeleteSnapshot', summary: 'Delete a snapshot', description: 'The snapshot is gone; the chain is as it was.', params: true, notFound: snapshotMissing }),
      },
      '/cairn/v1/devnet/reset': { post: operation({ id: 'devnetReset', summary: 'Reset', description: 'Genesis again, now: a new chain (its transactions forgotten, new block hashes); the snapshots stay.' }) },
      '/cairn/v1/devnet/fund': {
        post: operation({
          id: 'devnetFund',
          summary: 'Fund an address',
          description: 'Pays a testnet address ada (1 to 100,000) and mints native tokens under the devnet\'s policy, in the next block.',
          body: {
            schema: { type: 'object', required: ['address', 'lovelace'], properties: { address: { type: 'string' }, lovelace: { type: 'string' }, assets: { type: 'array', maxItems: 5, items: { type: 'object', properties: { assetName: { type: 'string', description: 'Hexadecimal' }, quantity: { type: 'string' } } } } } },
            example: { address: 'addr_test1qz…', lovelace: '25000000', assets: [{ assetName: '544f4b454e', quantity: '100' }] },
          },
          answer: {
            schema: { type: 'object', properties: { tx_hash: { type: 'string' }, height: { type: 'integer' }, policy_id: { type: 'string' }, state: stateSchema } },
            example: { tx_hash: '6f1b0e3c6bd4b8e9e0c7d6c1f1f3f08ad4c8a4b7d3e2a1f0e9d8c7b6a5f4e3d2', height: 1286, policy_id: 'a0028f350aaabe0545fdcb56b039bfb08e4bb4d8c4d7c3c7d481c235', state: STATE_EXAMPLE },
          },
          badInput: DEVNET_MESSAGES.lovelace,
        }),
      },
    },
    components: {
      securitySchemes: { project_id: { type: 'apiKey', in: 'header', name: 'project_id', description: `The key of your ${devnetNetwork.label} project from the dashboard.` } },
    },
  };
}
