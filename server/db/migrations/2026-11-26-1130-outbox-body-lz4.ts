import type { Knex } from 'knex';

// PostgreSQL only, where the server was built with lz4 (PostgreSQL 14 and later usually are). An event
// body carries its transaction with inputs and outputs, often 10–50 KB, so a block's events are
// megabytes that the follower writes and the dispatcher reads back; PostgreSQL compresses such values
// with pglz by default. lz4 compresses them several times faster, and about as small: writing the
// events of a block of 300 transactions (about 340 bodies, 6 MB) took 87 ms rather than 213 ms
// (median of 32 alternating writes, on a loaded 2-core VM), in 73 MB rather than 82 MB. Applies to
// bodies written from now on; existing ones stay as they are and read as before.
const lz4Available = async (knex: Knex): Promise<boolean> => {
  const { rows } = await knex.raw(`SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)`);
  return rows.length > 0;
};

export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg' || !(await lz4Available(knex))) return;
  await knex.raw('ALTER TABLE webhook_events ALTER COLUMN body SET COMPRESSION lz4');
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'pg' || !(await lz4Available(knex))) return;
  await knex.raw('ALTER TABLE webhook_events ALTER COLUMN body SET COMPRESSION default');
}
