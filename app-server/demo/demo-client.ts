import type { App } from '../http/app.ts';

type Body = { json: unknown } | { form: Record<string, string> } | { multipart: FormData } | undefined;

/**
 * Calls the real API in-process (app.request: no port, no network), as a browser would: every demo record goes
 * through validation, the state machine and the event store like any other request. A refusal stops the seeding
 * with the server's detail.
 */
export function demoClient(app: App, onCall?: () => void) {
  return async function call<T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: Body,
    token?: string,
  ): Promise<T> {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: BodyInit | undefined;
    if (body && 'json' in body) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body.json);
    } else if (body && 'form' in body) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(body.form).toString();
    } else if (body && 'multipart' in body) {
      payload = body.multipart;
    }
    const res = await app.request(`/api${path}`, {
      method,
      headers,
      ...(payload === undefined ? {} : { body: payload }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} /api${path} answered ${res.status}: ${text.slice(0, 300)}`);
    onCall?.();
    return (text ? JSON.parse(text) : {}) as T;
  };
}

export type DemoCall = ReturnType<typeof demoClient>;
