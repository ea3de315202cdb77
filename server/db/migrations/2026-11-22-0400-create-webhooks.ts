import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhooks', (t) => {
    t.uuid('id').primary();
    t.integer('workspace_id').notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('description', 500);
    t.integer('network').notNullable(); // the network's Secure Webhooks id
    t.string('type', 16).notNullable();
    t.string('target_url', 2048).notNullable();
    t.integer('confirmations').notNullable();
    t.string('status', 16).notNullable();
    t.text('conditions').notNullable(); // JSON array
    t.string('auth_token', 64).notNullable();
    t.string('disabled_reason', 255);
    // First failed attempt since the last success; five days of nothing but failures disables the webhook.
    t.bigInteger('failing_since');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['workspace_id']);
    t.index(['network', 'status']);
  });

  // The durable outbox: one row per logical event; its id is the event id on every attempt.
  await knex.schema.createTable('webhook_events', (t) => {
    t.uuid('id').primary();
    t.uuid('webhook_id').notNullable().references('id').inTable('webhooks').onDelete('CASCADE');
    t.string('type', 16).notNullable();
    t.integer('network').notNullable();
    t.bigInteger('block_height');
    t.string('block_hash', 64);
    t.text('body').notNullable(); // the exact JSON that is signed and sent
    t.bigInteger('created').notNullable(); // unix seconds, as in the body
    t.string('status', 16).notNullable(); // pending | delivered | failed | cancelled
    t.integer('attempts').notNullable().defaultTo(0);
    t.bigInteger('next_attempt_at').notNullable();
    t.bigInteger('claimed_until');
    t.boolean('test').notNullable().defaultTo(false);
    t.bigInteger('created_at').notNullable();
    t.index(['status', 'next_attempt_at']);
    t.index(['webhook_id', 'created_at']);
  });

  await knex.schema.createTable('webhook_attempts', (t) => {
    t.bigIncrements('id').primary();
    t.uuid('event_id').notNullable().references('id').inTable('webhook_events').onDelete('CASCADE');
    t.bigInteger('attempted_at').notNullable();
    t.integer('status_code');
    t.integer('duration_ms').notNullable();
    t.string('response_excerpt', 500);
    t.string('error', 255);
    t.boolean('success').notNullable();
    t.index(['event_id']);
  });

  // Where the follower is, per network and confirmation depth: the last block it matched at that depth.
  await knex.schema.createTable('chain_cursors', (t) => {
    t.integer('network').notNullable();
    t.integer('confirmations').notNullable();
    t.bigInteger('height').notNullable();
    t.string('hash', 64).notNullable();
    t.integer('epoch');
    t.bigInteger('updated_at').notNullable();
    t.primary(['network', 'confirmations']);
  });

  // Recent blocks each cursor went through, to find the fork point after a rollback.
  await knex.schema.createTable('chain_blocks', (t) => {
    t.integer('network').notNullable();
    t.integer('confirmations').notNullable();
    t.bigInteger('height').notNullable();
    t.string('hash', 64).notNullable();
    t.primary(['network', 'confirmations', 'height']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['chain_blocks', 'chain_cursors', 'webhook_attempts', 'webhook_events', 'webhooks']) {
    await knex.schema.dropTableIfExists(table);
  }
}
