import type { Knex } from 'knex';

// Sign-in mail counts per e-mail and per client IP, one row per key and fixed window, raised with
// one conditional UPDATE so parallel requests cannot pass the limit.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sign_in_throttle', (t) => {
    t.string('key', 320).notNullable();
    t.bigInteger('window_start').notNullable();
    t.integer('count').notNullable().defaultTo(0);
    t.primary(['key', 'window_start']);
    t.index(['window_start']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('sign_in_throttle');
}
