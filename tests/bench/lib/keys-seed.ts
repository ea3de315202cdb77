// Seeds a migrated SQLite database with many mainnet projects of one ENTERPRISE owner, in one SQL
// statement (the keys and uuids drawn by SQLite), so a million keys take seconds rather than the
// minutes a million inserts from JavaScript would.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb, migrateLatest } from '../../../server/db/index';
import { makeUser } from '../../helpers/workspace-fixture';

/** A data folder holding cairn.sqlite with `count` projects; the caller removes the folder. */
export async function seedKeys(count: number): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-keys-'));
  const db = createDb({ sqliteFile: path.join(dataDir, 'cairn.sqlite') });
  try {
    await migrateLatest(db);
    const owner = await makeUser(db, 'bench-owner@example.com', 'ENTERPRISE');
    const ws = (await db('workspaces').where({ owner_id: owner.id }).first('id')) as { id: number };
    const now = Date.now();
    // Project keys: 'mainnet' and 32 hex digits (the key shape is 32 letters or digits); version-4 uuids.
    await db.raw(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO projects (uuid, workspace_id, name, project_id, network_id, created_at, updated_at)
       SELECT lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-a' || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))),
              ?, 'Bench project ' || i, 'mainnet' || lower(hex(randomblob(16))), 0, ?, ? FROM n`,
      [count, ws.id, now, now],
    );
  } finally {
    await db.destroy();
  }
  return dataDir;
}
