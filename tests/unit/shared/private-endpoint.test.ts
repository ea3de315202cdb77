import { describe, expect, it } from 'vitest';
import { privateEndpointWarning, webhookMessages } from '../../../shared/webhooks';

// The webhook form warns at save time when the endpoint is private or loopback.
describe('privateEndpointWarning', () => {
  it.each([
    'http://localhost:3000/hook',
    'http://api.localhost/hook',
    'http://printer.local/x',
    'http://127.0.0.1/x',
    'http://0x7f.1/x',
    'http://10.1.2.3/x',
    'http://172.20.0.5/x',
    'http://192.168.1.10/x',
    'http://169.254.169.254/latest',
    'http://100.64.0.1/x',
    'http://0.0.0.0/x',
    'http://[::1]/x',
    'http://[fd12:3456::1]/x',
    'http://[fe80::1]/x',
    'http://[::ffff:127.0.0.1]/x',
    'http://[::ffff:0:7f00:1]/x',
  ])('warns for %s', (url) => expect(privateEndpointWarning(url)).toBe(webhookMessages.privateEndpoint));

  it.each(['https://hooks.example.com/x', 'http://93.184.216.34/x', 'http://172.32.0.1/x', 'http://[2606:4700::1111]/x', 'not a url', ''])(
    'says nothing for %s',
    (url) => expect(privateEndpointWarning(url)).toBeNull(),
  );

  it('names WEBHOOK_ALLOWLIST', () => expect(webhookMessages.privateEndpoint).toContain('WEBHOOK_ALLOWLIST'));
});
