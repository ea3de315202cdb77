import type { WebContents } from 'electron';
import { decideNavigation, decideWindowOpen, type LinkDecision } from './links';

type OpenExternal = (url: string) => void;

type GuardedContents = Pick<WebContents, 'setWindowOpenHandler' | 'on'>;

/** Keeps the window on the Cairn origin: no new windows, no foreign pages; allowed links go to the system browser. */
export function guardWebContents(contents: GuardedContents, cairnOrigin: string, openExternal: OpenExternal): void {
  const follow = (decision: LinkDecision): void => {
    if (decision.action === 'open-external') openExternal(decision.url);
  };

  contents.setWindowOpenHandler(({ url }) => {
    follow(decideWindowOpen(url, cairnOrigin));
    return { action: 'deny' };
  });

  contents.on('will-navigate', (event) => {
    const decision = decideNavigation(event.url, cairnOrigin);
    if (decision.action === 'allow') return;
    event.preventDefault();
    follow(decision);
  });

  // A Cairn URL can redirect elsewhere (an OAuth provider, for one): the foreign page must not open in the window.
  contents.on('will-redirect', (event) => {
    if (!event.isMainFrame) return;
    const decision = decideNavigation(event.url, cairnOrigin);
    if (decision.action === 'allow') return;
    event.preventDefault();
    follow(decision);
  });

  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });
}
