import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuth2Server } from 'oauth2-mock-server';

export interface GitHubUser {
  id: number;
  login: string;
  name?: string;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

export interface LocalGitHub {
  /** The OAuth2 authorization server (oauth2-mock-server): /authorize and /token. */
  issuerUrl: string;
  /** GitHub's REST API as passport-github2 calls it: /user and /user/emails. */
  apiUrl: string;
  env: Record<string, string>;
  user: GitHubUser;
  close(): Promise<void>;
}

/**
 * A real local OAuth2 server for the authorization-code dance, plus the two GitHub REST calls the
 * strategy makes, which only answer for access tokens that server actually issued.
 */
export async function startLocalGitHub(user: GitHubUser): Promise<LocalGitHub> {
  const oauth = new OAuth2Server();
  await oauth.issuer.keys.generate('RS256');
  await oauth.start(0, '127.0.0.1');
  const issuerUrl = oauth.issuer.url!;
  const issued = new Set<string>();
  oauth.service.on('beforeResponse', (tokenResponse: { body: { access_token?: string } }) => {
    if (tokenResponse.body.access_token) issued.add(tokenResponse.body.access_token);
  });

  const state = { user };
  const api = http.createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    const token = auth.replace(/^(Bearer|token)\s+/i, '');
    if (!issued.has(token)) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Bad credentials' }));
      return;
    }
    const u = state.user;
    if (req.url === '/user') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: u.id, login: u.login, name: u.name ?? u.login }));
    } else if (req.url === '/user/emails') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(u.emails));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  return {
    issuerUrl,
    apiUrl,
    get user() {
      return state.user;
    },
    set user(u: GitHubUser) {
      state.user = u;
    },
    env: {
      GITHUB_CLIENT_ID: 'cairn-test-client',
      GITHUB_CLIENT_SECRET: 'cairn-test-secret',
      GITHUB_AUTHORIZATION_URL: `${issuerUrl}/authorize`,
      GITHUB_TOKEN_URL: `${issuerUrl}/token`,
      GITHUB_API_URL: apiUrl,
    },
    close: async () => {
      api.closeAllConnections();
      await new Promise<void>((resolve) => api.close(() => resolve()));
      await oauth.stop();
    },
  };
}
