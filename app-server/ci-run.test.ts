import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ci = readFileSync(new URL('../.ci/run', import.meta.url), 'utf8');
const commands = ci.split('\n').filter((line) => !line.trim().startsWith('#'));

describe('.ci/run', () => {
  it("runs the suite with the README's command, npm test, never vitest by another way", () => {
    expect(commands.some((line) => /\bnpm test -- /.test(line))).toBe(true);
    expect(commands.filter((line) => /\bnpx vitest\b|node_modules\/.bin\/vitest/.test(line))).toEqual([]);
    expect(readFileSync(new URL('../README.md', import.meta.url), 'utf8')).toContain('\nnpm test\n');
  });

  it('runs the PostgreSQL suite on a maintained Node LTS brought by the npm registry', () => {
    expect(commands.some((line) => /^lts_node=\$\(npx -y node@(22|24) /.test(line))).toBe(true);
    expect(
      commands.some((line) =>
        /^run_suite postgres\S* PATH="\$\(dirname "\$lts_node"\):\$PATH" TEST_DATABASE_URL=/.test(line),
      ),
    ).toBe(true);
  });
});
