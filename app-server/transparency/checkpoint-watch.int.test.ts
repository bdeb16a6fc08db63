import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsAggregate } from '../../domain/aggregates.ts';
import { edgeOf } from '../../domain/transparency/merkle.ts';
import { SETTINGS_ID } from '../../domain/events.ts';
import { ChainWatch } from '../audit/chain-watch.ts';
import { handle } from '../commands/handle.ts';
import { readChainHead } from '../event-store/chain-head.ts';
import { verifyChain } from '../event-store/verify-chain.ts';
import { createLogger } from '../logger.ts';
import { writeEveryEventType } from '../testing/every-event-type.ts';
import { rewriteLogFrom } from '../testing/tamper.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { CheckpointWatch } from './checkpoint-watch.ts';
import type { CheckpointRow } from './transparency-log.ts';

let t: TestApp;
let first: CheckpointRow;
const log = () => t.deps.transparency!;
const quietWatch = () => new ChainWatch(t.database.db, createLogger('silent'));
const grow = () =>
  handle(
    t.deps.store,
    settingsAggregate,
    SETTINGS_ID,
    { type: 'setPricing', rate_cents: 6_000_000 },
    { actor: 'system', requestId: 'test' },
  );

beforeAll(async () => {
  t = await openTestApp();
  await writeEveryEventType({ db: t.database.db, store: t.deps.store });
  // The fixture named a made-up key; this app signs after rotating to its own.
  await log().rotateTo(t.deps.store, { seed: new Uint8Array(32).fill(9), source: 'test' });
  first = (await log().signIfGrown())!;
  await grow();
  expect(await log().signIfGrown()).not.toBeNull();
}, 120_000);
afterAll(() => t.close());

describe("the chain watch against the log's signed checkpoints", () => {
  it('passes the genuine log, and catches a rewrite with every hash and the tree recomputed', async () => {
    const before = quietWatch();
    expect(await before.check()).toMatchObject({ status: 'ok' });
    const events = (await readChainHead(t.database.db)).position;

    // Event 3 (inside the first checkpoint) rewritten, every later hash, the chain head and the tree recomputed.
    await rewriteLogFrom(t.database.db, 3, { tree: true });
    expect(await verifyChain(t.database.db)).toMatchObject({ ok: true }); // the chain alone cannot tell

    // A server that starts now remembers nothing of the log, yet its first full check fails on the first checkpoint.
    const fresh = quietWatch();
    const state = await fresh.check();
    expect(state.status).toBe('broken');
    expect(state.broken).toMatchObject({ position: first.size });
    expect(state.broken!.reason).toMatch(
      new RegExp(
        `^the signed checkpoint of size ${first.size} has root .+ the log's first ${first.size} events make .+ \\(the log was rewritten after it was signed\\)$`,
      ),
    );
    expect(state.verifiedUpTo).toBeLessThan(first.size);
    expect(events).toBeGreaterThan(first.size);
  });

  it('catches checkpoints rewritten too, re-signed with the key, when it had seen the earlier ones', async () => {
    const head = async () => (await readChainHead(t.database.db)).position;
    const watching = new CheckpointWatch(t.database.db);
    // The log as it is now (rewritten above) is re-signed from scratch: the watch first sees it whole.
    await t.database.db.deleteFrom('tlog_checkpoints').execute();
    expect(await log().signIfGrown()).not.toBeNull();
    expect(await watching.full(await head())).toBeNull();

    // Rewritten again, the checkpoints deleted and signed anew: the events, the tree and every root agree.
    await rewriteLogFrom(t.database.db, 5, { tree: true });
    await t.database.db.deleteFrom('tlog_checkpoints').execute();
    await grow();
    expect(await log().signIfGrown()).not.toBeNull();
    expect(await new CheckpointWatch(t.database.db).full(await head())).toBeNull(); // nothing to compare with

    // The watch that saw the earlier checkpoint finds it gone, on a full walk and between them.
    expect((await watching.full(await head()))?.reason).toMatch(/^the checkpoint of size \d+ signed before is gone/);
    expect((await watching.incremental())?.reason).toMatch(/signed before is gone/);
  });

  it('an incremental check catches a stored tree that no longer has a new checkpoint’s root', async () => {
    const watching = quietWatch();
    await watching.check();
    await grow();
    const signed = (await log().signIfGrown())!;
    // A stored node of the tree's right edge changed: the tree served for proofs no longer has the signed root.
    const node = edgeOf(signed.size).at(-1)!;
    await t.database.db
      .updateTable('tlog_nodes')
      .set({ hash: Buffer.alloc(32, 1) })
      .where('level', '=', node.level)
      .where('idx', '=', node.index)
      .execute();
    const state = await watching.check();
    expect(state).toMatchObject({ status: 'broken', broken: { position: signed.size } });
    expect(state.broken!.reason).toContain('the stored Merkle tree');
  });
});
