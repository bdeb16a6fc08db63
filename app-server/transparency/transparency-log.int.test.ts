import { settingsAggregate } from '../../domain/aggregates.ts';
import { SETTINGS_ID } from '../../domain/events.ts';
import { handle } from '../commands/handle.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  edgeOf,
  eventLeafHash,
  fromBase64,
  toBase64,
  TreeBuilder,
  verifyConsistency,
  verifyInclusion,
} from '../../domain/transparency/merkle.ts';
import { newSeed, verifyCheckpoint } from '../../domain/transparency/note.ts';
import { writeEveryEventType } from '../testing/every-event-type.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { readLog } from '../event-store/read.ts';
import {
  extendTree,
  readNodes,
  resetTree,
  storedConsistencyProof,
  storedInclusionProof,
  storedRoot,
  treeSize,
} from './tree.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ PUBLIC_URL: 'https://escrow.example/app/' });
});
afterAll(() => t.close());

const log = () => t.deps.transparency!;

describe('the transparency log on a live store', () => {
  it('names its key in the log once, with the origin from PUBLIC_URL', async () => {
    expect(log().origin).toBe('escrow.example/app/log');
    await log().introduceKey(t.deps.store);
    await log().introduceKey(t.deps.store);
    const events = await readLog(t.database.db, { after: 0, upTo: 1_000, limit: 1_000 });
    const introduced = events.filter((e) => e.type === 'LogKeyIntroduced');
    expect(introduced).toHaveLength(1);
    expect(introduced[0]!.data).toEqual({ origin: 'escrow.example/app/log', vkey: log().vkey });
    expect(log().vkey).toMatch(/^escrow\.example\/app\/log\+[0-9a-f]{8}\+/);
  });

  it('keeps the tree equal to the log after appends, on its own and when several catch up at once', async () => {
    await writeEveryEventType({ db: t.database.db, store: t.deps.store });
    await Promise.all([log().catchUp(), log().catchUp(), log().catchUp()]);
    const events = await readLog(t.database.db, { after: 0, upTo: 10_000, limit: 10_000 });
    expect(await treeSize(t.database.db)).toBe(events.length);
    const builder = new TreeBuilder();
    for (const e of events) builder.push(eventLeafHash(e.hash));
    expect(toBase64(await storedRoot(t.database.db, events.length))).toBe(toBase64(builder.root()));
    // The stored tree is every complete subtree: the right edge alone resumes it.
    const edge = edgeOf(events.length);
    const read = await readNodes(t.database.db, edge);
    expect(
      toBase64(
        TreeBuilder.resume(
          events.length,
          edge.map((n) => read(n.level, n.index)),
        ).root(),
      ),
    ).toBe(toBase64(builder.root()));
  });

  it('builds the same tree in batches of any size, the last one full or not', async () => {
    await log().idle(); // the log the test before wrote
    const events = await readLog(t.database.db, { after: 0, upTo: 10_000, limit: 10_000 });
    const builder = new TreeBuilder();
    for (const e of events) builder.push(eventLeafHash(e.hash));
    for (const batch of [1, 3, events.length, events.length + 1]) {
      await t.database.db.transaction().execute((trx) => resetTree(trx));
      expect(await extendTree(t.database.db, { batch }), `batch ${batch}`).toBe(events.length);
      expect(toBase64(await storedRoot(t.database.db, events.length)), `batch ${batch}`).toBe(toBase64(builder.root()));
    }
  });

  it('proves every event included, and every earlier size consistent, from the stored nodes', async () => {
    const size = await treeSize(t.database.db);
    const events = await readLog(t.database.db, { after: 0, upTo: size, limit: size });
    const root = await storedRoot(t.database.db, size);
    for (const e of events) {
      const proof = await storedInclusionProof(t.database.db, e.position - 1, size);
      expect(verifyInclusion(e.position - 1, size, eventLeafHash(e.hash), proof, root)).toBe(true);
    }
    for (const from of [1, 2, 7, Math.floor(size / 2), size - 1]) {
      const proof = await storedConsistencyProof(t.database.db, from, size);
      expect(verifyConsistency(from, size, await storedRoot(t.database.db, from), root, proof)).toBe(true);
    }
  });

  it('signs nothing while the log names another key, and signs with a rotated-to key', async () => {
    // The fixture's history rotated the log to a made-up key: this app holds another.
    expect(await log().namedKey()).not.toBe(log().vkey);
    expect(await log().signIfGrown()).toBeNull();
    expect(t.logLines.some((l) => l.includes('names another signing key'))).toBe(true);
    const vkey = await log().rotateTo(t.deps.store, { seed: newSeed(), source: 'test' });
    expect(await log().namedKey()).toBe(vkey);
  });

  it('signs a checkpoint when the log grew, and only then, keeping every one', async () => {
    const first = await log().signIfGrown(new Date('2026-01-01T00:00:00Z'));
    expect(first).not.toBeNull();
    const checked = verifyCheckpoint(first!.note, log().vkey);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.checkpoint.size).toBe(await treeSize(t.database.db));
    expect(checked.checkpoint.origin).toBe(log().origin);
    expect(toBase64(checked.checkpoint.root)).toBe(first!.root_hash);
    expect(await log().signIfGrown()).toBeNull();

    await log().introduceKey(t.deps.store); // no event: the log names a key already, this one
    await handle(
      t.deps.store,
      settingsAggregate,
      SETTINGS_ID,
      { type: 'setPricing', rate_cents: 6_000_000 },
      { actor: 'system', requestId: 'test' },
    );
    const grown = await log().catchUp();
    const second = await log().signIfGrown();
    expect(second?.size).toBe(grown);
    const kept = await t.database.db
      .selectFrom('tlog_checkpoints')
      .select(['size', 'root_hash'])
      .orderBy('size')
      .execute();
    expect(kept.map((c) => Number(c.size))).toEqual([first!.size, grown]);
    const proof = await storedConsistencyProof(t.database.db, first!.size, grown);
    expect(
      verifyConsistency(first!.size, grown, fromBase64(first!.root_hash)!, fromBase64(second!.root_hash)!, proof),
    ).toBe(true);
  });
});
