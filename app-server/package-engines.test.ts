import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const read = (file: string) =>
  JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;

describe('the locked dependencies', () => {
  it('all run on the oldest Node the project names, so `npm install` prints no engine warning', () => {
    const supported = semver.minVersion((read('package.json').engines as { node: string }).node)!.version;
    const packages = read('package-lock.json').packages as Record<
      string,
      { version?: string; engines?: { node?: string } | string[] }
    >;
    const refusing = Object.entries(packages)
      .filter(([path, entry]) => {
        const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return path !== '' && node !== undefined && !semver.satisfies(supported, node);
      })
      .map(([path, entry]) => `${path}@${entry.version} wants node ${(entry.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });
});
