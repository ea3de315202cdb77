import type { Knex } from 'knex';

// The life of a transaction submitted through the gateway: one row per project and transaction with
// its state now (pending, in_block, confirmed, rolled_back, expired, invalid), and one row per change
// of state with its time. The chain follower advances them block by block, finding a block's
// transactions by (network, tx_hash). Settled rows (confirmed, expired, invalid) are pruned after the
// retention in server/features/txs/store.ts, their changes with them.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tracked_txs', (t) => {
    t.increments('id').primary();
    t.integer('project_id').notNullable().references('id').inTable('projects').onDelete('CASCADE');
    /** The network's Secure Webhooks id (what the chain follower follows). */
    t.integer('network').notNullable();
    t.string('tx_hash', 64).notNullable();
    t.string('state', 16).notNullable();
    t.bigInteger('block_height');
    t.string('block_hash', 64);
    /** The transaction's validity end (invalid_hereafter): it expires once a block at or past this slot leaves it out. */
    t.bigInteger('ttl_slot');
    /** Confirmations that make it confirmed, taken from the project when it was submitted. */
    t.integer('confirmations_needed').notNullable();
    /** Why the ledger refused it (state invalid). */
    t.text('reason');
    t.bigInteger('submitted_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    /** When it reached a state it does not leave (confirmed, expired, invalid): what pruning reads. */
    t.bigInteger('settled_at');
    t.unique(['project_id', 'tx_hash']);
    t.index(['network', 'tx_hash']);
    t.index(['network', 'state']);
    t.index(['project_id', 'submitted_at']);
    t.index(['settled_at']);
  });
  await knex.schema.createTable('tracked_tx_changes', (t) => {
    t.bigIncrements('id').primary();
    t.integer('tracked_id').notNullable().references('id').inTable('tracked_txs').onDelete('CASCADE');
    t.string('state', 16).notNullable();
    t.bigInteger('block_height');
    t.string('block_hash', 64);
    t.bigInteger('at').notNullable();
    t.index(['tracked_id', 'id']);
  });
  // The depth a project's submitted transactions need to be confirmed; null: the default (10).
  await knex.schema.alterTable('projects', (t) => {
    t.integer('tx_confirmations');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.dropColumn('tx_confirmations');
  });
  await knex.schema.dropTableIfExists('tracked_tx_changes');
  await knex.schema.dropTableIfExists('tracked_txs');
}
