// Roles and the one permission matrix (spec section 6). The server guards every workspace route with
// can(); the UI reads the same matrix to disable buttons. Nothing else restates a role list.

export const roles = ['owner', 'administrator', 'maintainer', 'collaborator'] as const;
export type Role = (typeof roles)[number];

/** Roles that can be given by invitation or role change; ownership only moves by transfer. */
export const assignableRoles = ['administrator', 'maintainer', 'collaborator'] as const satisfies readonly Role[];
export type AssignableRole = (typeof assignableRoles)[number];

const ALL: readonly Role[] = roles;
const OWNER_ADMIN: readonly Role[] = ['owner', 'administrator'];
const BUILDERS: readonly Role[] = ['owner', 'administrator', 'maintainer'];
const OWNER: readonly Role[] = ['owner'];

export const permissionMatrix = {
  'workspace.view': ALL,
  'workspace.change_name': OWNER_ADMIN,
  'workspace.payg_new_order': OWNER_ADMIN,
  'workspace.transfer': OWNER,
  'workspace.delete': OWNER,
  'workspace.leave': ['administrator', 'maintainer', 'collaborator'],
  'billing.manage': OWNER_ADMIN,
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
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof permissionMatrix;
export const actions = Object.keys(permissionMatrix) as Action[];

export const can = (role: Role | null | undefined, action: Action): boolean =>
  !!role && (permissionMatrix[action] as readonly Role[]).includes(role);

/** Secrets (webhook auth tokens) are shown to the roles that may change projects; collaborators only read. */
export const SECRETS_ACTION: Action = 'projects.update';
export const maySeeSecrets = (role: Role | null | undefined): boolean => can(role, SECRETS_ACTION);

export const isRole = (v: unknown): v is Role => typeof v === 'string' && (roles as readonly string[]).includes(v);

export const roleLabels: Record<Role, string> = {
  owner: 'Owner',
  administrator: 'Administrator',
  maintainer: 'Maintainer',
  collaborator: 'Collaborator',
};
