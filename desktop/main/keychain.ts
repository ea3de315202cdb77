// Project keys kept in the OS keychain (macOS Keychain, Windows Credential Manager, the Secret Service on Linux)
// through @napi-rs/keyring. Nothing is written to disk by the app: the project's name, network and workspace
// are stored beside the key in the same keychain item, so the list needs no file of its own.
import { AsyncEntry, findCredentialsAsync } from '@napi-rs/keyring';
import { z } from 'zod';
import type { KeptKey } from '../preload/bridge';

const KEYCHAIN_SERVICE = 'Cairn project keys';

const recordSchema = z.object({
  projectUuid: z.string().uuid(),
  projectName: z.string(),
  networkId: z.number().int(),
  workspaceId: z.number().int(),
  workspaceName: z.string(),
  key: z.string().min(1),
  keptAt: z.number(),
});
export type KeptKeyRecord = z.infer<typeof recordSchema>;

class KeychainError extends Error {
  override name = 'KeychainError';
}

const unavailable = (error: unknown): KeychainError =>
  new KeychainError(`The OS keychain is not available (${error instanceof Error ? error.message : String(error)}). On Linux it needs a Secret Service such as gnome-keyring or KWallet, unlocked.`);

/** The keys one Cairn server's projects keep in the keychain; items of other servers stay apart. */
export class Keychain {
  private readonly service: string;

  constructor(
    private readonly cairnOrigin: string,
    options: { service?: string } = {},
  ) {
    this.service = options.service ?? KEYCHAIN_SERVICE;
  }

  private account(projectUuid: string): string {
    return `${this.cairnOrigin} ${projectUuid}`;
  }

  private entry(projectUuid: string): AsyncEntry {
    return new AsyncEntry(this.service, this.account(projectUuid));
  }

  async keep(record: KeptKeyRecord): Promise<void> {
    const parsed = recordSchema.parse(record);
    try {
      await this.entry(parsed.projectUuid).setPassword(JSON.stringify(parsed));
    } catch (error) {
      throw unavailable(error);
    }
  }

  private async records(): Promise<KeptKeyRecord[]> {
    let credentials: Array<{ account: string; password: string }>;
    try {
      credentials = await findCredentialsAsync(this.service);
    } catch (error) {
      throw unavailable(error);
    }
    const prefix = `${this.cairnOrigin} `;
    const out: KeptKeyRecord[] = [];
    for (const { account, password } of credentials) {
      if (!account.startsWith(prefix)) continue;
      try {
        const record = recordSchema.parse(JSON.parse(password));
        if (this.account(record.projectUuid) === account) out.push(record);
      } catch {
        // An item under our service that we did not write: not ours to show or use.
      }
    }
    return out.sort((a, b) => a.workspaceName.localeCompare(b.workspaceName) || a.projectName.localeCompare(b.projectName));
  }

  /** What the renderer may see: everything but the key. */
  async list(): Promise<Array<Omit<KeptKey, 'status'>>> {
    return (await this.records()).map(({ key: _key, ...rest }) => rest);
  }

  /** The key itself, for the main process only (the API console sends it; the renderer never gets it). */
  async secretFor(projectUuid: string): Promise<string | null> {
    try {
      const password = await this.entry(projectUuid).getPassword();
      return password === null ? null : recordSchema.parse(JSON.parse(password)).key;
    } catch (error) {
      if (error instanceof z.ZodError || error instanceof SyntaxError) return null;
      throw unavailable(error);
    }
  }

  async remove(projectUuid: string): Promise<boolean> {
    try {
      return await this.entry(projectUuid).deleteCredential();
    } catch (error) {
      throw unavailable(error);
    }
  }
}
