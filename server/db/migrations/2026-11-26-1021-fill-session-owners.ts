import type { Knex } from 'knex';

// Signed-in sessions from before sessions had a user_id column: their user is in the session's JSON
// (passport.user). Without it they would not be listed in Settings, nor ended by 'Sign out everywhere
// else' or by deleting the account. Their sign-in time is unknown; what they were seen from is
// written on their next request.
export async function up(knex: Knex): Promise<void> {
  const rows = (await knex('sessions').whereNull('user_id').andWhere('sess', 'like', '%"passport"%').select('sid', 'sess')) as Array<{ sid: string; sess: string }>;
  for (const row of rows) {
    let user: unknown;
    try {
      user = (JSON.parse(row.sess) as { passport?: { user?: unknown } }).passport?.user;
    } catch {
      continue;
    }
    if (typeof user === 'number' && Number.isSafeInteger(user)) await knex('sessions').where({ sid: row.sid }).update({ user_id: user });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex('sessions').update({ user_id: null });
}
