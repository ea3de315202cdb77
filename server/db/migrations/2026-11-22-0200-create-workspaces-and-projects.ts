import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // One subscription per user (the billing customer); every workspace the user owns runs on it.
  await knex.schema.createTable('subscriptions', (t) => {
    t.integer('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    t.string('plan', 32).notNullable().defaultTo('STARTER');
    t.string('status', 32).notNullable().defaultTo('active');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
  await knex.schema.createTable('user_settings', (t) => {
    t.integer('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    t.boolean('marketing_consent'); // null: not asked yet
    t.bigInteger('updated_at').notNullable();
  });
  await knex.schema.createTable('workspaces', (t) => {
    t.increments('id').primary();
    t.string('name', 100).notNullable();
    // The owner; "creator" in the spec's words (is_creator, creator_email).
    t.integer('owner_id').notNullable().references('id').inTable('users').onDelete('RESTRICT');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['owner_id']);
  });
  await knex.schema.createTable('workspace_members', (t) => {
    t.integer('workspace_id').notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('role', 32).notNullable();
    t.bigInteger('created_at').notNullable();
    t.primary(['workspace_id', 'user_id']);
    t.index(['user_id']);
  });
  await knex.schema.createTable('workspace_invitations', (t) => {
    t.uuid('id').primary();
    t.integer('workspace_id').notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.string('email', 254).notNullable();
    t.string('role', 32).notNullable();
    t.integer('invited_by').references('id').inTable('users').onDelete('SET NULL');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('accepted_at');
    t.integer('accepted_by').references('id').inTable('users').onDelete('SET NULL');
    t.index(['workspace_id']);
  });
  await knex.schema.createTable('projects', (t) => {
    t.increments('id').primary();
    t.uuid('uuid').notNullable().unique();
    t.integer('workspace_id').notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('project_id', 64).notNullable().unique(); // the API key
    t.integer('network_id').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['workspace_id']);
  });
  await knex.schema.createTable('addons', (t) => {
    t.increments('id').primary();
    t.integer('workspace_id').notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('type', 32).notNullable(); // REQUESTS_BOOST_1M | REQUESTS_BOOST_300K
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['workspace_id', 'expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['addons', 'projects', 'workspace_invitations', 'workspace_members', 'workspaces', 'user_settings', 'subscriptions']) {
    await knex.schema.dropTableIfExists(table);
  }
}
