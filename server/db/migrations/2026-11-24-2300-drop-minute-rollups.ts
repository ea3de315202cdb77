import type { Knex } from 'knex';

// The meter no longer writes per-minute rollups: nothing read them (the statistics read day rows,
// request insight hour rows), and they were one more upsert per active project on every flush, on
// the gateway's own database connection. The rows already written go; there is nothing to restore.
export async function up(knex: Knex): Promise<void> {
  await knex('usage_rollups').where({ granularity: 'm' }).delete();
}

export async function down(): Promise<void> {}
