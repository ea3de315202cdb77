import type { Knex } from 'knex';

// devnets.running from each devnet's state (its clock's `paused`), for the devnets made before the column.
export async function up(knex: Knex): Promise<void> {
  const rows = (await knex('devnets').select('id', 'state')) as Array<{ id: number; state: string }>;
  for (const r of rows) {
    let paused = false;
    try {
      paused = (JSON.parse(r.state) as { clock?: { paused?: unknown } }).clock?.paused === true;
    } catch {
      // A state that does not parse cannot be loaded either: it counts as running, so it is not forgotten.
    }
    if (paused) await knex('devnets').where({ id: r.id }).update({ running: false });
  }
}

export async function down(): Promise<void> {
  // The column goes with the previous migration's down.
}
