import type { Knex } from 'knex';

// A Cardano devnet webhook follows the devnet of one project of its workspace (project_id); the
// shared networks' webhooks name none. A deleted project takes its devnet webhooks with it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhooks', (t) => {
    t.integer('project_id').references('id').inTable('projects').onDelete('CASCADE');
    t.index(['project_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhooks', (t) => {
    t.dropIndex(['project_id']);
    t.dropForeign(['project_id']);
    t.dropColumn('project_id');
  });
}
