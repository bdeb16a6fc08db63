import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

/** The goals of the last run: each row of RESULTS.md's table whose last column is "yes" or "**no**". */
function goals(results: string) {
  const rows = results.split('\n').filter((line) => /^\|[^-]/.test(line) && !line.startsWith('| figure'));
  const cells = rows.map((line) => line.split('|').map((cell) => cell.trim()));
  const judged = cells.filter((c) => c.at(-2) === 'yes' || c.at(-2) === '**no**');
  return {
    met: judged.filter((c) => c.at(-2) === 'yes').length,
    total: judged.length,
    missed: judged.filter((c) => c.at(-2) === '**no**').map((c) => c[1]!),
  };
}

describe("the README's benchmark claim", () => {
  it('says how many goals the last run in bench/RESULTS.md met, and names each one it missed', () => {
    const { met, total, missed } = goals(read('bench/RESULTS.md'));
    const readme = read('README.md').replace(/\s+/g, ' ');
    expect(readme).toContain(`${met} of ${total} goals met in the last run`);
    for (const figure of missed) expect(readme).toContain(figure.split(',')[0]!); // "POST /api/escrows", "replay"
  });
});
