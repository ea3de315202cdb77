import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, sanitizeUrl } from '../../../server/logger';

const KEY = `preprod${'Kq3'.repeat(10)}xy`;

describe('logger', () => {
  it('never writes a project key, wherever a line carries it', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = createLogger('info', sink);
    logger.info({ req: { url: `/${KEY}/api/v0/blocks/latest` } }, 'request');
    logger.error({ err: { message: `connect ECONNREFUSED for http://u:${KEY}@127.0.0.1/` } }, `upstream failed for ${KEY}`);
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain(KEY);
      expect(line).toContain('[key]');
    }
  });

  it('sanitises a URL for the request log', () => {
    expect(sanitizeUrl(`/${KEY}/api/v0/txs?token=abc`)).toBe('/[key]/api/v0/txs?token=[redacted]');
  });
});
