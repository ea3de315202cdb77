import type { Knex } from 'knex';

// Who a session belongs to and what it was last seen from, in columns, so Settings can list a user's
// sessions (and end them) without reading every session's JSON. Sessions nobody signed in to keep
// these empty.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.integer('user_id');
    t.string('ip', 64);
    t.string('user_agent', 512);
    t.string('device_name', 100);
    t.boolean('desktop').notNullable().defaultTo(false);
    t.bigInteger('signed_in_at');
    t.bigInteger('last_seen_at');
    t.index(['user_id'], 'sessions_by_user');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.dropIndex(['user_id'], 'sessions_by_user');
  });
  await knex.schema.alterTable('sessions', (t) => {
    t.dropColumn('user_id');
    t.dropColumn('ip');
    t.dropColumn('user_agent');
    t.dropColumn('device_name');
    t.dropColumn('desktop');
    t.dropColumn('signed_in_at');
    t.dropColumn('last_seen_at');
  });
}
