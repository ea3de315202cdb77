import { z } from 'zod';
import { text } from './text';
import { addressNetworkOfWebhook, devnetNetwork, networks } from './networks';
import { jsonPathProblem, type Operator } from './jsonpath';
import { classifyIp } from './ip';
import { messages } from './messages';
import { DAY_MS } from './time';

// Secure Webhooks: triggers, condition types and operators (spec section 5), the form's validation
// texts, and the shapes the API answers. Server, UI and tests all read them from here.

export const triggers = ['transaction', 'block', 'delegation', 'epoch', 'tx_status'] as const;
export type Trigger = (typeof triggers)[number];

/**
 * The triggers whose event is a list, one item per matching transaction (a condition is asked of each
 * item, and reading a block's transactions is needed to build it); block and epoch events are one object.
 */
const listTriggers: ReadonlySet<string> = new Set<Trigger>(['transaction', 'delegation']);
export const yieldsList = (trigger: string): boolean => listTriggers.has(trigger);

export const triggerLabels: Record<Trigger, string> = {
  transaction: 'Transaction',
  block: 'Block',
  delegation: 'Delegation',
  epoch: 'Epoch',
  tx_status: 'Transaction status',
};

const comparisonOperators = ['=', '!=', '<=', '<', '>=', '>'] as const satisfies readonly Operator[];
const equalityOperators = ['=', '!='] as const;
export type { Operator };

export type ConditionType =
  | 'recipient'
  | 'sender'
  | 'policyId'
  | 'fingerprint'
  | 'assetHex'
  | 'quantity'
  | 'poolId'
  | 'txCount'
  | 'size'
  | 'height'
  | 'totalFees'
  | 'totalOutput'
  | 'epoch'
  | 'jsonPath';

interface ConditionDef {
  type: ConditionType;
  label: string;
  operators: readonly Operator[];
}

const eq = (type: ConditionType, label: string): ConditionDef => ({ type, label, operators: equalityOperators });
const cmp = (type: ConditionType, label: string): ConditionDef => ({ type, label, operators: comparisonOperators });
const jsonPath = cmp('jsonPath', 'JSONPath');

/** Condition types each trigger offers, with their operators. */
export const conditionsByTrigger: Record<Trigger, readonly ConditionDef[]> = {
  transaction: [
    eq('recipient', 'Recipient'),
    eq('sender', 'Sender'),
    eq('policyId', 'Policy ID'),
    eq('fingerprint', 'Asset fingerprint'),
    eq('assetHex', 'Asset (hex)'),
    cmp('quantity', 'Quantity (lovelace)'),
    jsonPath,
  ],
  block: [
    eq('poolId', 'Pool ID'),
    cmp('txCount', 'Transaction count'),
    cmp('size', 'Size'),
    cmp('height', 'Height'),
    cmp('totalFees', 'Total fees'),
    cmp('totalOutput', 'Total output'),
    jsonPath,
  ],
  delegation: [eq('poolId', 'Pool ID'), jsonPath],
  epoch: [cmp('epoch', 'Epoch number'), jsonPath],
  // A change of state of a transaction a project of the workspace submitted (server/features/txs).
  tx_status: [jsonPath],
};

export const conditionDef = (trigger: Trigger, type: string): ConditionDef | undefined =>
  conditionsByTrigger[trigger].find((c) => c.type === type);

export const MAX_CONDITIONS = 5;
export const MAX_CONFIRMATIONS = 5;
export const FAILURE_WARNING_WINDOW_MS = 48 * 3600 * 1000;
/** A webhook's fail_history holds at most its latest this many attempted events of that window. */
export const FAIL_HISTORY_LIMIT = 20;
/** A webhook whose every delivery failed for this long is disabled (the dispatcher) and noticed as such (the event stream). */
export const AUTO_DISABLE_AFTER_MS = 5 * DAY_MS;

/** The webhook screens' and API's texts; those the spec quotes come from shared/messages.ts. */
export const webhookMessages = {
  required: messages.webhook.required,
  invalidUrl: messages.webhook.invalidUrl,
  confirmations: messages.webhook.confirmations,
  unsupportedNetwork: 'This network is not supported by Secure Webhooks.',
  devnetProject: 'A Cardano devnet webhook follows one project\'s devnet: choose the project.',
  projectOnlyOnDevnet: 'Only a Cardano devnet webhook names a project.',
  privateEndpoint:
    'This URL is a private or loopback address. Cairn does not deliver to such addresses unless the server operator lists it in WEBHOOK_ALLOWLIST.',
  tooManyConditions: `At most ${MAX_CONDITIONS} conditions are allowed.`,
  created: messages.webhook.created,
  tokenHidden: 'Only the owner, administrators and maintainers can see the auth token.',
  updated: messages.webhook.updated,
  failingWarning:
    'We have detected problems delivering events to this endpoint. Repeated failures may disable the webhook automatically.',
  verifyWarning:
    'Verify that the events your endpoint receives come from Cairn: check the Blockfrost-Signature header with the auth token before trusting a payload.',
} as const;

