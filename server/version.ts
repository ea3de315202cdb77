import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Cairn's version, from package.json (the gateway's GET / and the API references show it). */
export const CAIRN_VERSION = (JSON.parse(fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../package.json'), 'utf8')) as { version: string }).version;
