import type { Knex } from 'knex';

// A devnet keeps its accepted transactions in sandbox_ledger under `devnet:<id>`, longer than a
// network's name: the key widens to 80 characters. SQLite does not enforce a varchar's length.
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  await knex.raw('ALTER TABLE sandbox_ledger ALTER COLUMN network TYPE varchar(80)');
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg') return;
  await knex.raw("DELETE FROM sandbox_ledger WHERE network LIKE 'devnet:%'");
  await knex.raw('ALTER TABLE sandbox_ledger ALTER COLUMN network TYPE varchar(16)');
}
