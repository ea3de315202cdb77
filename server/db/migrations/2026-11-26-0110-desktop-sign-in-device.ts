import type { Knex } from 'knex';

// What the consent page shows before a desktop sign-in gets its code: the device name the app sent with
// its start request and the user agent of the browser that started it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('desktop_sign_ins', (t) => {
    t.string('device_name', 100);
    t.string('user_agent', 512);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('desktop_sign_ins', (t) => {
    t.dropColumn('device_name');
    t.dropColumn('user_agent');
  });
}
