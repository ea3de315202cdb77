import type { Knex } from 'knex';

// Key rotation keeps the previous key working until its grace period ends (a project has at most two
// live keys); the allow-lists (JSON arrays of canonical entries, null for none) restrict which
// browser origins, client addresses and JSON-RPC methods a project's keys accept.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.string('previous_project_id', 64).unique();
    t.bigInteger('previous_key_expires_at');
    t.text('allowed_origins');
    t.text('allowed_ips');
    t.text('allowed_methods');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.dropUnique(['previous_project_id']);
  });
  await knex.schema.alterTable('projects', (t) => {
    t.dropColumn('previous_project_id');
    t.dropColumn('previous_key_expires_at');
    t.dropColumn('allowed_origins');
    t.dropColumn('allowed_ips');
    t.dropColumn('allowed_methods');
  });
}
