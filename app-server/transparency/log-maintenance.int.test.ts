import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase64 } from '../../domain/transparency/merkle.ts';
import { readChainHead } from '../event-store/chain-head.ts';
import { exportEvents } from '../event-store/export.ts';
import { importEvents } from '../event-store/import.ts';
import { replayProjections } from '../replay.ts';
import { writeEveryEventType } from '../testing/every-event-type.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import type { CheckpointRow } from './transparency-log.ts';
import { storedRoot, treeSize } from './tree.ts';

let source: TestApp;
let target: TestDatabase;
let signed: CheckpointRow;
const dir = mkdtempSync(join(tmpdir(), 'tlog-maintenance-'));

beforeAll(async () => {
  source = await openTestApp();
  target = await openTestDatabase();
  await writeEveryEventType({ db: source.database.db, store: source.deps.store });
  await source.deps.transparency!.rotateTo(source.deps.store, { seed: new Uint8Array(32).fill(5), source: 'test' });
  signed = (await source.deps.transparency!.signIfGrown())!;
}, 120_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await source.close();
  await target.dispose();
});

const tlogRows = async (db: TestApp['database']['db']) => ({
  size: await treeSize(db),
  nodes: (
    await db.selectFrom('tlog_nodes').select(['level', 'idx', 'hash']).orderBy('level').orderBy('idx').execute()
  ).map((n) => `${n.level}/${n.idx}/${Buffer.from(n.hash).toString('hex')}`),
  checkpoints: await db.selectFrom('tlog_checkpoints').select(['size', 'root_hash', 'note']).orderBy('size').execute(),
});

describe('the transparency tree through replay, export and import', () => {
  it('replay --swap leaves the tree and every checkpoint as they were', async () => {
    const before = await tlogRows(source.database.db);
    expect(before.checkpoints).toHaveLength(1);
    await replayProjections(source.database, { swap: true });
    expect(await tlogRows(source.database.db)).toEqual(before);
  });

  it("import-events builds the imported log's tree, under which the old store's checkpoint still verifies", async () => {
    const file = join(dir, 'events.ndjson');
    const out = createWriteStream(file);
    await exportEvents(source.database.db, (chunk) => void out.write(chunk));
    await new Promise<void>((resolve) => out.end(resolve));
    await importEvents(target, file);
    const head = await readChainHead(target.db);
    expect(await treeSize(target.db)).toBe(head.position);
    // Same events, same tree: the root the old store signed is the new store's root at that size, and at its head.
    expect(toBase64(await storedRoot(target.db, signed.size))).toBe(signed.root_hash);
    expect(toBase64(await storedRoot(target.db, head.position))).toBe(
      toBase64(await storedRoot(source.database.db, head.position)),
    );
    // Checkpoints are signed by the server that runs the store: none come with the import.
    expect(await target.db.selectFrom('tlog_checkpoints').select('size').execute()).toEqual([]);
  });
});
