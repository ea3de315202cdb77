import type { Knex } from 'knex';

// Settings lists a user's sessions a page at a time, the most recently seen first, ties in the
// order of their ids (server/features/accounts/account-sessions.ts): with (user_id, last_seen_at,
// sid) each page is one index range, however many sessions the user has signed in.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.index(['user_id', 'last_seen_at', 'sid'], 'sessions_by_user_last_seen');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.dropIndex(['user_id', 'last_seen_at', 'sid'], 'sessions_by_user_last_seen');
  });
}
