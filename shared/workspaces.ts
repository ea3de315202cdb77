import { z } from 'zod';
import { text } from './text';
import { messages } from './messages';
import { assignableRoles, type Role } from './permissions';
import type { BoostType, PlanName, SubscriptionStatus } from './plans';
import { emailSchema } from './auth';
import type { AllowLists, PreviousKeyDto } from './allow-list';

export interface WorkspaceDto {
  id: number;
  name: string;
  role_name: Role;
  is_creator: boolean;
  creator_email: string;
}

export interface MemberDto {
  user_id: number;
  email: string;
  role_name: Role;
  is_creator: boolean;
  joined_at: number;
}

export interface InvitationDto {
  id: string;
  email: string;
  role_name: Role;
  invited_by_email: string | null;
  created_at: number;
  expires_at: number;
}

/** What /workspace-invite/{id} shows before accepting. */
export interface InvitationPreview {
  workspace_name: string;
  email: string;
  role_name: Role;
  invited_by_email: string | null;
  expires_at: number;
  status: 'pending' | 'accepted' | 'expired';
}

export interface ProjectDto {
  id: number;
  uuid: string;
  project_name: string;
  project_id: string;
  network_id: number;
  workspace_id: number;
  created_at: number;
  requests_today: number;
  /** The key before the last 'Roll key', while its grace period lasts (null: none, or it has ended). */
  previous_key: PreviousKeyDto | null;
  /** Which browser origins, client addresses and (Milkomeda) JSON-RPC methods the keys accept; empty lists restrict nothing. */
  allow_lists: AllowLists;
  /** Served by the simulated sandbox chain ('Sandbox data'). */
  sandbox?: boolean;
}

export interface QuotaDto {
  quota: { projectCount: number; requestLimit: number; storageLimit: number; webhookCount: number };
  used: { subscription: { projectCount: number; webhookCount: number; requests: number; storage: number } };
  subscription: { status: SubscriptionStatus; currentPlan: { name: PlanName } };
  ppu: { active: boolean; balance: { requests: number } };
}

export interface AddonDto {
  type: BoostType;
  expires_at: number;
}

export interface CustomerSettings {
  marketing_consent: boolean | null;
}

/** PUT /api/customer/settings: the user's choice about marketing e-mail. */
export const customerSettingsSchema = z.object({ marketing_consent: z.boolean({ error: 'marketing_consent must be true or false' }) });

export interface TransferPlan {
  newOwner: { id: number; email: string; plan: PlanName; currentRole: Role };
  changes: { newOwnerRole: 'owner'; previousOwnerRole: 'administrator'; plan: PlanName; projectsMoving: number };
  after: { projectCount: number; workspaceCount: number; workspaceMembers: number };
  blockers: Array<{ limit: 'projectCount' | 'workspaceCount' | 'workspaceMembers'; max: number; after: number; message: string }>;
  allowed: boolean;
}

const NAME_MAX = 100;

export const workspaceNameSchema = text({ error: 'Workspace name is empty' })
  .trim()
  .min(1, 'Workspace name is empty')
  .max(NAME_MAX, `Workspace name is longer than ${NAME_MAX} characters`);

export const projectNameSchema = text({ error: messages.project.nameEmpty })
  .trim()
  .min(1, messages.project.nameEmpty)
  .max(NAME_MAX, `Project name is longer than ${NAME_MAX} characters`);

export const assignableRoleSchema = z.enum(assignableRoles, { error: 'Role must be administrator, maintainer or collaborator' });

export const createProjectSchema = z.object({
  projectName: projectNameSchema,
  networkId: z.number({ error: 'Network is required' }).int('Network is not valid'),
  workspaceId: z.number().int().optional(),
});

export const inviteSchema = z.object({ email: emailSchema, role: assignableRoleSchema });

/** The signed-in user's place in a workspace, as the server resolves it for every workspace route. */
export interface Membership {
  workspaceId: number;
  name: string;
  ownerId: number;
  role: Role;
}

/** A project as a route's permission resolves it. */
export interface ProjectRef {
  id: number;
  uuid: string;
  workspaceId: number;
}
