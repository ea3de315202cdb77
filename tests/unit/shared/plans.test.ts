import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { boostRequests, boosts, dailyRequestLimit, planLimitMessage, plans, subscriptionBlockedMessage } from '../../../shared/plans';

// Plan rules live once in shared/plans.ts, for the server and the screens.
const root = path.resolve(import.meta.dirname, '../../..');

describe('plan rules', () => {
  it('say which plans show detailed statistics', () => {
    expect(Object.values(plans).filter((p) => p.detailedStats).map((p) => p.name)).toEqual(['DEVELOPER', 'ENTERPRISE']);
  });

  it('spell the limit messages once, with singular and plural', () => {
    expect(planLimitMessage('STARTER', 'projectCount')).toBe('Your STARTER plan allows 1 project. Upgrade the plan to add more.');
    expect(planLimitMessage('DEVELOPER', 'projectCount')).toBe('Your DEVELOPER plan allows 10 projects. Upgrade the plan to add more.');
    expect(planLimitMessage('DEVELOPER', 'workspaceMembers')).toBe('Your DEVELOPER plan allows 5 members per workspace. Upgrade the plan to add more.');
    expect(planLimitMessage('HOBBY', 'webhookCount')).toBe('Your HOBBY plan allows 3 webhooks. Upgrade the plan to add more.');
    expect(planLimitMessage('DEVELOPER', 'workspaceCount')).toBe('Your DEVELOPER plan allows 2 workspaces. Upgrade the plan to add more.');
    expect(planLimitMessage('HOBBY', 'projectCount', 'owner')).toBe("The workspace owner's HOBBY plan allows 3 projects. Ask the owner to upgrade the plan to add more.");
    expect(subscriptionBlockedMessage('incomplete')).toMatch(/^The first payment of this subscription is not complete yet/);
    expect(subscriptionBlockedMessage('incomplete_expired')).toMatch(/failed and it expired/);
    expect(subscriptionBlockedMessage('active')).toBeNull();
  });

  it('hold the boosts and what they add', () => {
    expect(boosts.REQUESTS_BOOST_300K).toMatchObject({ requests: 300_000, price: 1900, days: 30 });
    expect(boostRequests('REQUESTS_BOOST_1M')).toBe(1_000_000);
    expect(boostRequests('nonsense')).toBe(0);
  });

  it("make the daily limit the plan's requests plus each running boost, two of a kind counted twice", () => {
    expect(dailyRequestLimit(plans.HOBBY, [])).toBe(plans.HOBBY.requestLimit);
    expect(dailyRequestLimit(plans.HOBBY, ['REQUESTS_BOOST_300K', 'REQUESTS_BOOST_300K', 'REQUESTS_BOOST_1M', 'nonsense'])).toBe(
      plans.HOBBY.requestLimit + 2 * boosts.REQUESTS_BOOST_300K.requests + boosts.REQUESTS_BOOST_1M.requests,
    );
  });

  it('are not spelled anywhere else: no second copy of the limit wording or the boost amounts', () => {
    const files = (dir: string): string[] =>
      fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(`${dir}/${e.name}`) : /\.tsx?$/.test(e.name) ? [`${dir}/${e.name}`] : []));
    const sources = ['server', 'shared', 'desktop/renderer/src'].flatMap(files).filter((f) => f !== 'shared/plans.ts');
    for (const f of sources) {
      const text = fs.readFileSync(path.join(root, f), 'utf8');
      expect(text, f).not.toContain('Upgrade the plan to add more');
      expect(text, f).not.toMatch(/requests: (300_000|1_000_000), price/);
      expect(text, f).not.toMatch(/DETAILED_STATS_PLANS/);
    }
  });
});
