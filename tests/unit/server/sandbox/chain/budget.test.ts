import { describe, expect, it } from 'vitest';
import { sliced, spent } from '../../../../../server/sandbox/chain/budget';

describe('sliced answers', () => {
  it('run one slice a turn of the event loop, however many wait, each to its answer', async () => {
    // A tick once a turn of the loop: an immediate set again from its own check phase runs in the next
    // one, once per turn whatever the turn holds (a 1 ms timer could miss turns on a busy machine).
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const resumed: number[] = [];
    const answer = (id: number) => {
      let done = 0;
      let first = true;
      return () => {
        if (!first) resumed.push(turn);
        first = false;
        // 25 units of 1 ms: three slices, the last of a few milliseconds too, the progress kept between them.
        while (done < 25) {
          const t = performance.now();
          while (performance.now() - t < 1);
          done++;
          spent();
        }
        return id;
      };
    };
    try {
      const answers = await Promise.all([1, 2, 3, 4, 5].map((id) => sliced(answer(id))));
      expect(answers).toEqual([1, 2, 3, 4, 5]);
    } finally {
      ticking = false;
    }
    expect(resumed.length).toBeGreaterThanOrEqual(10);
    // Slices that waited run one a turn, so what arrived meanwhile is served between any two (all five
    // back to back in one turn before).
    const perTurn = new Map<number, number>();
    for (const t of resumed) perTurn.set(t, (perTurn.get(t) ?? 0) + 1);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(2);
  });
});
