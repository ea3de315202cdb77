// The one place the screens explain a permission a member lacks: in the server's own 403 words, from
// the one matrix (shared/permissions.ts), so a tooltip and the server's answer never disagree.
import { can, deniedMessages, type Action, type Role } from '../../../../shared/permissions';

/** Why a member with this role may not do this, or null when they may. */
export const deniedReason = (role: Role | null | undefined, action: Action): string | null => (can(role, action) ? null : deniedMessages[action]);
