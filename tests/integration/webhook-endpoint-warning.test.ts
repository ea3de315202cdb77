import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { webhookMessages } from '../../shared/webhooks';

// The webhook form's private-endpoint warning comes from the server, which alone knows WEBHOOK_ALLOWLIST.
const app = useTestApp({ env: { WEBHOOK_ALLOWLIST: '127.0.0.1/32,hooks.localhost' } });

describe('GET /api/webhooks/endpoint-warning', () => {
  it('warns about private and loopback endpoints except those WEBHOOK_ALLOWLIST allows', async () => {
    const client = new Client(app.url);
    await signIn(client, app.mailer, 'warning@example.com');
    const warning = async (url: string) => {
      const res = await client.get(`/api/webhooks/endpoint-warning?url=${encodeURIComponent(url)}`);
      expect(res.status, res.text).toBe(200);
      return res.body.data.warning as string | null;
    };
    expect(await warning('http://127.0.0.1:8080/hook')).toBeNull();
    expect(await warning('http://hooks.localhost/hook')).toBeNull();
    expect(await warning('https://example.com/hook')).toBeNull();
    expect(await warning('not a url')).toBeNull();
    expect(await warning('http://127.0.0.2:8080/hook')).toBe(webhookMessages.privateEndpoint);
    expect(await warning('http://localhost:8080/hook')).toBe(webhookMessages.privateEndpoint);
    expect(await warning('http://10.1.2.3/hook')).toBe(webhookMessages.privateEndpoint);
    expect(await warning('http://[::1]/hook')).toBe(webhookMessages.privateEndpoint);
  });

  it('answers signed-in users only, and refuses a missing url with 400', async () => {
    expect((await new Client(app.url).get('/api/webhooks/endpoint-warning?url=http%3A%2F%2F10.0.0.1')).status).toBe(401);
    const client = new Client(app.url);
    await signIn(client, app.mailer, 'warning2@example.com');
    const res = await client.get('/api/webhooks/endpoint-warning');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/url is required/);
  });
});
