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
import { StrictMode, useCallback, useState, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { CookieBanner } from './components/cookie-banner';
import { DeferredNotifications } from './app/deferred-notifications';
import { LandingBoundary } from './app/landing-boundary';
import { LightNav } from './app/light-nav';
import { queryClient } from './app/query-client';
import { LandingPage } from './features/landing/landing-page';
import { cssVariablesResolver, theme } from './theme';

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
  return (
    <LandingBoundary>
      <LightNav leave={leave}>
        <LandingPage />
      </LightNav>
    </LandingBoundary>
  );
}

const render = (initial: ComponentType | null) =>
  createRoot(container).render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        <DeferredNotifications />
        <QueryClientProvider client={queryClient}>
          <App initial={initial} />
          <CookieBanner />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  );

if (window.location.pathname === '/') render(null);
else void loadRouter().then(render);
