import type { Knex } from 'knex';

// A steering call on SQLite (where PostgreSQL's advisory lock does not exist) first takes the devnet's
// lease: `steering_by` (the call's token) until `steering_until` (UNIX ms). Another process's call
// waits for it, or is refused before it writes anything; a lease left by a process that died expires.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('devnets', (t) => {
    t.string('steering_by', 36);
    t.bigInteger('steering_until');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('devnets', (t) => {
    t.dropColumn('steering_by');
    t.dropColumn('steering_until');
  });
}
