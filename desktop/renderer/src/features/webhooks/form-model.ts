// The webhook form's state and its validation, kept apart from the components so the rules read in
// one place. Validation is the server's own schema (shared/webhooks.ts), so both give the same texts.
import { webhookNetworkOf } from '../../../../../shared/networks';
import type { Role } from '../../../../../shared/permissions';
import { planLimitMessage } from '../../../../../shared/plans';
import type { QuotaDto } from '../../../../../shared/workspaces';
import {
  conditionDef,
  conditionsByTrigger,
  webhookInputSchema,
  webhookNetworks,
  type ConditionType,
  type Operator,
  type Trigger,
  type WebhookDto,
} from '../../../../../shared/webhooks';
import { deniedReason } from '../../components/permission';
import type { WebhookBody } from './queries';

export interface ConditionDraft {
  /** Stable React key; conditions have no id of their own. */
  key: string;
  type: ConditionType;
  operator: Operator;
  value: string;
  /** The JSONPath query of a jsonPath condition. */
  selector: string;
}

export interface WebhookDraft {
  name: string;
  target_url: string;
  /** The network's webhook id. */
  network: number;
  status: 'enabled' | 'disabled';
  type: Trigger;
  /** '' while the field is empty. */
  confirmations: number | string;
  conditions: ConditionDraft[];
  /** Not edited by the form; kept as the webhook has it. */
  description: string | null;
}

let nextKey = 0;
const conditionKey = () => `condition-${++nextKey}`;

/** A new condition of a trigger: its first condition type and that type's first operator. */
export function newCondition(trigger: Trigger): ConditionDraft {
  const def = conditionsByTrigger[trigger][0]!;
  return { key: conditionKey(), type: def.type, operator: def.operators[0]!, value: '', selector: '' };
}

/** Switching a condition's type keeps the operator when the new type offers it. */
export function withConditionType(trigger: Trigger, condition: ConditionDraft, type: ConditionType): ConditionDraft {
  const def = conditionDef(trigger, type);
  const operators = def?.operators ?? [];
  return {
    ...condition,
    type,
    operator: operators.includes(condition.operator) ? condition.operator : (operators[0] ?? condition.operator),
    selector: type === 'jsonPath' ? condition.selector : '',
  };
}

export const emptyDraft = (): WebhookDraft => ({
  name: '',
  target_url: '',
  network: webhookNetworks[0]!.webhookId!,
  status: 'enabled',
  type: 'transaction',
  confirmations: 0,
  conditions: [],
  description: null,
});

export const draftOf = (w: WebhookDto): WebhookDraft => ({
  name: w.name,
  target_url: w.target_url,
  network: w.network,
  status: w.status,
  type: w.type,
  confirmations: w.confirmations,
  conditions: w.conditions.map((c) => ({ key: conditionKey(), type: c.type, operator: c.operator, value: c.value, selector: c.selector ?? '' })),
  description: w.description,
});

/** The label of a network by its webhook id; ids no network has are named by number. */
export const webhookNetworkLabel = (webhookId: number): string =>
  webhookNetworkOf(webhookId)?.label ?? `Network ${webhookId}`;

/** The body the API takes, before validation. */
const bodyOf = (d: WebhookDraft, workspaceId: number) => ({
  name: d.name,
  description: d.description,
  network: d.network,
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
  workspace_id: workspaceId,
});

export type FieldErrors = Record<string, string>;

export interface Validation {
  /** The body to send when the form is valid. */
  body: WebhookBody | null;
  /** First message per field path: 'name', 'target_url', 'conditions.0.value', … */
  errors: FieldErrors;
}

export function validate(d: WebhookDraft, workspaceId: number): Validation {
  const parsed = webhookInputSchema.safeParse(bodyOf(d, workspaceId));
  if (parsed.success) return { body: { ...parsed.data, api_version: 1, workspace_id: workspaceId }, errors: {} };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String).join('.');
    errors[path] ??= issue.message;
  }
  return { body: null, errors };
}

/**
 * Why a webhook cannot be added: the role first (the one permission matrix), then the owner's pooled
 * webhookCount. Same wording as the server's 403 and 422 answers; the server enforces both.
 */
export function addWebhookBlockedReason(role: Role | null | undefined, quota: QuotaDto | undefined): string | null {
  const denied = deniedReason(role, 'webhooks.add');
  if (denied) return denied;
  if (quota && quota.used.subscription.webhookCount >= quota.quota.webhookCount) return planLimitMessage(quota.subscription.currentPlan.name, 'webhookCount', role === 'owner' ? 'own' : 'owner');
  return null;
}
