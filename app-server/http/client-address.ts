import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The client's address for rate limits: the socket's, or the last X-Forwarded-For hop when the request comes from
 * the configured proxy (never a header a client could set to dodge a limit).
 */
export function clientAddress(c: Context, trustProxy: string | undefined): string {
  let socket = 'unknown';
  try {
    socket = getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // app.request() in tests has no socket.
  }
  if (trustProxy && socket === trustProxy) {
    const hops = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
    return hops.at(-1) ?? socket;
  }
  return socket;
}
