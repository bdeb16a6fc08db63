import { describe, expect, it } from 'vitest';
import { isClientRoute } from './client-routes.ts';

describe('the pages the server answers with the app', () => {
  it.each(['/', '/about', '/reviews/', '/escrow/5b3c2f0e-1a2b-4c3d-8e9f-0a1b2c3d4e5f', '/escrow/x/', '/admin'])(
    '%s is a page',
    (path) => expect(isClientRoute(path)).toBe(true),
  );

  it.each(['', '/escrow', '/escrow/', '/escrow/a/b', '/admins', '/xabout', '/about/more', '/nope'])(
    '%s is not (a 404)',
    (path) => expect(isClientRoute(path)).toBe(false),
  );
});
