import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainHash, envelopeOf, GENESIS_HASH } from '../../domain/chain.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import { projections } from '../../projections/registry.ts';
import { createEventStore } from '../event-store/append.ts';
import { exportEvents } from '../event-store/export.ts';
import { importEvents, ImportRefused } from '../event-store/import.ts';
import { freshAddress } from '../testing/bitcoin.ts';
import { writeEveryEventType } from '../testing/every-event-type.ts';
import { allowEventTampering } from '../testing/tamper.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { sql } from 'kysely';
import { verifyChain } from '../event-store/verify-chain.ts';
import { ExportBroken, verifyExport } from './verify-export.ts';
import { storyThreadOf } from './shared-story.ts';

/**
 * Crafted exports whose every hash is recomputed but whose story is impossible: verify-export and import-events both
 * refuse them, naming the line and the reason (domain/story.ts).
 */
let source: TestDatabase;
let target: TestDatabase;
let header: Record<string, unknown>;
let events: StoredEvent[];
const dir = mkdtempSync(join(tmpdir(), 'story-'));

beforeAll(async () => {
  source = await openTestDatabase();
  await writeEveryEventType({ db: source.db, store: createEventStore(source.db, projections) });
  let text = '';
  await exportEvents(source.db, (chunk) => void (text += chunk));
  const [first, ...rest] = text.trimEnd().split('\n');
  header = JSON.parse(first!) as Record<string, unknown>;
  events = rest.map((l) => JSON.parse(l) as StoredEvent);
  target = await openTestDatabase();
}, 120_000);
afterAll(async () => {
  await source.dispose();
  await target.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes the events with every hash recomputed (and the header's chain head), as a forger would. */
function forged(name: string, crafted: StoredEvent[]): string {
  let prev = GENESIS_HASH;
  const lines = crafted.map((e) => {
    const event = { ...e, prev_hash: prev };
    event.hash = chainHash(prev, envelopeOf(event));
    prev = event.hash;
    return JSON.stringify(event);
  });
  const last = crafted.at(-1)!;
  const path = join(dir, name);
  writeFileSync(
    path,
    `${[JSON.stringify({ ...header, chain_head: { position: last.position, hash: prev } }), ...lines].join('\n')}\n`,
  );
  return path;
}

/** A copy of the events with the first of a type changed; answers it and its line in the file. */
function craft(type: string, change: (e: StoredEvent) => StoredEvent, where: (e: StoredEvent) => boolean = () => true) {
  const index = events.findIndex((e) => e.type === type && where(e));
  expect(index, `an event ${type} in the fixture`).toBeGreaterThanOrEqual(0);
  const copy = events.map((e) => structuredClone(e));
  copy[index] = change(copy[index]!);
  return { crafted: copy, line: index + 2 };
}

async function refusedByBoth(path: string, line: number, reason: string) {
  const broken = (await verifyExport(path).catch((e: unknown) => e)) as ExportBroken;
  expect(broken).toBeInstanceOf(ExportBroken);
  expect(broken.line).toBe(line);
  expect(broken.message).toContain(reason);
  const refused = (await importEvents(target, path).catch((e: unknown) => e)) as ImportRefused;
  expect(refused).toBeInstanceOf(ImportRefused);
  expect(refused.message).toContain(`line ${line}`);
  expect(refused.message).toContain(reason);
  // Nothing was imported: the store stays empty for the next file.
  expect(await target.db.selectFrom('events').select('position').execute()).toHaveLength(0);
}

/** An admin's act by someone never made an admin. */
const neverMadeAdmin = (e: StoredEvent): StoredEvent => ({
  ...e,
  metadata: { ...e.metadata, actor: '11111111-2222-4333-8444-555555555555' },
});

/** An escrow id whose story the given thread of verify-export follows. */
function idFollowedBy(thread: 'main' | 'worker'): string {
  for (let n = 0; ; n++) {
    const id = `0000${n.toString(16).padStart(4, '0')}-0000-4000-8000-000000000000`;
    if (storyThreadOf(id) === thread) return id;
  }
}

const withDestinations = (e: StoredEvent) =>
  Array.isArray((e.data as { destinations?: unknown[] }).destinations) &&
  (e.data as { destinations: unknown[] }).destinations.length > 0;

describe('an impossible story with every hash recomputed', () => {
  it('is accepted untouched, forged hashes and all (the control)', async () => {
    const path = forged('control.ndjson', events);
    expect((await verifyExport(path)).events).toBe(events.length);
  });

  it('refuses a destination that is not the payout address in force', async () => {
    const { crafted, line } = craft(
      'EscrowReleased',
      (e) => {
        const data = e.data as { destinations: { address: string }[] };
        data.destinations[0]!.address = freshAddress();
        return e;
      },
      withDestinations,
    );
    await refusedByBoth(forged('destination.ndjson', crafted), line, 'which is not the payout address in force');
  });

  it('refuses inflated amounts', async () => {
    const { crafted, line } = craft('EscrowReleased', (e) => {
      const data = e.data as { seller_sats: number; destinations?: { sats: number }[] };
      data.seller_sats *= 340;
      for (const d of data.destinations ?? []) d.sats = data.seller_sats;
      return e;
    });
    await refusedByBoth(forged('inflated.ndjson', crafted), line, 'money does not add up');
  });

  it('refuses an admin who was never made one', async () => {
    const { crafted, line } = craft('PaymentVerified', neverMadeAdmin);
    await refusedByBoth(forged('admin.ndjson', crafted), line, 'who was never made an admin');
  });

  it("refuses it whichever of verify-export's two threads follows the escrow", async () => {
    // The threads share the story by escrow id: the same forged act, on an escrow each of them follows.
    const { crafted, line } = craft('PaymentVerified', neverMadeAdmin);
    const escrowId = crafted[line - 2]!.stream_id.slice('escrow:'.length);
    for (const thread of ['main', 'worker'] as const) {
      const renamed = idFollowedBy(thread);
      const moved = crafted.map((e) => JSON.parse(JSON.stringify(e).replaceAll(escrowId, renamed)) as StoredEvent);
      const broken = (await verifyExport(forged(`thread-${thread}.ndjson`, moved)).catch(
        (e: unknown) => e,
      )) as ExportBroken;
      expect(broken, thread).toBeInstanceOf(ExportBroken);
      expect(broken.line, thread).toBe(line);
      expect(broken.message, thread).toContain('who was never made an admin');
    }
  });

  it('names a changed event by its hash first, though the story it now tells is impossible too', async () => {
    // The worker judges a line's hash before its story; the main thread's share of the story yields to it.
    const { crafted, line } = craft('PaymentVerified', neverMadeAdmin);
    const escrowId = crafted[line - 2]!.stream_id.slice('escrow:'.length);
    const renamed = idFollowedBy('main');
    const moved = (e: StoredEvent) => JSON.parse(JSON.stringify(e).replaceAll(escrowId, renamed)) as StoredEvent;
    const path = forged('changed-main.ndjson', events.map(moved));
    const lines = readFileSync(path, 'utf8').split('\n');
    const honest = JSON.parse(lines[line - 1]!) as StoredEvent;
    lines[line - 1] = JSON.stringify({ ...moved(crafted[line - 2]!), prev_hash: honest.prev_hash, hash: honest.hash });
    writeFileSync(path, lines.join('\n'));
    const broken = (await verifyExport(path).catch((e: unknown) => e)) as ExportBroken;
    expect(broken).toBeInstanceOf(ExportBroken);
    expect(broken.line).toBe(line);
    expect(broken.message).toContain('hash does not match the event content');
  });

  it('refuses a transition the escrow machine refuses', async () => {
    // A cancellation turned into an unfreeze (the same fields): the escrow was never frozen.
    const { crafted, line } = craft('EscrowCancelled', (e) => ({ ...e, type: 'EscrowUnfrozen' }) as StoredEvent);
    await refusedByBoth(forged('transition.ndjson', crafted), line, 'is a transition the escrow machine refuses');
  });
});

describe('--expect-head POS:HASH anywhere in the file', () => {
  const path = () => forged('head.ndjson', events);
  it('matches a position before the end, on verify-export and import-events', async () => {
    const file = path();
    const middle = events[9]!;
    const hash = (await verifyExport(file, { expectHead: { position: middle.position, hash: middle.hash } })).head;
    expect(hash.position).toBe(events.at(-1)!.position);
    const wrong = (await verifyExport(file, { expectHead: { position: middle.position, hash: 'ab'.repeat(32) } }).catch(
      (e: unknown) => e,
    )) as ExportBroken;
    expect(wrong).toBeInstanceOf(ExportBroken);
    expect(wrong.line).toBe(11);
    const refused = (await importEvents(target, file, {
      expectHead: { position: middle.position, hash: 'ab'.repeat(32) },
    }).catch((e: unknown) => e)) as ImportRefused;
    expect(refused).toBeInstanceOf(ImportRefused);
    expect(refused.message).toContain(`event ${middle.position} has hash`);
    const beyond = (await importEvents(target, file, { expectHead: { position: 10_000, hash: 'ab'.repeat(32) } }).catch(
      (e: unknown) => e,
    )) as ImportRefused;
    expect(beyond.message).toContain('before the published head');
  });
});

describe("the server's own full chain check (the chain watch)", () => {
  it('finds an impossible story in a log rewritten with every hash and the chain head recomputed', async () => {
    expect((await verifyChain(source.db, { story: true })).ok).toBe(true);
    // An attacker with the owner's rights switches the append-only trigger off first.
    await allowEventTampering(source.db);
    const target = events.find((e) => e.type === 'PaymentVerified')!;
    await sql`UPDATE events SET metadata = jsonb_set(metadata, '{actor}', '"11111111-2222-4333-8444-555555555555"') WHERE position = ${target.position}`.execute(
      source.db,
    );
    const rows = await source.db.selectFrom('events').selectAll().orderBy('position').execute();
    let prev = GENESIS_HASH;
    for (const row of rows) {
      const event = {
        ...row,
        position: Number(row.position),
        occurred_at: events.find((e) => e.position === Number(row.position))!.occurred_at,
      } as unknown as StoredEvent;
      const hash = chainHash(prev, envelopeOf(event));
      await sql`UPDATE events SET prev_hash = ${prev}, hash = ${hash} WHERE position = ${event.position}`.execute(
        source.db,
      );
      prev = hash;
    }
    await sql`UPDATE chain_head SET hash = ${prev}`.execute(source.db);
    expect((await verifyChain(source.db)).ok).toBe(true);
    const report = await verifyChain(source.db, { story: true });
    expect(report.ok).toBe(false);
    expect(report.firstBreak).toEqual({
      position: target.position,
      reason: expect.stringContaining('who was never made an admin'),
    });
  });
});
