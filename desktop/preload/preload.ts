// Runs in the sandboxed renderer before the page: it may only require electron, so it stays a thin adapter.
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge, type BridgeInvoke } from './bridge';

export type { CairnBridge } from './bridge';

const invoke: BridgeInvoke = (channel, ...args) => ipcRenderer.invoke(channel, ...args);

const api = createBridge(invoke, process.platform);

contextBridge.exposeInMainWorld('cairn', api);
