/**
 * What the end-to-end scripts share: calls against a running server with a printed trail, a check that stops the
 * script with a message, and the mails the server wrote to its outbox file.
 */
import { readFileSync } from 'node:fs';

export type Answer = { status: number; body: Record<string, unknown> & { detail?: string } };
type Init = RequestInit & { token?: string };

export function client(baseUrl: string) {
  const base = `${baseUrl}/api`;
  async function call(path: string, init: Init = {}): Promise<Answer> {
    const headers = new Headers(init.headers);
    if (init.token) headers.set('authorization', `Bearer ${init.token}`);
    const res = await fetch(`${base}${path}`, { ...init, headers });
    const type = res.headers.get('content-type') ?? '';
    const body = type.includes('json')
      ? ((await res.json()) as Answer['body'])
      : { bytes: new Uint8Array(await res.arrayBuffer()) };
    console.log(`${init.method ?? 'GET'} ${path} -> ${res.status}${body.detail ? ` (${body.detail})` : ''}`);
    return { status: res.status, body };
  }
  return { call };
}

/** What `send` takes: a bearer token, a JSON or form body, a method (POST when there is a body) and a time limit. */
export interface SendInit {
  method?: string;
  token?: string;
  json?: unknown;
  form?: Record<string, string>;
  timeoutMs?: number;
}

/** One quiet call (no printed trail, for scripts that make hundreds): the status and the body as JSON when it is. */
export async function send(
  url: string,
  init: SendInit = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = init.token ? { authorization: `Bearer ${init.token}` } : {};
  let body: string | undefined;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const res = await fetch(url, {
    method: init.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    signal: AbortSignal.timeout(init.timeoutMs ?? 30_000),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  } catch {
    return { status: res.status, body: { text } };
  }
}

export const json = (body: unknown, token?: string): Init => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
  ...(token ? { token } : {}),
});
export const form = (fields: Record<string, string>, token: string, method = 'POST'): Init => ({
  method,
  body: new URLSearchParams(fields),
  token,
});
export const multipart = (fields: Record<string, string | File>, token: string): Init => {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return { method: 'POST', body, token };
};
export const bearer = (token: string, method = 'GET'): Init => ({ method, token });

export function expect(condition: unknown, what: string): void {
  if (!condition) {
    console.error(`FAILED: ${what}`);
    process.exit(1);
  }
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Every mail in the outbox file so far (the server's sender writes one JSON line per mail). */
export function outbox(path: string): Mail[] {
  try {
    return readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Mail);
  } catch {
    return [];
  }
}

/** Waits (up to 15 s) for a mail that `match` accepts; the sender delivers every few seconds. */
export async function waitForMail(path: string, match: (mail: Mail) => boolean, what: string): Promise<Mail> {
  for (let i = 0; i < 30; i++) {
    const found = outbox(path).filter(match).at(-1);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 500));
  }
  console.error(`FAILED: no mail ${what} in ${path}`);
  process.exit(1);
}
