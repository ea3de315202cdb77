import type { Knex } from 'knex';

// Per-minute rollups go: nothing reads them (the statistics read day rows, request insight hour
// rows), and each cost one more upsert per active project on every flush, on the gateway's own
// database connection. The rows written go too; there is nothing to restore.
export async function up(knex: Knex): Promise<void> {
  await knex('usage_rollups').where({ granularity: 'm' }).delete();
}

export async function down(): Promise<void> {}
