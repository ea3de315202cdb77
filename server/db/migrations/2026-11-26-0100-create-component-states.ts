import type { Knex } from 'knex';

// A background part (the payment watcher) writes whether it can do its work, and since when, so the
// status page (served by the api role, perhaps in another process) can show it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('component_states', (t) => {
    t.string('name', 64).primary();
    t.string('state', 16).notNullable();
    t.bigInteger('since').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('component_states');
}
