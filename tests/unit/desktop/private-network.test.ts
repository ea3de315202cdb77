import { describe, expect, it } from 'vitest';
import { PRIVATE_NETWORK, withPrivateNetwork } from '../../../desktop/renderer/src/features/project-stats/country';
import type { ProjectStats } from '../../../shared/usage';

const stats = (over: Partial<ProjectStats>): ProjectStats => ({ projectRequests: 0, total: 0, locked: false, countries: [], ips: [], endpoints: [], browsers: [], ...over });

describe('withPrivateNetwork', () => {
  it("splits 'unknown' into the server's private count and what remains, sorted again", () => {
    const out = withPrivateNetwork(stats({ countries: [{ user_country: 'unknown', requests: 10 }, { user_country: 'DE', requests: 6 }], privateNetworkRequests: 7 }));
    expect(out.countries).toEqual([
      { user_country: PRIVATE_NETWORK, requests: 7 },
      { user_country: 'DE', requests: 6 },
      { user_country: 'unknown', requests: 3 },
    ]);
  });

  it('falls back to the IP rows, and never counts more than unknown holds', () => {
    const out = withPrivateNetwork(stats({ countries: [{ user_country: 'unknown', requests: 4 }], ips: [{ ip: '::1', requests: 9 }, { ip: '8.8.8.8', requests: 2 }] }));
    expect(out.countries).toEqual([{ user_country: PRIVATE_NETWORK, requests: 4 }]);
  });

  it('leaves stats without private traffic alone', () => {
    const input = stats({ countries: [{ user_country: 'unknown', requests: 4 }], ips: [{ ip: '8.8.8.8', requests: 4 }], privateNetworkRequests: 0 });
    expect(withPrivateNetwork(input)).toBe(input);
  });
});
