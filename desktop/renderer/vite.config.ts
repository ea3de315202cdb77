import { fileURLToPath } from 'node:url';
import { defineConfig, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';

const here = fileURLToPath(new URL('.', import.meta.url));
const backend = process.env.CAIRN_DEV_BACKEND ?? 'http://localhost:3000';

// Server paths a browser navigates to as pages (OAuth redirects, e-mail links, the dev mailbox).
const SERVER_PAGES = /^\/(api|dev)\/|^\/auth\/(signin|callback)\//;

// In `vite dev`, page loads of client routes (/auth/signin, /auth/error, …) are served by Vite;
// everything else under these prefixes goes to the Cairn server (`npm run dev`, port 3000).
const toServer: ProxyOptions = {
  target: backend,
  bypass: (req) => {
    const path = (req.url ?? '').split(/[?#]/)[0] ?? '';
    const wantsHtml = req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
    return wantsHtml && !SERVER_PAGES.test(path) ? '/index.html' : undefined;
  },
};

export default defineConfig({
  root: here,
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
  },
  server: {
    proxy: { '/api': toServer, '/auth': toServer, '/dev': toServer },
  },
});
