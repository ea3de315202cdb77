import { z } from 'zod';

// The workspace audit log: the actions it records, their labels, the page's filters and the API's
// shapes. The server records and serves them; the dashboard's audit page reads the same list.

export const auditActions = [
  'member.signed_in',
  'member.signed_out',
  'member.data_exported',
  'invitation.sent',
  'invitation.accepted',
  'invitation.revoked',
  'member.role_changed',
  'member.removed',
  'member.left',
  'workspace.renamed',
  'workspace.ownership_transferred',
  'project.created',
  'project.renamed',
  'project.deleted',
  'project.key_rolled',
  'project.allowlist_changed',
  'project.tx_confirmations_changed',
  'project.tx_resubmit_changed',
  'devnet.created',
  'devnet.blocks_produced',
  'devnet.paused',
  'devnet.resumed',
  'devnet.interval_changed',
  'devnet.rolled_back',
  'devnet.time_advanced',
  'devnet.snapshot_taken',
  'devnet.snapshot_restored',
  'devnet.snapshot_deleted',
  'devnet.reset',
  'devnet.funded',
  'webhook.created',
  'webhook.updated',
  'webhook.secret_rotated',
  'webhook.test_sent',
  'webhook.event_resent',
  'webhook.disabled',
  'webhook.auto_disabled',
  'webhook.deleted',
  'billing.plan_purchased',
  'billing.boost_purchased',
  'billing.invoice_paid',
  'billing.renewed',
  'billing.renewal_failed',
  'billing.canceled',
  'ppu.order_paid',
  'operator.plan_set',
  'operator.boost_granted',
] as const;
export type AuditAction = (typeof auditActions)[number];

export const auditActionLabels: Record<AuditAction, string> = {
  'member.signed_in': 'Member signed in',
  'member.signed_out': 'Member signed out',
  'member.data_exported': 'Account data exported',
  'invitation.sent': 'Invitation sent',
  'invitation.accepted': 'Invitation accepted',
  'invitation.revoked': 'Invitation revoked',
  'member.role_changed': 'Role changed',
  'member.removed': 'Member removed',
  'member.left': 'Member left',
  'workspace.renamed': 'Workspace renamed',
  'workspace.ownership_transferred': 'Ownership transferred',
  'project.created': 'Project created',
  'project.renamed': 'Project renamed',
  'project.deleted': 'Project deleted',
  'project.key_rolled': 'Project key rolled',
  'project.allowlist_changed': 'Project allow-list changed',
  'project.tx_confirmations_changed': 'Transaction confirmations changed',
  'project.tx_resubmit_changed': 'Resubmission on rollback changed',
  'devnet.created': 'Devnet created from a genesis',
  'devnet.blocks_produced': 'Devnet blocks produced',
  'devnet.paused': 'Devnet paused',
  'devnet.resumed': 'Devnet resumed',
  'devnet.interval_changed': 'Devnet block interval changed',
  'devnet.rolled_back': 'Devnet rolled back',
  'devnet.time_advanced': 'Devnet time advanced',
  'devnet.snapshot_taken': 'Devnet snapshot taken',
  'devnet.snapshot_restored': 'Devnet snapshot restored',
  'devnet.snapshot_deleted': 'Devnet snapshot deleted',
  'devnet.reset': 'Devnet reset',
  'devnet.funded': 'Devnet address funded',
  'webhook.created': 'Webhook created',
  'webhook.updated': 'Webhook changed',
  'webhook.secret_rotated': 'Webhook secret rotated',
  'webhook.test_sent': 'Webhook test event sent',
  'webhook.event_resent': 'Webhook event resent',
  'webhook.disabled': 'Webhook disabled',
  'webhook.auto_disabled': 'Webhook disabled automatically',
  'webhook.deleted': 'Webhook deleted',
  'billing.plan_purchased': 'Plan purchased',
  'billing.boost_purchased': 'Boost purchased',
  'billing.invoice_paid': 'Invoice paid in the billing portal',
  'billing.renewed': 'Subscription renewed in the billing portal',
  'billing.renewal_failed': 'Renewal failed in the billing portal',
  'billing.canceled': 'Subscription canceled in the billing portal',
  'ppu.order_paid': 'Pay-as-you-go order paid',
  'operator.plan_set': 'Plan set by the operator',
  'operator.boost_granted': 'Boost granted by the operator',
};

export const isAuditAction = (v: unknown): v is AuditAction => typeof v === 'string' && (auditActions as readonly string[]).includes(v);

/**
 * Who did it: a signed-in user, the operator (an account in OPERATOR_EMAILS, acting from the operator
 * page or CLI), a project's key (a devnet's steering call on the gateway; named by its project), or Cairn itself.
 */
export type AuditActor = { userId: number; email?: string } | { operator: string } | { projectKey: string } | { system: true };

export const auditTargetTypes = ['workspace', 'member', 'invitation', 'project', 'webhook', 'subscription', 'boost', 'order'] as const;
export type AuditTargetType = (typeof auditTargetTypes)[number];

export interface AuditTarget {
  type: AuditTargetType;
  id: string | number;
  label: string;
}

/** One entry as the API answers it. */
export interface AuditEntryDto {
  id: number;
  at: string;
  actor: { kind: 'user' | 'operator' | 'key' | 'system'; userId: number | null; label: string };
  action: AuditAction;
  target: { type: string; id: string; label: string };
  ip: string | null;
  userAgent: string | null;
  details: Record<string, string | number | boolean | null> | null;
}

export interface AuditPageDto {
  entries: AuditEntryDto[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  next: string | null;
}

export const AUDIT_PAGE_SIZES = [25, 50, 100] as const;
export const AUDIT_DEFAULT_PAGE_SIZE = 50;
/** The CSV export's cap: the newest rows matching the filters. */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;

/** The actor filter: a member by user id, the operator, a project key, or Cairn itself. */
export const auditActorFilterSchema = z
  .string()
  .regex(/^(user:[1-9]\d{0,9}|operator|key|system)$/, 'actor must be user:<id>, operator, key or system.');

const dateBound = (name: string) =>
  z
    .string()
    .max(40, `${name} must be a date (YYYY-MM-DD) or an ISO 8601 time.`)
    .refine((v) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)), `${name} must be a date (YYYY-MM-DD) or an ISO 8601 time.`);

/** A cursor from a previous page: `<epoch ms>.<id>`. */
export const auditCursorSchema = z.string().regex(/^\d{1,15}\.\d{1,19}$/, 'before must be a cursor from a previous page.');

/** The page's and the export's filters, as query parameters. `from` is inclusive, `to` exclusive; a bare date is midnight UTC. */
export const auditFilterSchema = z.object({
  actor: auditActorFilterSchema.optional(),
  action: z.enum(auditActions, { error: 'action is not an audit action.' }).optional(),
  from: dateBound('from').optional(),
  to: dateBound('to').optional(),
});
export type AuditFilter = z.output<typeof auditFilterSchema>;

export const auditPageQuerySchema = auditFilterSchema.extend({
  before: auditCursorSchema.optional(),
  limit: z.coerce.number({ error: 'limit must be 25, 50 or 100.' }).refine((n) => (AUDIT_PAGE_SIZES as readonly number[]).includes(n), 'limit must be 25, 50 or 100.').optional(),
});
export type AuditPageQuery = z.output<typeof auditPageQuerySchema>;