/** Networks Secure Webhooks can watch: those with a webhook id; retired ones (testnet) are hidden. */
export const webhookNetworks = networks.filter((n) => n.webhookId !== null && !n.disabled);
const isWebhookNetwork = (webhookId: number) => webhookNetworks.some((n) => n.webhookId === webhookId);
/** Whether a webhook network id is the devnets': such a webhook follows the devnet of the project it names. */
export const isDevnetWebhookNetwork = (webhookId: number): boolean => webhookId === devnetNetwork.webhookId;

const isHttpUrl = (v: string) => {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0 && /^https?:\/\//i.test(v);
  } catch {
    return false;
  }
};

/**
 * The host of a URL names this machine or a network the webhook guard refuses: a local name, or a
 * literal address of any kind but public (shared/ip.ts, the classifier the guard itself uses).
 */
function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (host === 'localhost' || /\.(localhost|local|internal|home\.arpa)$/.test(host)) return true;
  const kind = classifyIp(host);
  return kind !== null && kind !== 'public';
}

/** What the form says when the endpoint is on a private or loopback address; null otherwise. */
export function privateEndpointWarning(url: string): string | null {
  let host: string;
  try {
    host = new URL(url.trim()).hostname;
  } catch {
    return null;
  }
  return isPrivateHost(host) ? webhookMessages.privateEndpoint : null;
}

const BECH32_DATA = '[02-9ac-hj-np-z]';
const HEX = /^[0-9a-f]*$/i;
/** Webhook network ids of the test networks (preview, preprod): their addresses are addr_test…/stake_test…. */
const isTestNetwork = (webhookNetwork: number) => addressNetworkOfWebhook(webhookNetwork) === 0;

/**
 * What is wrong with a condition's value, in the form's words; null when its shape is right. The
 * shape only (prefix, alphabet, length): the server also checks bech32 checksums and address bytes.
 */
export function conditionValueError(type: string, value: string, webhookNetwork: number): string | null {
  const v = value.trim();
  const test = isTestNetwork(webhookNetwork);
  switch (type) {
    case 'recipient':
    case 'sender': {
      const [addr, stake] = test ? ['addr_test1', 'stake_test1'] : ['addr1', 'stake1'];
      if (new RegExp(`^(${addr}|${stake})${BECH32_DATA}{20,}$`).test(v)) return null;
      // Byron addresses (base58) are checked by the server.
      if (/^(Ae2|DdzFF|37bt|2cWKM|KjgoiXJS2)[1-9A-HJ-NP-Za-km-z]{20,}$/.test(v)) return null;
      return `Enter a Cardano ${test ? 'test network' : 'mainnet'} address (${addr}…) or stake address (${stake}…).`;
    }
    case 'policyId':
      return v.length === 56 && HEX.test(v) ? null : 'A policy ID is 56 hexadecimal characters.';
    case 'assetHex':
      return v.length >= 56 && v.length <= 120 && v.length % 2 === 0 && HEX.test(v)
        ? null
        : 'An asset is its policy ID (56 hexadecimal characters) followed by its name in hex (up to 64).';
    case 'fingerprint':
      return new RegExp(`^asset1${BECH32_DATA}{38}$`).test(v) ? null : 'An asset fingerprint starts with asset1 and is 44 characters long.';
    case 'poolId':
      return new RegExp(`^pool1${BECH32_DATA}{51}$`).test(v) || (v.length === 56 && HEX.test(v))
        ? null
        : 'A pool ID is pool1… (56 characters) or 56 hexadecimal characters.';
    default:
      return null;
  }
}

const conditionSchema = z.object({
  type: text({ error: webhookMessages.required }).min(1, webhookMessages.required),
  operator: text({ error: webhookMessages.required }).min(1, webhookMessages.required),
  value: text({ error: webhookMessages.required }).trim().min(1, webhookMessages.required).max(500, 'The value is longer than 500 characters'),
  selector: text().trim().max(500, 'The JSONPath query is longer than 500 characters').optional().nullable(),
});
export type Condition = { type: ConditionType; operator: Operator; value: string; selector?: string | null };

