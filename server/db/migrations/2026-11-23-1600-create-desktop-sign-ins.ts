import type { Knex } from 'knex';

// One row per desktop-app sign-in through the system browser (PKCE, RFC 7636 + RFC 8252).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('desktop_sign_ins', (t) => {
    t.bigIncrements('id').primary();
    // sha256 of the random id kept in the browser's cookie between start and finish.
    t.string('request_hash', 64).notNullable().unique();
    t.string('code_challenge', 128).notNullable();
    t.string('state', 256).notNullable();
    t.string('redirect_uri', 256).notNullable();
    t.bigInteger('expires_at').notNullable();
    // Set once the browser is signed in and the code is issued; the code itself is stored hashed.
    t.integer('user_id').references('id').inTable('users').onDelete('CASCADE');
    t.string('code_hash', 64).unique();
    t.bigInteger('code_expires_at');
    t.bigInteger('used_at');
    t.bigInteger('created_at').notNullable();
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('desktop_sign_ins');
}
