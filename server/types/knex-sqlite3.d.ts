// knex's SQLite dialect and its transaction class, which knex does not export by name: Cairn's
// SQLite client extends them so that every transaction begins IMMEDIATE (server/db/sqlite-client.ts).
declare module 'knex/lib/dialects/sqlite3/index.js' {
  import type { Knex } from 'knex';

  class Client_SQLite3 extends Knex.Client {}
  export default Client_SQLite3;
}

declare module 'knex/lib/dialects/sqlite3/execution/sqlite-transaction.js' {
  import type { Knex } from 'knex';

  class Transaction_Sqlite {
    constructor(client: Knex.Client, container: unknown, config: unknown, outerTx: unknown);
    begin(conn: unknown): Promise<unknown>;
    query(conn: unknown, sql: string): Promise<unknown>;
  }
  export default Transaction_Sqlite;
}
