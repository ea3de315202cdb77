import type { Knex } from 'knex';

// A devnet: a cardano-devnet project's own development chain. `state` is the chain's DevnetState as
// JSON (genesis, seed, clock, forks: all that rebuilds it); `version` goes up with every change, so a
// gateway holding the chain in memory sees that another one steered it and reads it again. Its
// accepted transactions live in sandbox_ledger under the devnet's own key. Snapshots are named per
// devnet: the state and the ledger entries as they were.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('devnets', (t) => {
    t.increments('id').primary();
    t.integer('project_id').notNullable().unique().references('id').inTable('projects').onDelete('CASCADE');
    t.text('state').notNullable();
    t.integer('version').notNullable().defaultTo(1);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
  await knex.schema.createTable('devnet_snapshots', (t) => {
    t.increments('id').primary();
    t.integer('devnet_id').notNullable().references('id').inTable('devnets').onDelete('CASCADE');
    t.string('name', 64).notNullable();
    t.text('snapshot').notNullable();
    /** The tip height the snapshot brings the chain back to (the list shows it without reading the JSON). */
    t.bigInteger('height').notNullable();
    t.bigInteger('created_at').notNullable();
    t.unique(['devnet_id', 'name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('devnet_snapshots');
  await knex.schema.dropTableIfExists('devnets');
}