export const webhookInputSchema = z
  .object({
    name: text({ error: webhookMessages.required }).trim().min(1, webhookMessages.required).max(100, 'The name is longer than 100 characters'),
    description: text().trim().max(500, 'The description is longer than 500 characters').optional().nullable(),
    network: z.number({ error: webhookMessages.required }).int(webhookMessages.unsupportedNetwork).refine(isWebhookNetwork, webhookMessages.unsupportedNetwork),
    type: z.enum(triggers, { error: webhookMessages.required }),
    target_url: text({ error: webhookMessages.required })
      .trim()
      .min(1, webhookMessages.required)
      .max(2048, webhookMessages.invalidUrl)
      .refine(isHttpUrl, webhookMessages.invalidUrl),
    confirmations: z
      .number({ error: webhookMessages.confirmations })
      .int(webhookMessages.confirmations)
      .min(0, webhookMessages.confirmations)
      .max(MAX_CONFIRMATIONS, webhookMessages.confirmations),
    status: z.enum(['enabled', 'disabled'], { error: webhookMessages.required }),
    conditions: z.array(conditionSchema).max(MAX_CONDITIONS, webhookMessages.tooManyConditions).default([]),
    api_version: z.literal(1, { error: 'api_version must be 1' }).optional(),
    workspace_id: z.number().int().optional(),
    /** The project (its UUID) whose devnet a Cardano devnet webhook follows; none on the shared networks. */
    project: z.uuid(webhookMessages.devnetProject).optional().nullable(),
  })
  .superRefine((w, ctx) => {
    if (isDevnetWebhookNetwork(w.network) && !w.project) ctx.addIssue({ code: 'custom', path: ['project'], message: webhookMessages.devnetProject });
    if (!isDevnetWebhookNetwork(w.network) && w.project) ctx.addIssue({ code: 'custom', path: ['project'], message: webhookMessages.projectOnlyOnDevnet });
    w.conditions.forEach((c, i) => {
      const def = conditionDef(w.type, c.type);
      if (!def) {
        ctx.addIssue({ code: 'custom', path: ['conditions', i, 'type'], message: `${/^[aeiou]/.test(w.type) ? 'An' : 'A'} ${w.type} webhook has no ${c.type} condition.` });
        return;
      }
      if (!(def.operators as readonly string[]).includes(c.operator)) {
        ctx.addIssue({ code: 'custom', path: ['conditions', i, 'operator'], message: `The ${c.type} condition takes ${def.operators.join(', ')}.` });
        return;
      }
      if (c.type === 'jsonPath' && !c.selector) ctx.addIssue({ code: 'custom', path: ['conditions', i, 'selector'], message: webhookMessages.required });
      const valueError = conditionValueError(c.type, c.value, w.network);
      if (valueError) ctx.addIssue({ code: 'custom', path: ['conditions', i, 'value'], message: valueError });
      const problem = c.type === 'jsonPath' && c.selector ? jsonPathProblem(c.selector) : null;
      if (problem) ctx.addIssue({ code: 'custom', path: ['conditions', i, 'selector'], message: problem });
      if (def.operators === comparisonOperators && c.type !== 'jsonPath' && !/^\d+$/.test(c.value)) {
        ctx.addIssue({ code: 'custom', path: ['conditions', i, 'value'], message: 'Enter a whole number.' });
      }
    });
  });

export type WebhookInput = z.output<typeof webhookInputSchema>;

/**
 * The dashboard's webhook form: its fields as they are typed (confirmations '' while empty, a query on
 * every condition row, a key naming each row on the screen), turned into the API's body and checked by
 * webhookInputSchema itself, so the form and the server give the same messages at the same paths.
 */
