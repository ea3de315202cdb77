import type { Knex } from 'knex';

// A queued pin is claimed by the queue pass that works on it until `claimed_until` (UNIX ms): two
// passes (two gateways, or a pass and an operator's run) never both ask the Filecoin pinning service
// for the same pin. A claim left by a process that died expires.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ipfs_pins', (t) => {
    t.bigInteger('claimed_until');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ipfs_pins', (t) => {
    t.dropColumn('claimed_until');
  });
}
