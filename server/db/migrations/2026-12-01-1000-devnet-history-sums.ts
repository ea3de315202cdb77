import type { Knex } from 'knex';

// A devnet's history's whole epochs' sums (derived: each epoch's background transactions' count,
// output and fees), kept so a devnet loaded again (a restart, a reload after idling) reads them
// rather than summing its history again. `identity` names the history they were summed from (its
// genesis, seed and forks, and what the simulation makes of a probe segment): a devnet whose history
// changed since (a rollback's fork) reads none and saves its own over them. Goes with its devnet.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('devnet_history_sums', (t) => {
    t.integer('devnet_id').primary().references('id').inTable('devnets').onDelete('CASCADE');
    t.string('identity', 64).notNullable();
    t.binary('sums').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('devnet_history_sums');
}
