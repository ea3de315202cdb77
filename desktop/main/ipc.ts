import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import type { BridgeArgs, BridgeChannel, BridgeResult } from '../preload/bridge';
import { isInternalNavigation } from './links';

export type BridgeHandlers = {
  [C in BridgeChannel]: (...args: BridgeArgs<C>) => BridgeResult<C> | Promise<BridgeResult<C>>;
};

/** Only a frame showing a Cairn page may call the bridge; another site that ended up in a frame gets nothing. */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, cairnOrigin: string): boolean {
  const url = event.senderFrame?.url;
  return typeof url === 'string' && isInternalNavigation(url, cairnOrigin);
}

export function registerBridgeHandlers(ipcMain: Pick<IpcMain, 'handle'>, cairnOrigin: string, handlers: BridgeHandlers): void {
  for (const channel of Object.keys(handlers) as BridgeChannel[]) {
    const handler = handlers[channel] as (...args: unknown[]) => unknown;
    ipcMain.handle(channel, (event, ...args: unknown[]) => {
      if (!isTrustedSender(event, cairnOrigin)) {
        throw new Error(`Refused ${channel}: the caller is not a Cairn page.`);
      }
      return handler(...args);
    });
  }
}
