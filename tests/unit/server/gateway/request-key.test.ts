import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { basicAuthPassword, requestKey } from '../../../../server/gateway/request-key';

const KEY = `mainnet${'A1b2'.repeat(8)}`;
const req = (headers: http.IncomingHttpHeaders) => ({ headers }) as http.IncomingMessage;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('requestKey', () => {
  it('reads the header first, and takes a key segment off the path whatever the source', () => {
    expect(requestKey(req({ project_id: KEY }), '/api/v0/blocks')).toEqual({ key: KEY, source: 'header', pathname: '/api/v0/blocks' });
    expect(requestKey(req({ project_id: 'other' }), `/${KEY}/api/v0/blocks`)).toEqual({ key: 'other', source: 'header', pathname: '/api/v0/blocks' });
  });

  it('reads a key from the first path segment', () => {
    expect(requestKey(req({}), `/${KEY}/cardano-mainnet/api/v0/blocks/latest`)).toEqual({ key: KEY, source: 'path', pathname: '/cardano-mainnet/api/v0/blocks/latest' });
    expect(requestKey(req({}), `/${KEY}`)).toEqual({ key: KEY, source: 'path', pathname: '/' });
    // Only a key-shaped segment: a network slug or a word stays in the path.
    expect(requestKey(req({}), '/cardano-mainnet/api/v0/')).toEqual({ key: undefined, source: null, pathname: '/cardano-mainnet/api/v0/' });
    expect(requestKey(req({}), `/api/v0/addresses/${KEY}`)).toEqual({ key: undefined, source: null, pathname: `/api/v0/addresses/${KEY}` });
  });

  it('reads the basic-auth password of any network', () => {
    expect(requestKey(req({ authorization: basic('', KEY) }), '/api/v0/')).toEqual({ key: KEY, source: 'basic', pathname: '/api/v0/' });
    expect(requestKey(req({ authorization: 'Bearer x' }), '/api/v0/')).toEqual({ key: '', source: 'basic', pathname: '/api/v0/' });
  });

  it('decodes basic auth', () => {
    expect(basicAuthPassword(basic('project', 'k:with:colons'))).toBe('k:with:colons');
    expect(basicAuthPassword(`Basic ${Buffer.from('nocolon').toString('base64')}`)).toBeNull();
  });
});
