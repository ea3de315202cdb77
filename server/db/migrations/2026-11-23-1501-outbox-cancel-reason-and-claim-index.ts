import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // Why an event was cancelled: 'rollback' (its block left the chain: never resent) or 'disabled'.
  await knex.schema.alterTable('webhook_events', (t) => {
    t.string('cancel_reason', 16);
  });
  // The dispatcher's claim reads pending events by due time; finished events (nearly all rows) need
  // no entry in that index, so it only holds the pending ones and stays small as the outbox grows.
  await knex.schema.alterTable('webhook_events', (t) => {
    t.dropIndex(['status', 'next_attempt_at']);
  });
  await knex.raw(`create index webhook_events_due on webhook_events (next_attempt_at) where status = 'pending'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index webhook_events_due');
  await knex.schema.alterTable('webhook_events', (t) => {
    t.index(['status', 'next_attempt_at']);
  });
  await knex.schema.alterTable('webhook_events', (t) => {
    t.dropColumn('cancel_reason');
  });
}
