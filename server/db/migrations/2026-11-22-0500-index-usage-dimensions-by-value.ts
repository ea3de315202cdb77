import type { Knex } from 'knex';

// The TOP 10 cards group a project's dimension rows by value over 30 days; with this covering index
// SQLite groups in index order instead of sorting tens of thousands of rows per request.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_dimensions', (t) => {
    t.index(['project_id', 'dimension', 'value', 'day_ms', 'requests'], 'usage_dimensions_by_value');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('usage_dimensions', (t) => {
    t.dropIndex(['project_id', 'dimension', 'value', 'day_ms', 'requests'], 'usage_dimensions_by_value');
  });
}
