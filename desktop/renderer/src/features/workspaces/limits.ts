// Why a create button is disabled: permission first (from the one matrix), then the owner's plan.
// The server enforces the same rules, in the same words (shared/plans.ts); these only explain them before the user tries.
import type { Role } from '../../../../../shared/permissions';
import { blocksNewProjects, planLimitMessage, plans, subscriptionBlockedMessage, type PlanName } from '../../../../../shared/plans';
import type { QuotaDto, WorkspaceDto } from '../../../../../shared/workspaces';
import { deniedReason } from '../../components/permission';

/** Add Project: role, then subscription status, then the pooled project count. */
export function addProjectBlockedReason(role: Role | null | undefined, quota: QuotaDto | undefined): string | null {
  const denied = deniedReason(role, 'projects.add');
  if (denied) return denied;
  if (!quota) return null;
  if (blocksNewProjects(quota.subscription.status)) return subscriptionBlockedMessage(quota.subscription.status);
  if (quota.used.subscription.projectCount >= quota.quota.projectCount) {
    return planLimitMessage(quota.subscription.currentPlan.name, 'projectCount', role === 'owner' ? 'own' : 'owner');
  }
  return null;
}

/** Invite Member: role, then members plus pending invitations against the owner's plan. */
export function inviteBlockedReason(
  role: Role | null | undefined,
  plan: PlanName | undefined,
  members: number,
  pendingInvitations: number,
): string | null {
  const denied = deniedReason(role, 'invites.add');
  if (denied) return denied;
  if (plan && members + pendingInvitations >= plans[plan].workspaceMembers) return planLimitMessage(plan, 'workspaceMembers', role === 'owner' ? 'own' : 'owner');
  return null;
}

/**
 * Create Workspace: the user's own plan caps the workspaces they own. The plan is known from the
 * quota of a workspace they own; with none owned the server decides.
 */
export function createWorkspaceBlockedReason(workspaces: readonly WorkspaceDto[], ownPlan: PlanName | undefined): string | null {
  if (!ownPlan) return null;
  const owned = workspaces.filter((w) => w.is_creator).length;
  return owned >= plans[ownPlan].workspaceCount ? planLimitMessage(ownPlan, 'workspaceCount') : null;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * What the workspace's usage line says. Quotas are pooled over every workspace the owner owns, so the
 * owner is told the count covers all of them, and a member who does not own it whose plan it is and that
 * the numbers cover all of the owner's workspaces (otherwise 8 of 10 projects in a workspace showing 2 would make no sense to them).
 */
export function workspaceUsageText(workspace: Pick<WorkspaceDto, 'is_creator' | 'creator_email'>, quota: QuotaDto): string {
  const plan = quota.subscription.currentPlan.name;
  const projects = `${count(quota.used.subscription.projectCount)} of ${count(quota.quota.projectCount)} projects`;
  if (workspace.is_creator) return `${projects} used on the ${plan} plan, across all the workspaces you own`;
  const requests = `${count(quota.used.subscription.requests)} of ${count(quota.quota.requestLimit)} requests today`;
  return `Runs on the ${plan} plan of its owner, ${workspace.creator_email}, shared by all of the owner's workspaces: ${projects} and ${requests} used across them.`;
}

/** The webhooks line, pooled the same way. */
export function webhookUsageText(workspace: Pick<WorkspaceDto, 'is_creator'>, quota: QuotaDto): string {
  const used = `${count(quota.used.subscription.webhookCount)} of ${count(quota.quota.webhookCount)} webhooks`;
  const plan = quota.subscription.currentPlan.name;
  return workspace.is_creator ? `${used} used on the ${plan} plan, across all the workspaces you own` : `${used} used across the owner's workspaces on their ${plan} plan`;
}
