import type { Knex } from 'knex';

// Times are stored as epoch milliseconds (bigint) on both engines so comparisons and arithmetic agree.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.increments('id').primary();
    t.string('email', 254).notNullable().unique();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
  await knex.schema.createTable('oauth_accounts', (t) => {
    t.increments('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('provider', 32).notNullable();
    t.string('provider_user_id', 255).notNullable();
    t.string('email', 254);
    t.bigInteger('created_at').notNullable();
    t.unique(['provider', 'provider_user_id']);
    t.index(['user_id']);
  });
  await knex.schema.createTable('magic_link_tokens', (t) => {
    t.increments('id').primary();
    t.string('token_hash', 64).notNullable().unique();
    t.string('email', 254).notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at');
    t.bigInteger('created_at').notNullable();
    t.index(['expires_at']);
  });
  await knex.schema.createTable('sessions', (t) => {
    t.string('sid', 255).primary();
    t.text('sess').notNullable();
    t.bigInteger('expires_at').notNullable().index();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('sessions');
  await knex.schema.dropTableIfExists('magic_link_tokens');
  await knex.schema.dropTableIfExists('oauth_accounts');
  await knex.schema.dropTableIfExists('users');
}
