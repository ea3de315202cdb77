import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // Every change the gateways' key caches must learn about (project created or deleted, owner or
  // plan changed). Gateways poll it by id, so a deleted key is refused everywhere within a second.
  await knex.schema.createTable('gateway_changes', (t) => {
    t.bigIncrements('id').primary();
    t.string('kind', 32).notNullable();
    t.string('ref', 128).notNullable();
    t.bigInteger('created_at').notNullable().index();
  });

  // Request counts per project and time bucket. bucket_ms is the bucket's start (UTC); granularity
  // m (minute), h (hour) or d (day). One row per project and bucket, never one per request.
  await knex.schema.createTable('usage_rollups', (t) => {
    t.string('granularity', 1).notNullable();
    t.bigInteger('bucket_ms').notNullable();
    t.integer('project_id').notNullable();
    t.bigInteger('requests').notNullable();
    t.primary(['project_id', 'granularity', 'bucket_ms']);
  });

  // Per-day counts by dimension (country, ip, endpoint, browser, status) for the TOP 10 cards.
  await knex.schema.createTable('usage_dimensions', (t) => {
    t.integer('project_id').notNullable();
    t.string('dimension', 16).notNullable();
    t.bigInteger('day_ms').notNullable();
    t.string('value', 255).notNullable();
    t.bigInteger('requests').notNullable();
    t.primary(['project_id', 'dimension', 'day_ms', 'value']);
  });

  // Admitted requests per subscription (owner) and UTC day: what the daily quota counts.
  await knex.schema.createTable('quota_usage', (t) => {
    t.integer('user_id').notNullable();
    t.bigInteger('day_ms').notNullable();
    t.bigInteger('requests').notNullable();
    t.primary(['user_id', 'day_ms']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['quota_usage', 'usage_dimensions', 'usage_rollups', 'gateway_changes']) {
    await knex.schema.dropTableIfExists(table);
  }
}
