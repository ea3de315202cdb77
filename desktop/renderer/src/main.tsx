// Only the Mantine styles the landing page (and the root's loader and error view) use, in Mantine's own
// order; lazily loaded pages bring the complete sheet (app/page-styles.ts). Layered builds, so app.css
// and the CSS modules always win over Mantine's defaults.
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/Text.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Burger.layer.css';
import '@mantine/core/styles/Button.layer.css';
import '@mantine/core/styles/Center.layer.css';
import '@mantine/core/styles/Container.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/Title.layer.css';
import './app.css';
import { useCallback, useState, type ComponentType } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { queryClient } from './app/query-client';
import { AppRoot, LandingApp } from './app/root';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

/** The router and everything behind it (react-router, the route table): loaded for any page but /. */
const loadRouter = async (): Promise<ComponentType> => {
  const [{ router }, { RouterProvider }] = await Promise.all([import('./app/router'), import('react-router-dom')]);
  return function AppRouter() {
    return <RouterProvider router={router} />;
  };
};

/**
 * / renders the landing page at once, without the router; the first link that leaves it loads the
 * router, which takes over the history from there. Every other first page starts with the router.
 */
function App({ initial }: { initial: ComponentType | null }) {
  const [Routed, setRouted] = useState<ComponentType | null>(() => initial);
  const leave = useCallback((to: string) => {
    void loadRouter().then(async (Component) => {
      const { router } = await import('./app/router');
      await router.navigate(to);
      setRouted(() => Component);
    });
  }, []);
  if (Routed) return <Routed />;
  return <LandingApp leave={leave} />;
}

const tree = (initial: ComponentType | null) => (
  <AppRoot client={queryClient}>
    <App initial={initial} />
  </AppRoot>
);

if (window.location.pathname === '/') {
  // The server answers / with landing.html, whose #root already holds the landing page's first screen
  // as the build rendered it (desktop/renderer/prerender.tsx), painted before any script runs: React
  // adopts that markup. With an #anchor the page renders everything below the fold at once, which the
  // prerender does not have, so it renders afresh (createRoot replaces what is there).
  if (container.firstElementChild && window.location.hash === '') {
    // Hydrating is one long task on a slow machine; started before the browser has painted the prerendered
    // page, it holds that first paint back. So the page is painted first (the frame after this one), unless
    // the tab is hidden, where no frame comes until it is shown.
    const hydrate = () => hydrateRoot(container, tree(null));
    if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(hydrate, 0));
    else hydrate();
  } else createRoot(container).render(tree(null));
} else void loadRouter().then((initial) => createRoot(container).render(tree(initial)));
