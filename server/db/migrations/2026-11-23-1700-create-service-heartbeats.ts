import type { Knex } from 'knex';

// Each running gateway and webhook worker writes a heartbeat here, so the status page (served by
// the api role, perhaps in another process) can tell whether they are up.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('service_heartbeats', (t) => {
    t.string('instance', 64).primary();
    t.string('role', 16).notNullable();
    t.bigInteger('started_at').notNullable();
    t.bigInteger('beat_at').notNullable();
    t.index(['role', 'beat_at'], 'service_heartbeats_by_role');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('service_heartbeats');
}
