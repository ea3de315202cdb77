import type { Knex } from 'knex';

// The tracker looks for unlanded transactions past their validity on every block: on (network, state)
// alone that read walks every pending transaction; with ttl_slot it reads only the expired ones.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tracked_txs', (t) => {
    t.index(['network', 'state', 'ttl_slot'], 'tracked_txs_network_state_ttl_slot_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tracked_txs', (t) => {
    t.dropIndex(['network', 'state', 'ttl_slot'], 'tracked_txs_network_state_ttl_slot_index');
  });
}
