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
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { CookieBanner } from './components/cookie-banner';
import { DeferredNotifications } from './app/deferred-notifications';
import { queryClient } from './app/query-client';
import { router } from './app/router';
import { cssVariablesResolver, theme } from './theme';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <DeferredNotifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <CookieBanner />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
