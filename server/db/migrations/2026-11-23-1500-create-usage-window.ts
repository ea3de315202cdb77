import type { Knex } from 'knex';

const DAY_MS = 86_400_000;
/** The statistics page's period (shared/usage.ts HISTORY_DAYS), fixed here as this migration ran. */
const WINDOW_DAYS = 30;

export async function up(knex: Knex): Promise<void> {
  // Each project's counts per dimension and value over its 30-day window, kept up to date by the
  // metering flush (it adds what it writes to usage_dimensions) and moved forward a day at a time by
  // subtracting the day that falls out: the TOP 10 cards read ten index entries, whatever the
  // traffic behind them.
  await knex.schema.createTable('usage_window', (t) => {
    t.integer('project_id').notNullable();
    t.string('dimension', 16).notNullable();
    t.string('value', 255).notNullable();
    t.bigInteger('requests').notNullable();
    t.primary(['project_id', 'dimension', 'value']);
  });
  // Mixed directions (requests descending, value ascending) are the TOP 10's order, read straight off the index.
  await knex.raw('create index usage_window_top on usage_window (project_id, dimension, requests desc, value)');

  // The first UTC day a project's window holds; a project without a row holds every day written so far.
  await knex.schema.createTable('usage_window_starts', (t) => {
    t.integer('project_id').primary();
    t.bigInteger('day_ms').notNullable();
  });

  // The TOP 10s read usage_window instead of grouping a month of day rows, so the index built for that
  // grouping (migration 0500) would only cost the flush a write per row; moving a window reads days
  // by the primary key.
  await knex.schema.alterTable('usage_dimensions', (t) => {
    t.dropIndex(['project_id', 'dimension', 'value', 'day_ms', 'requests'], 'usage_dimensions_by_value');
  });

  const now = Date.now();
  const from = now - (now % DAY_MS) - (WINDOW_DAYS - 1) * DAY_MS;
  await knex.raw(
    `insert into usage_window (project_id, dimension, value, requests)
     select project_id, dimension, value, sum(requests) from usage_dimensions
     where day_ms >= ? and dimension in ('country', 'ip', 'endpoint', 'browser')
     group by project_id, dimension, value`,
    [from],
  );
  // An integer computed here, written into the statement (a bound parameter has no type in a select list on PostgreSQL).
  await knex.raw(`insert into usage_window_starts (project_id, day_ms) select distinct project_id, ${Math.trunc(from)} from usage_dimensions`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_dimensions', (t) => {
    t.index(['project_id', 'dimension', 'value', 'day_ms', 'requests'], 'usage_dimensions_by_value');
  });
  await knex.schema.dropTableIfExists('usage_window_starts');
  await knex.schema.dropTableIfExists('usage_window');
}
