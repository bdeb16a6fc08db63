/**
 * Renders the real app routes in memory against a scripted server: every request the page makes is recorded,
 * and `answer` decides the response, as the API would give it.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { routes } from '../app/router.tsx';
import { AuthProvider } from '../auth/auth-context.tsx';

export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}
export type Answer = { status: number; body: unknown };
/** Answers a request; a promise that never settles keeps it in flight (to see what a page shows meanwhile). */
export type Server = (request: SentRequest) => Answer | undefined | Promise<Answer | undefined>;

const json = (answer: Answer) =>
  new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });

function parseBody(body: BodyInit | null | undefined): unknown {
  if (typeof body === 'string') return JSON.parse(body) as unknown;
  if (body instanceof URLSearchParams) return Object.fromEntries(body);
  return body ?? null;
}

/** Calls nobody scripted answer like the public site would with nothing in it. */
const emptySite = ({ method, path }: SentRequest): Answer | undefined => {
  if (method !== 'GET') return undefined;
  if (path === '/api/site')
    return {
      status: 200,
      body: { support_email: 'support@example.com', support_hours: 'Mon-Fri 9:00 AM-6:00 PM GMT' },
    };
  if (path === '/api/reviews/stats') return { status: 200, body: { average_rating: 0, total: 0, distribution: {} } };
  if (path === '/api/reviews/countries') return { status: 200, body: [] };
  if (path.startsWith('/api/reviews')) return { status: 200, body: [] };
  return undefined;
};

export function renderApp(path: string, server: Server = () => undefined) {
  const requests: SentRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const request = { method: init.method ?? 'GET', path: String(input), body: parseBody(init.body) };
      requests.push(request);
      const answer = (await server(request)) ??
        emptySite(request) ?? { status: 404, body: { detail: `Not scripted: ${request.method} ${request.path}` } };
      return json(answer);
    }),
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </QueryClientProvider>,
  );
  /** The requests made so far, without the site and statistics lookups every page makes. */
  const calls = (method?: string, prefix = '/api/') =>
    requests.filter((r) => (!method || r.method === method) && r.path.startsWith(prefix));
  return { ...view, router, requests, calls };
}

/** After each test: unmount, forget the session and the scripted server. */
export function resetApp() {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
}
