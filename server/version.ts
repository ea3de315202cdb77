import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Cairn's folder: the nearest one up from this module that holds package.json. From the sources this
 * module is server/version.ts; in the build (`npm run build`) it is bundled into a file of dist/server.
 */
export const CAIRN_ROOT = (() => {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error('Cairn cannot find its package.json above its own files');
  }
})();

/** Cairn's version, from package.json (the gateway's GET / and the API references show it). */
export const CAIRN_VERSION = (JSON.parse(fs.readFileSync(path.join(CAIRN_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
