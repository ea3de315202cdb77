// Roles and the one permission matrix (spec section 6). The server guards every workspace route with
// can(); the UI reads the same matrix to disable buttons. Nothing else restates a role list.

import { messages } from './messages';

export const roles = ['owner', 'administrator', 'maintainer', 'collaborator'] as const;
export type Role = (typeof roles)[number];

/** Roles that can be given by invitation or role change; ownership only moves by transfer. */
export const assignableRoles = ['administrator', 'maintainer', 'collaborator'] as const satisfies readonly Role[];
export type AssignableRole = (typeof assignableRoles)[number];

const ALL: readonly Role[] = roles;
const OWNER_ADMIN: readonly Role[] = ['owner', 'administrator'];
const BUILDERS: readonly Role[] = ['owner', 'administrator', 'maintainer'];
const OWNER: readonly Role[] = ['owner'];

const permissionMatrix = {
  'workspace.view': ALL,
  'workspace.change_name': OWNER_ADMIN,
  'workspace.payg_new_order': OWNER_ADMIN,
  'workspace.transfer': OWNER,
  'workspace.delete': OWNER,
  'workspace.leave': ['administrator', 'maintainer', 'collaborator'],
  /** Boosts, pay-as-you-go and paying the owner's open invoice (the billing portal's invoices). */
  'billing.manage': OWNER_ADMIN,
  /** The owner's subscription itself: choosing or changing the plan, renewing, the payment method, cancelling. */
  'billing.subscription': OWNER,
  'projects.view': ALL,
  'projects.add': BUILDERS,
  'projects.update': BUILDERS,
  'projects.delete': BUILDERS,
  'webhooks.view': ALL,
  'webhooks.add': BUILDERS,
  'webhooks.update': BUILDERS,
  'webhooks.delete': BUILDERS,
  'members.view': ALL,
  'members.update': OWNER_ADMIN,
  'members.delete': OWNER_ADMIN,
  'invites.view': ALL,
  'invites.add': OWNER_ADMIN,
  'invites.delete': OWNER_ADMIN,
  /** The workspace's audit log (anyone else is answered 404 and sees no menu item). */
  'audit.view': OWNER_ADMIN,
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof permissionMatrix;

const EVERYONE = 'Every member of the workspace can do this.';

/** What a member without the permission is told (403), per action: the server and the UI's tooltips say the same. */
export const deniedMessages: Record<Action, string> = {
  'workspace.view': EVERYONE,
  'workspace.change_name': 'Only the owner and administrators can rename the workspace.',
  'workspace.payg_new_order': 'Only the owner and administrators can order pay-as-you-go requests.',
  'workspace.transfer': 'Only the owner can transfer the workspace.',
  'workspace.delete': 'Only the owner can delete the workspace.',
  'workspace.leave': 'The owner cannot leave the workspace. Transfer it to another member or delete it.',
  'billing.manage': 'Only the owner and administrators can manage billing.',
  'billing.subscription': "Only the workspace owner can choose, change, renew or cancel the workspace's subscription. Contact the owner to upgrade.",
  'projects.view': EVERYONE,
  'projects.add': messages.permission.createResource('project'),
  'projects.update': 'Only the owner, administrators and maintainers can change projects.',
  'projects.delete': 'Only the owner, administrators and maintainers can delete projects.',
  'webhooks.view': EVERYONE,
  'webhooks.add': messages.permission.createResource('webhook'),
  'webhooks.update': 'Only the owner, administrators and maintainers can change webhooks.',
  'webhooks.delete': 'Only the owner, administrators and maintainers can delete webhooks.',
  'members.view': EVERYONE,
  'members.update': 'Only the owner and administrators can change roles.',
  'members.delete': 'Only the owner and administrators can remove members.',
  'invites.view': EVERYONE,
  'invites.add': messages.permission.createResource('invitation'),
  'invites.delete': 'Only the owner and administrators can revoke invitations.',
  'audit.view': 'Only the owner and administrators can read the audit log.',
};
export const actions = Object.keys(permissionMatrix) as Action[];

export const can = (role: Role | null | undefined, action: Action): boolean =>
  !!role && (permissionMatrix[action] as readonly Role[]).includes(role);

/** Secrets (webhook auth tokens) are shown to the roles that may change projects; collaborators only read. */
const SECRETS_ACTION: Action = 'projects.update';
export const maySeeSecrets = (role: Role | null | undefined): boolean => can(role, SECRETS_ACTION);

export const isRole = (v: unknown): v is Role => typeof v === 'string' && (roles as readonly string[]).includes(v);

export const roleLabels: Record<Role, string> = {
  owner: 'Owner',
  administrator: 'Administrator',
  maintainer: 'Maintainer',
  collaborator: 'Collaborator',
};
