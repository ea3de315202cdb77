import { describe, expect, it } from 'vitest';
import { endpointTemplate } from '../../../../server/gateway/endpoint-template';

describe('endpoint templates', () => {
  it.each([
    ['/blocks/latest', '/blocks/latest'],
    ['/blocks/4311233/txs?page=2', '/blocks/{hash_or_number}/txs'],
    ['/addresses/addr1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh/transactions', '/addresses/{address}/transactions'],
    ['/txs/6e5f825c82c1c6d6b77f2a14092f3b78c8f1b66db6f4cf8caec1555b6f967b3b/utxos', '/txs/{hash}/utxos'],
    ['/epochs/412/parameters', '/epochs/{number}/parameters'],
    ['/pools/pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2q3lkdy', '/pools/{pool_id}'],
    ['/accounts/stake1ux3g2c9dx2nhhehyrezyxpkstartcqmu9hk63qgfkccw5rqttygt7/rewards', '/accounts/{stake_address}/rewards'],
    ['/ipfs/gateway/QmZbHqiCxKEVX7QfijzJTkZiSi3WEVTcvANgNAWzDYgZDr', '/ipfs/gateway/{IPFS_path}'],
    ['/', '/'],
  ])('%s → %s', (path, template) => expect(endpointTemplate(path)).toBe(template));

  it('keeps the number of templates bounded whatever the path', () => {
    expect(endpointTemplate('/' + Array.from({ length: 50 }, (_, i) => `x${i}`).join('/'))).toBe('/' + Array(8).fill('{id}').join('/'));
  });
});
