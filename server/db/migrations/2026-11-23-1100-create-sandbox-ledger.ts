import type { Knex } from 'knex';

// The sandbox chain's accepted transactions (faucet payments and /tx/submit), in acceptance order
// per network. Replayed on start, and read by every process, so all parts see one chain.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sandbox_ledger', (t) => {
    t.string('network', 16).notNullable();
    t.integer('seq').notNullable();
    t.bigInteger('height').notNullable();
    t.string('hash', 64).notNullable();
    t.text('cbor').notNullable(); // the signed transaction as submitted, hex
    t.string('origin', 16).notNullable(); // faucet | submit
    t.bigInteger('created_at').notNullable();
    t.primary(['network', 'seq']);
    t.unique(['network', 'hash']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('sandbox_ledger');
}
