import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// Without an icon the browser asks for /favicon.ico on every first load and logs the 404 in the console.
describe('the favicon', () => {
  it('is linked from the page and shipped with the build (web/public is copied to the root of web/dist)', () => {
    const html = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
    const href = /<link rel="icon" href="\/([^"]+)" type="image\/svg\+xml" \/>/.exec(html)?.[1];
    expect(href).toBe('favicon.svg');
    const icon = new URL(`../../public/${href}`, import.meta.url);
    expect(existsSync(icon)).toBe(true);
    expect(readFileSync(icon, 'utf8')).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });
});
