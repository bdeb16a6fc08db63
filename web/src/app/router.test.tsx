// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { CLIENT_ROUTES, isClientRoute } from '../../../domain/shared/client-routes.ts';
import { routes } from './router.tsx';

type Route = { path?: string; children?: Route[] };
const pathsOf = (list: Route[], prefix = ''): string[] =>
  list.flatMap((route) => {
    const path =
      route.path === undefined
        ? prefix
        : route.path.startsWith('/')
          ? route.path
          : `${prefix.replace(/\/$/, '')}/${route.path}`;
    return [...(route.path !== undefined ? [path] : []), ...pathsOf(route.children ?? [], path)];
  });

describe('the router and the server agree on which paths are pages', () => {
  it('every page of the router is in the shared list (else the server answers it 404)', () => {
    const pages = pathsOf(routes as Route[]).filter((path) => !path.endsWith('*'));
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) expect(CLIENT_ROUTES, page).toContain(page);
  });

  it('the catch-all is the not-found page, for paths outside the list', () => {
    expect(pathsOf(routes as Route[])).toContain('/*');
    expect(isClientRoute('/nonsense')).toBe(false);
    expect(isClientRoute('/escrow/6a4d6f2e-8a11-4f39-9e0e-0d7f3f1c2b55')).toBe(true);
  });
});
