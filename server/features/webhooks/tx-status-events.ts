// The events of 'tx_status' webhooks: one per change of a tracked transaction (server/features/txs/)
// and webhook of the workspace of the project that submitted it, when the webhook's conditions
// (JSONPath over the payload) hold. Written in the caller's transaction, with the change itself: by
// the chain follower for what blocks and rollbacks change, and by the gateway (through the
// composition root) for what a submit records (pending, invalid).
import type { Knex } from 'knex';
import { txStatusMatches } from '../../../shared/webhook-matcher';
import type { TxChange } from '../txs/index';
import * as outbox from './outbox';
import { parseConditions } from './webhooks';

/**
 * Writes the events of `network`'s enabled 'tx_status' webhooks for `changes`, made at block `at`
 * (null: at a submit, in no block). Answers how many.
 */
export async function writeTxStatusEvents(trx: Knex.Transaction, network: number, changes: TxChange[], at: { height: number | null; hash: string } | null, now: number): Promise<number> {
  if (changes.length === 0) return 0;
  const projectIds = [...new Set(changes.map((c) => c.projectId))];
  const hooks = await trx('webhooks')
    .join('projects', 'projects.workspace_id', 'webhooks.workspace_id')
    .where({ 'webhooks.network': network, 'webhooks.status': 'enabled', 'webhooks.type': 'tx_status' })
    .whereIn('projects.id', projectIds)
    .select('webhooks.id as id', 'webhooks.conditions as conditions', 'webhooks.project_id as webhook_project', 'projects.id as project_id', 'projects.uuid as project_uuid');
  if (hooks.length === 0) return 0;
  const events: outbox.NewEvent[] = [];
  for (const c of changes) {
    for (const h of hooks) {
      if (Number(h.project_id) !== c.projectId) continue;
      // A devnet webhook hears of its own project's transactions only.
      if (h.webhook_project !== null && h.webhook_project !== undefined && Number(h.webhook_project) !== c.projectId) continue;
      const payload = {
        tx_hash: c.txHash,
        project: h.project_uuid,
        state: c.state,
        previous_state: c.from,
        block_height: c.blockHeight,
        block_hash: c.blockHash,
        depth: c.depth,
        confirmations_needed: c.confirmationsNeeded,
        at: Math.floor(c.at / 1000),
      };
      if (!txStatusMatches(parseConditions(h.conditions), payload)) continue;
      events.push({
        // The same change written again (a block matched again after a write that did not commit) gets the same id.
        id: outbox.derivedEventId(`${network}:tx_status:${h.id}:${c.txHash}:${c.from}>${c.state}:${c.blockHash ?? ''}:${at?.hash ?? `submit@${c.at}`}`),
        webhookId: h.id,
        type: 'tx_status',
        network,
        blockHeight: at?.height ?? null,
        blockHash: at?.hash ?? null,
        payload,
      });
    }
  }
  if (events.length > 0) await outbox.insertEvents(trx, outbox.prepareEvents(events, now));
  return events.length;
}
