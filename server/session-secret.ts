import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config';

/**
 * SESSION_SECRET when configured; otherwise one generated on first start and kept in DATA_DIR, so
 * sessions survive restarts in embedded mode. Several processes must share SESSION_SECRET instead.
 */
export function resolveSessionSecret(config: Config): string {
  if (config.session.secret) return config.session.secret;
  const file = path.join(config.dataDir, 'session-secret');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // not created yet
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const secret = crypto.randomBytes(48).toString('base64url');
  fs.writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}