export const webhookFormSchema = z
  .object({
    name: z.string(),
    description: z.string().nullable(),
    network: z.number(),
    /** The devnet project's UUID ('' while none is chosen); sent for the Cardano devnet network only. */
    project: z.string(),
    status: z.enum(['enabled', 'disabled']),
    type: z.enum(triggers),
    target_url: z.string(),
    confirmations: z.union([z.number(), z.string()]),
    conditions: z.array(
      z.object({
        /** A row's stable identity on the screen (conditions have no id); not sent. */
        key: z.string(),
        type: z.custom<ConditionType>((v) => typeof v === 'string'),
        operator: z.custom<Operator>((v) => typeof v === 'string'),
        value: z.string(),
        /** The JSONPath query; sent for jsonPath conditions only. */
        selector: z.string(),
      }),
    ),
  })
  // An empty confirmations field goes on as undefined, refused by the API's schema with its message.
  .transform((d): Omit<z.input<typeof webhookInputSchema>, 'confirmations'> & { confirmations: number | undefined } => ({
    name: d.name,
    description: d.description,
    network: d.network,
    ...(isDevnetWebhookNetwork(d.network) ? { project: d.project || null } : {}),
    api_version: 1 as const,
    type: d.type,
    confirmations: typeof d.confirmations === 'number' ? d.confirmations : undefined,
    status: d.status,
    target_url: d.target_url,
    conditions: d.conditions.map((c) => ({
      type: c.type,
      operator: c.operator,
      value: c.value,
      ...(c.type === 'jsonPath' ? { selector: c.selector } : {}),
    })),
  }))
  .pipe(webhookInputSchema);

/** The webhook form's fields, as webhookFormSchema reads them. */
export type WebhookFormValues = z.input<typeof webhookFormSchema>;

export interface WebhookDto {
  id: string;
  name: string;
  description: string | null;
  network: number;
  /** The project whose devnet a Cardano devnet webhook follows (its UUID); null on the shared networks. */
  project: string | null;
  type: Trigger;
  target_url: string;
  confirmations: number;
  status: 'enabled' | 'disabled';
  conditions: Condition[];
  /** null for roles that may not see secrets (collaborators). */
  auth_token: string | null;
  workspace_id: number;
  workspace_name: string;
  role_name: string;
  api_version: 1;
  fail_history: Array<{ fired_at: number; success: boolean }>;
  disabled_reason: string | null;
  /** Until when (epoch ms) the secret replaced by the last rotation still signs deliveries too; null when only the current one signs. */
  previous_secret_expires_at: number | null;
}

type WebhookDisplayState = 'disabled' | 'enabled-warning' | 'enabled';

/** Disabled; enabled with a warning when a delivery failed in the last 48 hours; else enabled (spec section 4). */
export function webhookDisplayState(w: Pick<WebhookDto, 'status' | 'fail_history'>, now = Date.now()): WebhookDisplayState {
  if (w.status === 'disabled') return 'disabled';
  const since = (now - FAILURE_WARNING_WINDOW_MS) / 1000;
  return w.fail_history.some((f) => !f.success && f.fired_at >= since) ? 'enabled-warning' : 'enabled';
}

export interface WebhookAttemptDto {
  attempted_at: number;
  status_code: number | null;
  duration_ms: number;
  response_excerpt: string | null;
  error: string | null;
  success: boolean;
}

export interface WebhookEventDto {
  id: string;
  type: Trigger;
  created: number;
  status: 'pending' | 'delivered' | 'failed' | 'cancelled';
  block_height: number | null;
  block_hash: string | null;
  test: boolean;
  /** When the next attempt is due (epoch ms), while the event is still pending; null otherwise. */
  next_attempt_at: number | null;
  /** The exact JSON body that is signed and sent on every attempt. */
  body: string;
  attempts: WebhookAttemptDto[];
}

/** A webhook as the server stores it (the `webhooks` table's row), as a route's permission resolves it. */
export interface WebhookRow {
  id: string;
  workspace_id: number;
  name: string;
  description: string | null;
  network: number;
  /** The project whose devnet a Cardano devnet webhook follows; null on the shared networks. */
  project_id: number | null;
  type: WebhookDto['type'];
  target_url: string;
  confirmations: number;
  status: 'enabled' | 'disabled';
  conditions: string;
  auth_token: string;
  /** The secret the last rotation replaced, signing too until previous_auth_token_expires_at. */
  previous_auth_token: string | null;
  previous_auth_token_expires_at: number | null;
  disabled_reason: string | null;
  failing_since: number | null;
  /** Epoch ms (a string from PostgreSQL's bigint). */
  created_at: number | string;
}

/** How long the replaced signing secret keeps signing after a rotation, in seconds: none, 1 hour, 24 hours, 7 days. */
export const secretOverlaps = [
  { seconds: 0, label: 'None: the old token stops at once' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
  { seconds: 604_800, label: '7 days' },
] as const;

export const rotateSecretSchema = z.object({
  overlap_seconds: z
    .number({ error: 'overlap_seconds must be 0, 3600, 86400 or 604800.' })
    .refine((n) => secretOverlaps.some((o) => o.seconds === n), 'overlap_seconds must be 0, 3600, 86400 or 604800.'),
});
