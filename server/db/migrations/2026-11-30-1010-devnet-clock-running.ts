import type { Knex } from 'knex';

// Whether a devnet's clock runs (its state's clock is not paused), beside the state: the webhook
// worker keeps following a devnet whose clock runs, used or not, and reads this column to know which
// without reading every state. Filled from the states by the next migration.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('devnets', (t) => {
    t.boolean('running').notNullable().defaultTo(true);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('devnets', (t) => {
    t.dropColumn('running');
  });
}
