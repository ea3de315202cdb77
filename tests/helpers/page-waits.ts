import type { Locator, Page } from 'playwright-core';

/**
 * Waits for `locator` on a page whose context has Playwright's clock installed (context.clock.install()
 * before the page loads), moving that clock `stepMs` forward before each look so that the page's timers
 * (refetch intervals, retry back-offs) fire now rather than in real time. One jump is not always
 * enough: a refetch may answer with what was there before the change, or a failed fetch schedules its
 * retry only once its answer arrives.
 */
export async function waitForWithClock(page: Page, locator: Locator, stepMs: number, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    await page.clock.fastForward(stepMs);
    try {
      await locator.waitFor({ timeout: 1_000 });
      return;
    } catch (err) {
      if (Date.now() >= end) throw err;
    }
  }
}

/** Resolves once the page has drawn two more frames: whatever a change (a resize, a render) set off is on screen. */
export async function framesDrawn(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/**
 * Resolves once `locator` has stopped moving: its box is the same over three looks two frames apart.
 * A dialog opens with a transition (it slides and fades in), so boxes read while it runs belong to
 * different moments of it.
 */
export async function settled(page: Page, locator: Locator, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  let last = '';
  let same = 0;
  while (same < 2) {
    if (Date.now() > end) throw new Error('the element kept moving');
    await framesDrawn(page);
    const box = JSON.stringify(await locator.boundingBox());
    same = box === last ? same + 1 : 0;
    last = box;
  }
}

/**
 * Counts the page's requests still in flight from now on, so a test can wait for what a step set off
 * (a chunk loaded on demand, a late fetch) to have arrived.
 */
export function inFlight(page: Page): () => number {
  const pending = new Set<unknown>();
  page.on('request', (r) => pending.add(r));
  page.on('requestfinished', (r) => pending.delete(r));
  page.on('requestfailed', (r) => pending.delete(r));
  return () => pending.size;
}

/**
 * Moves a signed-in single-page app to `path` as its own links do (history.pushState and the popstate
 * the router listens to), without loading the page again, and resolves once the new page has drawn its
 * heading, its loaders and skeletons have gone and no request it set off is still in flight. A full load costs the
 * browser about ten times the CPU of this.
 */
export async function navigateInApp(page: Page, path: string, pending: () => number, timeoutMs = 15_000): Promise<void> {
  // The old page's headings are marked: the new page's heading is one the router mounted after the move.
  const moved = await page.evaluate((to) => {
    if (location.pathname + location.search === to) return false;
    for (const h of document.querySelectorAll('h1')) h.setAttribute('data-before-move', '');
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
    return true;
  }, path);
  if (moved) await page.waitForFunction(() => document.querySelector('h1:not([data-before-move])') !== null, undefined, { timeout: timeoutMs });
  const end = Date.now() + timeoutMs;
  let quiet = 0;
  while (quiet < 3) {
    if (Date.now() > end) throw new Error(`${path} kept loading`);
    await framesDrawn(page);
    const busy = pending() > 0 || (await page.evaluate(() => document.querySelector('.mantine-Loader-root, .mantine-Skeleton-root[data-visible="true"]') !== null));
    quiet = busy ? 0 : quiet + 1;
  }
}
