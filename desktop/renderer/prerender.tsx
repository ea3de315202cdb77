// Rendered by the build (desktop/renderer/vite.config.ts, `cairn-prerender-landing`), never by the browser:
// the landing page's first screen as a visitor who is not signed in sees it before any data arrives, the
// same tree main.tsx hydrates. Only the header and hero: the rest renders a frame after hydration.
import { renderToString } from 'react-dom/server';
import { QueryClient } from '@tanstack/react-query';
import { AppRoot, LandingApp } from './src/app/root';

function App() {
  return <LandingApp leave={() => undefined} />;
}

export function renderLanding(): string {
  const client = new QueryClient({ defaultOptions: { queries: { enabled: false } } });
  return renderToString(
    <AppRoot client={client}>
      <App />
    </AppRoot>,
  );
}
