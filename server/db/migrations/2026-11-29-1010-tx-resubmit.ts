import type { Knex } from 'knex';

// Resubmission on rollback: a project may have its rolled-back transactions sent to the mempool again
// (projects.tx_resubmit), which needs the transaction itself (tracked_txs.cbor, at most the 32 KiB
// /tx/submit takes, gone with its row); the status history marks the change a resubmission made.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.boolean('tx_resubmit').notNullable().defaultTo(false);
  });
  await knex.schema.alterTable('tracked_txs', (t) => {
    t.binary('cbor');
  });
  await knex.schema.alterTable('tracked_tx_changes', (t) => {
    t.boolean('resubmitted').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tracked_tx_changes', (t) => t.dropColumn('resubmitted'));
  await knex.schema.alterTable('tracked_txs', (t) => t.dropColumn('cbor'));
  await knex.schema.alterTable('projects', (t) => t.dropColumn('tx_resubmit'));
}
