import { describe, expect, it } from 'vitest';
import { ERR_ABORTED, describeLoadFailure } from '../../../desktop/main/load-failure';

const origin = 'http://localhost:3000';

describe('describeLoadFailure', () => {
  it('explains an unreachable server', () => {
    const message = describeLoadFailure(
      { errorCode: -102, errorDescription: 'ERR_CONNECTION_REFUSED', url: 'http://localhost:3000/dashboard', isMainFrame: true },
      origin,
    );
    expect(message).toContain('http://localhost:3000');
    expect(message).toContain('ERR_CONNECTION_REFUSED');
    expect(message).toContain('CAIRN_URL');
  });

  it('stays quiet about replaced loads and frames', () => {
    expect(describeLoadFailure({ errorCode: ERR_ABORTED, errorDescription: 'ERR_ABORTED', url: origin, isMainFrame: true }, origin)).toBeNull();
    expect(describeLoadFailure({ errorCode: -105, errorDescription: 'ERR_NAME_NOT_RESOLVED', url: 'https://x.example', isMainFrame: false }, origin)).toBeNull();
  });
});
