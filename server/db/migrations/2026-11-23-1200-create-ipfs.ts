import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // Every successful add: which project added which object, and when. Objects never pinned are
  // garbage-collected once their row is older than the grace period (IPFS_GC_GRACE_SECONDS).
  // The row is written only after the whole object is in the store, so an add cut short (a crash,
  // a client gone, a file over 100 MB) leaves no row, only unreferenced blocks the collector removes.
  await knex.schema.createTable('ipfs_objects', (t) => {
    t.bigIncrements('id').primary();
    t.integer('project_id').notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('cid', 128).notNullable();
    t.string('name', 255).notNullable();
    t.bigInteger('size').notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['cid']);
    t.index(['project_id', 'created_at']);
  });

  // One pin per project and CID. state: queued, pinned, unpinned, failed, gc. Storage is counted per
  // subscription owner from these rows (joined through the project's workspace, so a transfer moves
  // it), each CID once per owner.
  await knex.schema.createTable('ipfs_pins', (t) => {
    t.bigIncrements('id').primary();
    t.integer('project_id').notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('cid', 128).notNullable();
    t.bigInteger('size').notNullable();
    t.string('state', 16).notNullable();
    t.boolean('filecoin').notNullable().defaultTo(false);
    t.bigInteger('time_created').notNullable();
    t.bigInteger('time_pinned');
    t.bigInteger('updated_at').notNullable();
    // The Pinning Service API request id when a Filecoin deal was requested from a provider.
    t.string('provider_request_id', 255);
    t.string('failure', 500);
    t.unique(['project_id', 'cid']);
    t.index(['state', 'updated_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('ipfs_pins');
  await knex.schema.dropTableIfExists('ipfs_objects');
}
