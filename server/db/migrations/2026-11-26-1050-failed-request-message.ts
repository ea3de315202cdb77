import type { Knex } from 'knex';

// Request insight's failed requests keep what the answer said (Blockfrost's error message, cut to 200
// characters), so the list shows why each request failed and not only its status.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('failed_requests', (t) => {
    t.string('message', 200);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('failed_requests', (t) => {
    t.dropColumn('message');
  });
}
