import type { Knex } from 'knex';

// What the event stream (GET /api/events) announces about webhooks, derived from the dispatcher's own tables
// (webhook_attempts, webhook_events, webhooks) by server/features/webhooks/notices.ts. The id orders the stream and is
// its Last-Event-ID.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_notices', (t) => {
    t.bigIncrements('id').primary();
    t.integer('workspace_id').notNullable().references('id').inTable('workspaces').onDelete('CASCADE');
    t.uuid('webhook_id').notNullable().references('id').inTable('webhooks').onDelete('CASCADE');
    t.string('kind', 32).notNullable(); // delivery_failed | warning | disabled
    // What it was derived from (`attempt:<id>`, `warning:<attempt id>`, `disabled:<webhook>:<time>`): each once.
    t.string('source', 128).notNullable().unique();
    t.text('data').notNullable(); // JSON
    t.bigInteger('created_at').notNullable();
    t.index(['workspace_id', 'id']);
    t.index(['created_at']);
  });
  // How far the deriver has read each source table.
  await knex.schema.createTable('webhook_notice_cursors', (t) => {
    t.string('name', 32).primary();
    t.bigInteger('position').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webhook_notice_cursors');
  await knex.schema.dropTableIfExists('webhook_notices');
}
