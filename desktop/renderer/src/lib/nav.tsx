// Links and location for pages that render both before and inside the router. The landing page is
// the first thing most visitors load, and react-router (with its data router) is about a fifth of
// the entry's JavaScript; so / renders without it (main.tsx, LightNav) and the router is loaded the
// moment a link leaves the page. Inside the router, RouterNav answers the same hooks from it.
import { createContext, useContext, type AnchorHTMLAttributes, type MouseEvent, type Ref } from 'react';

export interface NavLocation {
  pathname: string;
  search: string;
  hash: string;
  /** Changes with every navigation ('default' for the first page), as react-router's location.key. */
  key: string;
}

interface Nav {
  location: NavLocation;
  navigate(to: string): void;
}

const NavContext = createContext<Nav | null>(null);
export const NavProvider = NavContext.Provider;

/** Outside any provider (an error view above the router): the browser's own location and page loads. */
const pageLoads: Nav = {
  get location() {
    return { pathname: window.location.pathname, search: window.location.search, hash: window.location.hash, key: 'default' };
  },
  navigate: (to) => window.location.assign(to),
};

export function useNav(): Nav {
  return useContext(NavContext) ?? pageLoads;
}

type AppLinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string; ref?: Ref<HTMLAnchorElement> };

/**
 * An in-app link: a real <a href> (so it opens in a new tab, is crawlable and works without script),
 * whose plain left click navigates inside the app, as react-router's Link does.
 */
export function AppLink({ to, onClick, target, ref, ...rest }: AppLinkProps) {
  const nav = useNav();
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.altKey || e.ctrlKey || e.shiftKey || (target && target !== '_self')) return;
    e.preventDefault();
    nav.navigate(to);
  };
  return <a ref={ref} href={to} target={target} onClick={click} {...rest} />;
}
