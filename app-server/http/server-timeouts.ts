import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ServerTimeouts {
  /** A connection with no request in progress that sends nothing for this long is closed. */
  idleMs: number;
  /** A request's headers must all arrive within this long (Node answers 408 otherwise). */
  headersMs: number;
  /** The body deadline the app enforces (BODY_READ_TIMEOUT_MS); Node's own request timeout is a backstop behind it. */
  bodyMs: number;
}

/**
 * Node's defaults keep a connection that never sends a byte open for ever (its header and request timeouts start
 * with the first byte of a request) and wait 300 s for a request to arrive whole. Here: such a connection is closed
 * after `idleMs`, headers have `headersMs`, and the request as a whole the app's body deadline plus the headers' time.
 * A connection whose answer is still being worked on or sent is never closed for being quiet.
 */
export function applyServerTimeouts(server: Server, timeouts: ServerTimeouts): void {
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.bodyMs + timeouts.headersMs;
  server.timeout = timeouts.idleMs;
  // With a listener here Node leaves the socket to it: close it unless an answer is under way on it.
  server.on('timeout', (socket: Socket & { _httpMessage?: unknown }) => {
    if (!socket._httpMessage) socket.destroy();
  });
}
