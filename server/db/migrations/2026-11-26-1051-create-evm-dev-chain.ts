import type { Knex } from 'knex';

// The embedded EVM development chain's history: its genesis time (seq 0) and every transaction it
// mined, with its block's timestamp, replayed in order at start so the chain keeps its accounts,
// contracts and blocks across restarts. Development only: production never runs the chain.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('evm_dev_chain', (t) => {
    t.bigInteger('seq').primary();
    t.bigInteger('block_number').notNullable();
    /** The block's timestamp, in seconds. */
    t.bigInteger('block_time').notNullable();
    t.string('tx_hash', 66);
    /** The signed transaction as sent (0x hex); null for the genesis row. */
    t.text('raw_tx');
    t.bigInteger('created_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('evm_dev_chain');
}
