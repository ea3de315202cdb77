import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // Blockfrost-compatible backends submitted by the people who run them, to serve Cairn's traffic
  // once an operator enables them; paid by the requests they served.
  await knex.schema.createTable('community_endpoints', (t) => {
    t.increments('id').primary();
    t.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('url', 2048).notNullable();
    t.string('payment_address', 1000).notNullable();
    t.string('network', 32).notNullable(); // the gateway slug detected by the check, e.g. cardano-preprod
    t.string('status', 16).notNullable(); // pending | enabled | disabled | rejected
    t.string('backend_version', 100);
    // Order of use among the enabled upstreams of one network (lowest first).
    t.integer('position').notNullable().defaultTo(0);
    t.bigInteger('checked_at').notNullable();
    t.bigInteger('reviewed_at');
    t.integer('reviewed_by').references('id').inTable('users').onDelete('SET NULL');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.unique(['url']);
    t.index(['status', 'network']);
    t.index(['user_id']);
  });
  // Requests each endpoint served, per UTC day.
  await knex.schema.createTable('community_endpoint_usage', (t) => {
    t.integer('endpoint_id').notNullable().references('id').inTable('community_endpoints').onDelete('CASCADE');
    t.bigInteger('day_ms').notNullable();
    t.bigInteger('requests').notNullable();
    t.primary(['endpoint_id', 'day_ms']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('community_endpoint_usage');
  await knex.schema.dropTableIfExists('community_endpoints');
}
