import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventTypes } from '../../domain/events.ts';
import { projections } from '../../projections/registry.ts';
import { createEventStore } from '../event-store/append.ts';
import { exportEvents } from '../event-store/export.ts';
import { readChainHead } from '../event-store/chain-head.ts';
import { writeEveryEventType } from '../testing/every-event-type.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { ExportBroken, verifyExport } from './verify-export.ts';

let t: TestDatabase;
let lines: string[];
let head: { position: number; hash: string };
const dir = mkdtempSync(join(tmpdir(), 'export-'));

beforeAll(async () => {
  t = await openTestDatabase();
  await writeEveryEventType({ db: t.db, store: createEventStore(t.db, projections) });
  let text = '';
  await exportEvents(t.db, (line) => {
    text += line;
  });
  lines = text.trimEnd().split('\n');
  head = await readChainHead(t.db);
});
afterAll(async () => t.dispose());

const write = (name: string, content: string[]) => {
  const path = join(dir, name);
  writeFileSync(path, `${content.join('\n')}\n`);
  return path;
};
async function brokenAt(path: string): Promise<ExportBroken> {
  const error = await verifyExport(path).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ExportBroken);
  return error as ExportBroken;
}

describe('verify-export', () => {
  it('accepts an untouched export, ends on the published head, and sums the books', async () => {
    const path = write('ok.ndjson', lines);
    const summary = await verifyExport(path, { expectHead: head });
    expect(summary.events).toBe(lines.length - 1);
    expect(summary.head).toEqual(head);
    const escrows = await t.db.selectFrom('escrows').select('status').execute();
    const live: Record<string, number> = {};
    for (const e of escrows) live[e.status] = (live[e.status] ?? 0) + 1;
    expect(summary.escrowsByStatus).toEqual(live);
    expect(new Set(lines.slice(1).map((l) => (JSON.parse(l) as { type: string }).type))).toEqual(new Set(eventTypes));
  });

  it('names the line of a changed byte', async () => {
    const changed = [...lines];
    const target = 7;
    changed[target] = changed[target]!.replace(/("request_id"\s*:\s*)"fixture"/, '$1"fixturf"');
    expect(changed[target]).not.toBe(lines[target]);
    expect((await brokenAt(write('changed.ndjson', changed))).line).toBe(target + 1);
  });

  it('names the line after a deleted one', async () => {
    const deleted = [...lines];
    deleted.splice(10, 1);
    expect((await brokenAt(write('deleted.ndjson', deleted))).line).toBe(11);
  });

  it('names the first of two swapped lines', async () => {
    const swapped = [...lines];
    [swapped[12], swapped[13]] = [swapped[13]!, swapped[12]!];
    expect((await brokenAt(write('swapped.ndjson', swapped))).line).toBe(13);
  });

  it('refuses an export that stops short of the published head', async () => {
    const truncated = write('truncated.ndjson', lines.slice(0, -1));
    await expect(verifyExport(truncated, { expectHead: head })).rejects.toThrow(/not at the published head/);
  });

  it('names a line that is JSON but not an object, as header or as event', async () => {
    for (const junk of ['null', '42', '[1,2]', '"text"']) {
      const inTheMiddle = [...lines];
      inTheMiddle[5] = junk;
      const error = await brokenAt(write('not-an-object.ndjson', inTheMiddle));
      expect([error.line, error.message]).toEqual([6, 'line 6: is not a JSON object']);
      expect((await brokenAt(write('header-not-an-object.ndjson', [junk, ...lines.slice(1)]))).line).toBe(1);
    }
  });

  it('refuses a file that is not an export', async () => {
    const error = await brokenAt(write('junk.ndjson', ['hello']));
    expect(error.line).toBe(1);
    expect(readFileSync(join(dir, 'junk.ndjson'), 'utf8')).toBe('hello\n');
  });
});
