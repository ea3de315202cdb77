// The webhook form's values and what changes them, kept apart from the components. The form validates
// with webhookFormSchema (shared/webhooks.ts), which ends in the server's own schema: both give the same texts.
import { webhookNetworkOf } from '../../../../../shared/networks';
import type { Role } from '../../../../../shared/permissions';
import { planLimitMessage } from '../../../../../shared/plans';
import type { QuotaDto } from '../../../../../shared/workspaces';
import {
  conditionDef,
  conditionsByTrigger,
  webhookNetworks,
  type ConditionType,
  type Trigger,
  type WebhookDto,
  type WebhookFormValues,
} from '../../../../../shared/webhooks';
import { deniedReason } from '../../components/permission';

/** The form's fields, as the shared webhookFormSchema reads them. */
export type WebhookDraft = WebhookFormValues;
export type ConditionDraft = WebhookDraft['conditions'][number];

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
  project: '',
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
  project: w.project ?? '',
  status: w.status,
  type: w.type,
  confirmations: w.confirmations,
  conditions: w.conditions.map((c) => ({ key: conditionKey(), type: c.type, operator: c.operator, value: c.value, selector: c.selector ?? '' })),
  description: w.description,
});

/** The label of a network by its webhook id; ids no network has are named by number. */
export const webhookNetworkLabel = (webhookId: number): string =>
  webhookNetworkOf(webhookId)?.label ?? `Network ${webhookId}`;

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
