import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { NavProvider, type NavLocation } from '../lib/nav';

let keys = 0;
// The build renders the landing page without a browser (desktop/renderer/prerender.tsx): there, the location is / itself.
const here = (key: string): NavLocation =>
  typeof window === 'undefined'
    ? { pathname: '/', search: '', hash: '', key }
    : { pathname: window.location.pathname, search: window.location.search, hash: window.location.hash, key };

/**
 * The landing page before the router is loaded: links within / (its #anchors) move the history and
 * the location here; any other link calls `leave`, which loads the router and hands it the page.
 */
export function LightNav({ children, leave }: { children: ReactNode; leave: (to: string) => void }) {
  const [location, setLocation] = useState(() => here('default'));
  useEffect(() => {
    const moved = () => setLocation(here(`l${++keys}`));
    window.addEventListener('popstate', moved);
    return () => window.removeEventListener('popstate', moved);
  }, []);
  const nav = useMemo(
    () => ({
      location,
      navigate: (to: string) => {
        const url = new URL(to, window.location.href);
        if (url.origin !== window.location.origin || url.pathname !== '/') return leave(url.pathname + url.search + url.hash);
        window.history.pushState(null, '', url.pathname + url.search + url.hash);
        setLocation(here(`l${++keys}`));
      },
    }),
    [location, leave],
  );
  return <NavProvider value={nav}>{children}</NavProvider>;
}
