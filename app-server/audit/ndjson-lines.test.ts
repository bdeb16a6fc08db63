import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { numberedLines } from './ndjson-lines.ts';

const dir = mkdtempSync(join(tmpdir(), 'ndjson-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function linesOf(content: string) {
  const path = join(dir, `f${Math.random().toString(36).slice(2)}.ndjson`);
  writeFileSync(path, content, 'utf8');
  const lines: Array<[number, string]> = [];
  for await (const { number, text } of numberedLines(path)) lines.push([number, text]);
  return lines;
}

describe('numberedLines', () => {
  it('numbers every line, blank ones included, with LF or CRLF endings and no newline at the end', async () => {
    expect(await linesOf('{"a":1}\r\n\n{"b":"é"}\n{"c":3}')).toEqual([
      [1, '{"a":1}'],
      [2, ''],
      [3, '{"b":"é"}'],
      [4, '{"c":3}'],
    ]);
  });

  it('keeps lines and multi-byte characters whole across the 1 MB pieces the file is read in', async () => {
    // Lines of 3- and 4-byte characters whose bytes land on every offset of a piece boundary.
    const lines = Array.from({ length: 9_000 }, (_, i) => `{"n":${i},"t":"${'€😀'.repeat(20 + (i % 7))}"}`);
    const read = await linesOf(`${lines.join('\n')}\n`);
    expect(read.map(([, text]) => text)).toEqual(lines);
    expect(read.at(-1)![0]).toBe(9_000);
  });

  it('keeps a line longer than a piece whole, with the lines around it', async () => {
    const long = `{"t":"${'x'.repeat(2_500_000)}"}`;
    const read = await linesOf(`{"a":1}\n${long}\n{"b":2}`);
    expect(read.map(([number, text]) => [number, text.length])).toEqual([
      [1, 7],
      [2, long.length],
      [3, 7],
    ]);
    expect(read[1]![1]).toBe(long);
  });
});
