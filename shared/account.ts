// The account's security in Settings: its sessions, deleting it and downloading its data.
import { z } from 'zod';

/** One signed-in session of the user, as Settings lists it. `id` names it for 'Sign out'; it is not the session id. */
export interface AccountSessionDto {
  id: string;
  /** What signed in, e.g. 'Chrome 131 on Linux' or 'Cairn desktop on macOS'. */
  device: string;
  /** The name the desktop app gave its computer; null for a browser. */
  device_name: string | null;
  desktop: boolean;
  ip: string | null;
  /** Epoch ms; null for a session signed in before sign-in times were kept. */
  signed_in_at: number | null;
  last_seen_at: number | null;
  /** The session this request came with. */
  current: boolean;
}

/** A sole-owned workspace that has other members blocks deleting the account. */
export interface BlockingWorkspace {
  id: number;
  name: string;
  members: number;
}

/** What deleting the account would do, or what stops it. */
export interface AccountDeletionPlan {
  allowed: boolean;
  /** Workspaces the user owns that have other members: transfer or empty them first. */
  blockers: BlockingWorkspace[];
  /** Workspaces the user alone is in: deleted with their projects. */
  workspacesDeleted: Array<{ id: number; name: string; projects: number }>;
  /** A paid plan to cancel first. */
  cancelsSubscription: string | null;
}

/** What the user types to confirm deleting their account: their own e-mail address. */
export const deleteAccountSchema = z.object({
  confirmation: z.string({ error: 'Type your e-mail address to confirm.' }).max(254, 'Type your e-mail address to confirm.'),
});

export const accountMessages = {
  sessionNotFound: 'Session not found. It may have ended already.',
  currentSession: 'This is the session you are using. To end it, use Sign Out in the account menu.',
  confirmationMismatch: 'The e-mail address you typed does not match your account.',
  blocked: (names: string[]) =>
    `You own ${names.length === 1 ? 'a workspace' : 'workspaces'} with other members: ${names.join(', ')}. ` +
    'Transfer ownership to another member or remove the members before deleting your account.',
  deleteWarning:
    'This will permanently delete your account: your profile, settings, sign-in links and every workspace you alone belong to, with its projects. You are signed out everywhere.',
  signedOutOthers: (n: number) => (n === 0 ? 'No other session was signed in.' : `Signed out of ${n} other session${n === 1 ? '' : 's'}.`),
} as const;

/** Where the data download is: a link target the browser saves as a file. */
export const ACCOUNT_EXPORT_PATH = '/api/account/export';
