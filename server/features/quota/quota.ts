import type { Db } from '../../db/index';
import { getSubscription } from '../workspaces/index';
import { ownedProjectCount } from '../projects/index';
import { ownedWebhookCount } from '../webhooks/index';
import { runningBoostTypes } from '../billing/index';
import { dailyRequestLimit } from '../../../shared/plans';
import { ppuBalance } from '../ppu/index';
import { storageUsed } from '../ipfs/index';
import type { QuotaDto } from '../../../shared/workspaces';
import { dayStartOf } from '../../../shared/time';

/**
 * The quota response of GET /api/workspaces/{id}/quota for a subscription owner: the plan's limits
 * (requests plus active boosts) and what the owner's workspaces use today. The one place the quota is
 * computed, so storage (IPFS) and pay as you go add their terms here. Storage is what an add's limit
 * check counts: the pins, and the adds not yet pinned that the collector keeps for storageGraceMs.
 */
export async function getQuota(db: Db, ownerId: number, storageGraceMs: number, now = Date.now(), workspaceId?: number): Promise<QuotaDto> {
  const [{ plan, status }, boostTypes, projectCount, webhookCount, usage, stored, ppu] = await Promise.all([
    getSubscription(db, ownerId),
    runningBoostTypes(db, ownerId, now),
    ownedProjectCount(db, ownerId),
    ownedWebhookCount(db, ownerId),
    db('quota_usage').where({ user_id: ownerId, day_ms: dayStartOf(now) }).first('requests'),
    storageUsed(db, ownerId, storageGraceMs, now),
    workspaceId === undefined ? { active: false, requests: 0 } : ppuBalance(db, workspaceId),
  ]);
  return {
    quota: { projectCount: plan.projectCount, requestLimit: dailyRequestLimit(plan, boostTypes), storageLimit: plan.storageLimit, webhookCount: plan.webhookCount },
    used: { subscription: { projectCount, webhookCount, requests: Number(usage?.requests ?? 0), storage: stored.storage } },
    subscription: { status, currentPlan: { name: plan.name } },
    // Pay as you go is per workspace: its balance of requests that never expire.
    ppu: { active: ppu.active, balance: { requests: ppu.requests } },
  };
}
