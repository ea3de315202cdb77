import type { Knex } from 'knex';

/** Indexes for lists read a page at a time: [table, columns in sort order, index name]. */
export type PageIndex = readonly [table: string, columns: readonly string[], name: string];

/** A migration that adds `indexes` (and drops them going down). */
export function pageIndexes(indexes: readonly PageIndex[]): { up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void> } {
  return {
    async up(knex) {
      for (const [table, columns, name] of indexes) {
        await knex.schema.alterTable(table, (t) => {
          t.index([...columns], name);
        });
      }
    },
    async down(knex) {
      for (const [table, columns, name] of indexes) {
        await knex.schema.alterTable(table, (t) => {
          t.dropIndex([...columns], name);
        });
      }
    },
  };
}
