import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // Pay-as-you-go orders: requests bought with ADA, each paid to its own derived address (the
  // order's id is its CIP-1852 address index), with the amount and rate locked until expires_at.
  await knex.schema.createTable('ppu_orders', (t) => {
    t.bigIncrements('id').primary();
    t.integer('workspace_id').notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.integer('user_id').references('id').inTable('users').onDelete('SET NULL');
    t.string('network', 32).notNullable();
    t.string('address', 255).unique();
    t.bigInteger('requests').notNullable();
    t.double('price_per_unit_eur').notNullable();
    t.double('ada_eur_rate').notNullable();
    t.double('total_eur').notNullable();
    t.bigInteger('lovelace').notNullable();
    t.string('status', 16).notNullable(); // awaiting_payment | confirming | paid | underpaid | expired
    t.bigInteger('received_lovelace').notNullable().defaultTo(0);
    t.bigInteger('credited_requests').notNullable().defaultTo(0);
    t.integer('first_payment_height');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('paid_at');
    t.index(['workspace_id', 'created_at']);
    t.index(['status']);
  });

  // Every output paid to an order's address, once (tx hash + output index).
  await knex.schema.createTable('ppu_payments', (t) => {
    t.string('tx_hash', 64).notNullable();
    t.integer('output_index').notNullable();
    t.bigInteger('order_id').notNullable().references('id').inTable('ppu_orders').onDelete('CASCADE');
    t.bigInteger('lovelace').notNullable();
    t.integer('height').notNullable();
    t.string('block_hash', 64).notNullable();
    t.bigInteger('seen_at').notNullable();
    t.primary(['tx_hash', 'output_index']);
    t.index(['order_id']);
  });

  // The request balance of a pay-as-you-go workspace: credited by paid orders, spent by the gateway
  // (flushed from its counters), never expiring. requests = credited − spent.
  await knex.schema.createTable('ppu_balances', (t) => {
    t.integer('workspace_id').primary().references('id').inTable('workspaces').onDelete('CASCADE');
    t.bigInteger('credited').notNullable().defaultTo(0);
    t.bigInteger('spent').notNullable().defaultTo(0);
    t.bigInteger('updated_at').notNullable();
  });

  // How far the payment watcher has read each network's chain.
  await knex.schema.createTable('ppu_watch_cursors', (t) => {
    t.string('network', 32).primary();
    t.integer('height').notNullable();
    t.string('hash', 64).notNullable();
    t.bigInteger('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['ppu_watch_cursors', 'ppu_balances', 'ppu_payments', 'ppu_orders']) await knex.schema.dropTableIfExists(table);
}
