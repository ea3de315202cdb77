import fs from 'node:fs';
import path from 'node:path';
import type { Router } from 'express';
import { route, type RouteDeps } from '../../http/route';
import type { SiteConfig } from '../../config';

/**
 * The build id of the web app on disk (written by the Vite build into version.json). A page built
 * earlier compares it with its own to learn that a new version has been deployed.
 */
export function deployedVersion(webDir: string): () => string {
  const file = path.join(webDir, 'version.json');
  let cached: { mtimeMs: number; version: string } | null = null;
  return () => {
    try {
      const { mtimeMs } = fs.statSync(file);
      if (cached?.mtimeMs !== mtimeMs) {
        const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: unknown };
        cached = { mtimeMs, version: typeof parsed.version === 'string' ? parsed.version : 'unknown' };
      }
      return cached.version;
    } catch {
      return 'unknown';
    }
  };
}

export function registerSiteRoutes(router: Router, deps: RouteDeps, webDir: string): void {
  const version = deployedVersion(webDir);

  route(router, deps, {
    method: 'get',
    path: '/site',
    permission: 'public',
    handler: ({ res }): SiteConfig => {
      res.set('Cache-Control', 'no-cache');
      return deps.config.site;
    },
  });

  route(router, deps, {
    method: 'get',
    path: '/has-new-deploy',
    permission: 'public',
    handler: ({ res }) => {
      res.set('Cache-Control', 'no-store');
      return { version: version() };
    },
  });
}
