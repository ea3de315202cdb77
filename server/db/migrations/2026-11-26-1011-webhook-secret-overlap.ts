import type { Knex } from 'knex';

// Rotating a webhook's signing secret keeps the secret it replaces signing until an overlap the user
// picked runs out, so a receiver can switch secrets without refusing a delivery meanwhile.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhooks', (t) => {
    t.string('previous_auth_token', 64).nullable();
    t.bigInteger('previous_auth_token_expires_at').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhooks', (t) => {
    t.dropColumn('previous_auth_token_expires_at');
    t.dropColumn('previous_auth_token');
  });
}
