import type { CairnBridge } from '../../../preload/bridge';

/** The desktop app's bridge (`window.cairn`, from the preload), or null in a plain browser. */
export function desktopBridge(): CairnBridge | null {
  return (window as Window & { cairn?: CairnBridge }).cairn ?? null;
}
