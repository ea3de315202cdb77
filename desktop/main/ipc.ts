import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import type { BridgeChannel, BridgeHandlers } from '../preload/bridge';
import { bridgeArgSchemas } from './bridge-schemas';
import { isInternalNavigation } from './links';

export type { BridgeHandlers };

/** Only a frame showing a Cairn page may call the bridge; another site that ended up in a frame gets nothing. */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, cairnOrigin: string): boolean {
  const url = event.senderFrame?.url;
  return typeof url === 'string' && isInternalNavigation(url, cairnOrigin);
}

/** Registers every channel; each call is refused unless it comes from a Cairn page and its arguments fit the channel's schema. */
export function registerBridgeHandlers(ipcMain: Pick<IpcMain, 'handle'>, cairnOrigin: string, handlers: BridgeHandlers): void {
  for (const channel of Object.keys(handlers) as BridgeChannel[]) {
    const handler = handlers[channel] as (...args: unknown[]) => unknown;
    const schema = bridgeArgSchemas[channel];
    ipcMain.handle(channel, (event, ...args: unknown[]) => {
      if (!isTrustedSender(event, cairnOrigin)) {
        throw new Error(`Refused ${channel}: the caller is not a Cairn page.`);
      }
      const parsed = schema.safeParse(args);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new Error(`Refused ${channel}: ${issue ? `${issue.path.join('.') || 'arguments'}: ${issue.message}` : 'invalid arguments'}.`);
      }
      return handler(...(parsed.data as unknown[]));
    });
  }
}
