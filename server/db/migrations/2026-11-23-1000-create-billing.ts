import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // What the billing provider knows about a user's subscription, beside the plan and status the
  // gateway reads. provider_subscription_id is Stripe's sub_… (or the local provider's id).
  await knex.schema.alterTable('subscriptions', (t) => {
    t.string('provider', 16);
    t.string('provider_subscription_id', 255);
    t.string('period', 8); // month | year
    t.string('price_id', 255);
    t.bigInteger('current_period_end');
    t.boolean('cancel_at_period_end').notNullable().defaultTo(false);
    t.boolean('delinquent').notNullable().defaultTo(false);
    t.bigInteger('incomplete_since'); // when the first payment failed (incomplete → incomplete_expired after 23 h)
  });

  // The billing customer of a user (Stripe's cus_…), with the country and tax id collected at checkout.
  await knex.schema.createTable('billing_customers', (t) => {
    t.integer('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    t.string('provider', 16).notNullable();
    t.string('customer_id', 255).notNullable();
    t.string('country', 2);
    t.string('tax_id_type', 16);
    t.string('tax_id', 64);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.unique(['provider', 'customer_id']);
  });

  // Price ids per lookup key (cairn_hobby_month …), found or created in the Stripe account on first start.
  await knex.schema.createTable('billing_prices', (t) => {
    t.string('provider', 16).notNullable();
    t.string('lookup_key', 64).notNullable();
    t.string('price_id', 255).notNullable();
    t.bigInteger('created_at').notNullable();
    t.primary(['provider', 'lookup_key']);
  });

  // Checkout sessions: the local provider's own checkout page, and Stripe's sessions with the
  // callbacks Cairn returns to. Completing one twice changes nothing (status moves once).
  await knex.schema.createTable('checkout_sessions', (t) => {
    t.string('id', 255).primary();
    t.string('provider', 16).notNullable();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('mode', 16).notNullable(); // subscription | payment
    t.string('price_id', 255).notNullable();
    t.string('plan', 32);
    t.string('period', 8);
    t.string('boost', 32);
    t.integer('workspace_id').references('id').inTable('workspaces').onDelete('CASCADE');
    t.bigInteger('amount').notNullable(); // euro cents
    t.string('status', 16).notNullable(); // open | paid | failed | canceled
    t.string('success_path', 2048).notNullable();
    t.string('cancel_path', 2048).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('completed_at');
    t.index(['user_id', 'created_at']);
  });

  // Provider events already applied: a replayed webhook finds its id here and changes nothing.
  await knex.schema.createTable('billing_events', (t) => {
    t.string('provider', 16).notNullable();
    t.string('event_id', 255).notNullable();
    t.string('type', 64).notNullable();
    t.bigInteger('received_at').notNullable();
    t.primary(['provider', 'event_id']);
  });

  // Every subscription event a user can read back and download (checkout, upgrade, renewal, boost …).
  await knex.schema.createTable('subscription_logs', (t) => {
    t.bigIncrements('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('workspace_id').references('id').inTable('workspaces').onDelete('SET NULL');
    t.string('type', 32).notNullable();
    t.string('plan', 32).notNullable();
    t.string('period', 8);
    t.string('status', 32).notNullable();
    t.bigInteger('amount'); // euro cents
    t.string('currency', 3).notNullable().defaultTo('eur');
    t.string('boost', 32);
    t.string('provider', 16).notNullable();
    t.string('reference', 255);
    // Stops the same fact from being logged twice (a webhook and a reconciliation reporting one invoice).
    t.string('dedupe_key', 255).unique();
    t.bigInteger('created_at').notNullable();
    t.index(['user_id', 'created_at']);
  });

  // A boost bought through checkout carries its session or payment id, so it is granted once.
  await knex.schema.alterTable('addons', (t) => {
    t.string('reference', 255).unique();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('addons', (t) => {
    t.dropUnique(['reference']);
    t.dropColumn('reference');
  });
  for (const table of ['subscription_logs', 'billing_events', 'checkout_sessions', 'billing_prices', 'billing_customers']) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.schema.alterTable('subscriptions', (t) => {
    for (const c of ['provider', 'provider_subscription_id', 'period', 'price_id', 'current_period_end', 'cancel_at_period_end', 'delinquent', 'incomplete_since']) t.dropColumn(c);
  });
}
