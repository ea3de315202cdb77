import { StrictMode, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { CookieBanner } from '../features/site/index';
import { LandingPage } from '../features/landing/index';
import { cssVariablesResolver, theme } from '../theme';
import { DeferredNotifications } from './deferred-notifications';
import { LandingBoundary } from './landing-boundary';
import { LightNav } from './light-nav';

/**
 * The providers around every page. main.tsx renders it in the browser, and the build renders it once more
 * (desktop/renderer/prerender.tsx) to write the landing page's first screen into landing.html: both must give the same tree,
 * or hydrating the prerendered page would not match.
 */
export function AppRoot({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        <DeferredNotifications />
        <QueryClientProvider client={client}>
          <CookieBanner />
          {children}
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>
  );
}

/** / before the router: the landing page, its error view, and links that call `leave` to load the router. */
export function LandingApp({ leave }: { leave: (to: string) => void }) {
  return (
    <LandingBoundary>
      <LightNav leave={leave}>
        <LandingPage />
      </LightNav>
    </LandingBoundary>
  );
}
