import { describe, expect, it, vi } from 'vitest';

const start = vi.hoisted(() => ({ startCairnDesktop: vi.fn() }));
vi.mock('../../../desktop/main/start', () => start);

describe('desktop/main/main.ts', () => {
  it('starts the desktop app with the real process', async () => {
    await import('../../../desktop/main/main');
    expect(start.startCairnDesktop).toHaveBeenCalledTimes(1);
    expect(start.startCairnDesktop).toHaveBeenCalledWith({
      env: process.env,
      argv: process.argv,
      platform: process.platform,
      execPath: process.execPath,
      defaultApp: false,
    });
  });
});
