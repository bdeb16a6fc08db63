import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainHash, envelopeOf } from '../../domain/chain.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import { ExportBroken, verifyExport } from '../audit/verify-export.ts';
import { exportEvents } from '../event-store/export.ts';
import { writeEveryEventType } from '../testing/every-event-type.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { CheckpointsAgainstExport } from './export-checkpoints.ts';

let t: TestApp;
let dir: string;
let note: string;
beforeAll(async () => {
  t = await openTestApp();
  dir = mkdtempSync(join(tmpdir(), 'tlog-export-'));
  await writeEveryEventType({ db: t.database.db, store: t.deps.store });
  // The fixture rotated the log to a made-up key; this app signs after naming its own.
  await t.deps.transparency!.rotateTo(t.deps.store, { seed: new Uint8Array(32).fill(7), source: 'test' });
  note = (await t.deps.transparency!.signIfGrown())!.note;
}, 120_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

async function exported(): Promise<string> {
  let text = '';
  await exportEvents(t.database.db, (chunk) => void (text += chunk));
  return text;
}

/** The whole log rewritten from its second event on, every hash recomputed: the chain alone still verifies. */
function rewrite(text: string): string {
  const [header, ...lines] = text.trimEnd().split('\n');
  const events = lines.map((l) => JSON.parse(l) as StoredEvent);
  (events[1]!.metadata as { request_id: string }).request_id = 'rewritten';
  let prev = events[0]!.hash;
  for (const e of events.slice(1)) {
    e.prev_hash = prev;
    e.hash = chainHash(prev, envelopeOf(e));
    prev = e.hash;
  }
  const head = JSON.parse(header!) as { chain_head: { position: number; hash: string } };
  head.chain_head.hash = prev;
  return [JSON.stringify(head), ...events.map((e) => JSON.stringify(e))].join('\n') + '\n';
}

describe('verify-export --checkpoint', () => {
  it("passes a genuine export against the log's checkpoint, with the log's own key or a given one", async () => {
    const file = join(dir, 'genuine.ndjson');
    writeFileSync(file, await exported());
    const summary = await verifyExport(file, { checkpoints: new CheckpointsAgainstExport(note) });
    expect(summary.events).toBeGreaterThan(10);
    await expect(
      verifyExport(file, { checkpoints: new CheckpointsAgainstExport(note, t.deps.transparency!.vkey) }),
    ).resolves.toBeTruthy();
  });

  it('catches a rewrite with recomputed hashes that the chain check alone lets through', async () => {
    const file = join(dir, 'rewritten.ndjson');
    writeFileSync(file, rewrite(await exported()));
    await expect(verifyExport(file)).resolves.toBeTruthy(); // chain: ok
    const error = await verifyExport(file, { checkpoints: new CheckpointsAgainstExport(`${note}\n${note}`) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ExportBroken);
    expect((error as Error).message).toContain('the log was rewritten');
  });

  it('refuses a checkpoint signed by another key, and one beyond the file', async () => {
    const file = join(dir, 'short.ndjson');
    const text = await exported();
    writeFileSync(file, text);
    const other = await verifyExport(file, {
      checkpoints: new CheckpointsAgainstExport(
        note,
        'someone.example/log+0a1b2c3d+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k',
      ),
    }).catch((e: unknown) => e);
    expect((other as Error).message).toContain('not signed by the given key');
    const cut = text.trimEnd().split('\n');
    const header = JSON.parse(cut[0]!) as { to: number };
    header.to = cut.length - 2;
    writeFileSync(file, [JSON.stringify(header), ...cut.slice(1, -1)].join('\n') + '\n');
    const short = await verifyExport(file, {
      checkpoints: new CheckpointsAgainstExport(note, t.deps.transparency!.vkey),
    }).catch((e: unknown) => e);
    expect((short as Error).message).toContain('beyond the export');
    expect(readFileSync(file, 'utf8').length).toBeGreaterThan(0);
  });
});
