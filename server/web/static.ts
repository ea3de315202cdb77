import fs from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import { isAppRoute, isDashboardPath, signInPathFor } from '../../shared/routes';
import { CAIRN_ROOT } from '../version';

/** The web build (`npm run build:web`), under Cairn's folder whether the server runs from its sources or its build. */
export const defaultWebDir = path.join(CAIRN_ROOT, 'dist', 'web');

/** Paths the web build never holds a file under. */
const API_PATH = /^\/(?:api|auth)(?:\/|$)/;

/** Hashed build assets: cached for a year, never revalidated. Mounted before sessions so they cost no database work. */
export function assetsRouter(webDir: string): Router {
  const router = express.Router();
  router.use('/assets', express.static(path.join(webDir, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: false }));
  // redirect: false, so /docs (a folder of the build) reaches its page instead of a redirect to /docs/.
  const files = express.static(webDir, { index: false, maxAge: '1h', redirect: false });
  // The API and sign-in paths are never files of the build: they skip the file lookup (a stat per call).
  router.use((req, res, next) => (API_PATH.test(req.path) ? next() : files(req, res, next)));
  return router;
}

/**
 * index.html for client routes; signed-out visits to /dashboard/* go to sign-in with a way back. / itself
 * gets landing.html when the build wrote one: the same shell with the landing page's first screen already
 * rendered in it (desktop/renderer/vite.config.ts), so the headline paints before the scripts run.
 */
export function spaRouter(webDir: string): Router {
  const router = express.Router();
  const indexFile = path.join(webDir, 'index.html');
  const landingFile = path.join(webDir, 'landing.html');
  router.get(/.*/, (req, res, next) => {
    if (!req.accepts('html')) return next();
    if (isDashboardPath(req.path) && !req.user) return res.redirect(signInPathFor(req.originalUrl));
    if (!fs.existsSync(indexFile)) {
      return res.status(503).type('text').send('The web app is not built yet: run `npm run build:web` (npm start does it for you).');
    }
    res.set('Cache-Control', 'no-cache');
    if (req.path === '/' && fs.existsSync(landingFile)) return res.sendFile(landingFile, { dotfiles: 'allow' });
    res.status(isAppRoute(req.path) ? 200 : 404).sendFile(indexFile, { dotfiles: 'allow' });
  });
  return router;
}
