import type { Knex } from 'knex';

/** Bins per histogram row (shared/insight.ts LATENCY_BINS_PER_ROW, fixed here as this migration ran). */
const BINS_PER_ROW = 16;

export async function up(knex: Knex): Promise<void> {
  // Latency histograms per project, per hour ('h', written by the metering flush) and per UTC day
  // ('d', the hours of a day gone by, moved there by the retention pass). One row holds 16 consecutive log-scale bins from `first_bin` (b0 … b15, each
  // 2^(1/8) wide: two doublings of latency), so a project adds a few rows per flush, never a row per request.
  await knex.schema.createTable('usage_latency', (t) => {
    t.integer('project_id').notNullable();
    t.string('granularity', 1).notNullable();
    t.bigInteger('bucket_ms').notNullable();
    t.smallint('first_bin').notNullable();
    for (let i = 0; i < BINS_PER_ROW; i++) t.bigInteger(`b${i}`).notNullable().defaultTo(0);
    t.primary(['project_id', 'granularity', 'bucket_ms', 'first_bin']);
  });

  // 4xx and 5xx answers per project and hour (today's chart; the 30 days read the status dimension).
  await knex.schema.createTable('usage_error_hours', (t) => {
    t.integer('project_id').notNullable();
    t.bigInteger('hour_ms').notNullable();
    t.smallint('status_class').notNullable();
    t.bigInteger('requests').notNullable();
    t.primary(['project_id', 'hour_ms', 'status_class']);
  });

  // The most recent failed requests of each project: at most 100 per project, trimmed at every
  // metering flush that adds some (server/gateway/metering.ts), older than 30 days pruned.
  await knex.schema.createTable('failed_requests', (t) => {
    t.bigIncrements('id').primary();
    t.integer('project_id').notNullable();
    t.bigInteger('at_ms').notNullable();
    t.string('endpoint', 255).notNullable();
    t.integer('status').notNullable();
    t.string('ip', 64).notNullable();
    t.index(['project_id', 'at_ms', 'id'], 'failed_requests_recent');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('failed_requests');
  await knex.schema.dropTableIfExists('usage_error_hours');
  await knex.schema.dropTableIfExists('usage_latency');
}
