import type { Knex } from 'knex';

// The workspace audit log, append-only (only the retention pass deletes). No foreign key to
// workspaces: an entry outlives what it names, and nothing updates it. The page reads one workspace's
// newest entries, optionally of one action or one actor, in a date range: each of those reads walks
// one index backwards from the range's end.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_entries', (t) => {
    t.bigIncrements('id').primary();
    t.integer('workspace_id').notNullable();
    t.bigInteger('at').notNullable();
    /** 'user:<id>', 'operator' or 'system': the actor filter. */
    t.string('actor', 32).notNullable();
    t.integer('actor_user_id').nullable();
    /** The actor's e-mail address when it acted (the operator's too), or 'Cairn'. */
    t.string('actor_label', 320).notNullable();
    t.string('action', 64).notNullable();
    t.string('target_type', 32).notNullable();
    t.string('target_id', 64).notNullable();
    t.string('target_label', 320).notNullable();
    t.string('ip', 64).nullable();
    t.string('user_agent', 512).nullable();
    t.text('details').nullable();
    t.index(['workspace_id', 'at', 'id'], 'audit_entries_workspace_at');
    t.index(['workspace_id', 'action', 'at', 'id'], 'audit_entries_workspace_action_at');
    t.index(['workspace_id', 'actor', 'at', 'id'], 'audit_entries_workspace_actor_at');
    t.index(['at'], 'audit_entries_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_entries');
}
