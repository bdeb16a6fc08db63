import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { DomainError, invalidInput, notFound } from '../../../domain/shared/errors.ts';
import type { AppEnv } from '../env.ts';

export interface BodyLimitsOptions {
  /** Whether a route answers this method and path (an unknown one gets 404 before its body is read). */
  routeExists: (method: string, path: string) => boolean;
  /** Whether this call takes an upload (a file): the large limit, a signed-in user, and one of the upload slots. */
  isUpload: (method: string, path: string) => boolean;
  /** The largest body of an upload, and of any other call, in bytes. */
  uploadLimit: number;
  limit: number;
  /** A body not received whole this long after the request came in is refused with 408 (its connection closed). */
  readWithinMs: number;
  /** Uploads read at once from one client address, and in all; past either, 429 or 503 before the body is read. */
  uploadsPerClient: number;
  uploadsInAll: number;
  clientOf: (c: Context<AppEnv>) => string;
  /** JSON bodies nested deeper than this are refused as they arrive, before any parser sees them. */
  maxJsonDepth: number;
  /** At most this many bytes of a body the server will not use are read and thrown away to keep the connection. */
  discardUpTo: number;
  /** ...and for at most this long; past either bound the answer says `Connection: close`. */
  discardWithinMs: number;
}

const tooLarge = (headers: Record<string, string> = {}) =>
  new DomainError('payload_too_large', 'Request body is too large', headers);
const CLOSE = { Connection: 'close' };

/**
 * Bodies are read only when a known route that will use them reads them, bounded in size, time and JSON nesting,
 * and a body the server refuses or never reads does not break the connection it came on.
 *
 * Nothing is buffered here: the session is already known (authenticate runs first), a path no route answers gets
 * 404 and an upload without a signed-in user 401, both before a byte of the body is read. Otherwise the request's
 * body is handed on as a stream that counts what the route reads: past the call's limit (the upload limit on upload
 * routes only, the small JSON limit everywhere else) 413, past `readWithinMs` 408, a JSON body nested deeper than
 * `maxJsonDepth` 422 at the byte that goes too deep. Uploads take a slot per client address and one in all.
 *
 * An HTTP/1.1 client (or a proxy pooling connections for many users) sends its next request on the same socket once
 * it has an answer. Answering before the body has arrived, then closing or reading half of it, leaves the client
 * writing into a closed socket (Node's fetch: "other side closed") or its next request parsed from the leftovers.
 * So whatever the answer (413 here, 415 or 422 from the route, 401 or 404 before anything is read), the rest of the
 * body is read and thrown away before the answer goes, up to `discardUpTo` bytes and `discardWithinMs`; past those
 * the answer carries `Connection: close`, and Node closes the socket once the answer is flushed.
 */
export function bodyLimits(options: BodyLimitsOptions): MiddlewareHandler<AppEnv> {
  const slots = new UploadSlots(options.uploadsPerClient, options.uploadsInAll);
  return async function bodyLimitsMiddleware(c, next) {
    // GET and HEAD requests never carry a body here (the server does not read one); not asking for it spares building
    // a whole Fetch Request for every read (a tenth of a GET's CPU).
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const lengthHeader = c.req.header('content-length');
    const chunked = c.req.header('transfer-encoding') !== undefined;
    // No declared length and no chunks: a Node request without a body; a request made in-process with a stream body.
    if (!chunked && lengthHeader !== undefined && Number(lengthHeader) === 0) return next();
    const refuseUnread = async (error: DomainError) => {
      const kept = incoming ? await discardRest(incoming, options) : true;
      throw kept ? error : new DomainError(error.code, error.detail, { ...error.headers, ...CLOSE }, error.reason);
    };
    const { method, path } = c.req;
    if (!options.routeExists(method, path)) return refuseUnread(notFound('No such API route'));
    const upload = options.isUpload(method, path);
    if (upload && !c.get('user')) return refuseUnread(new DomainError('unauthenticated', 'Not signed in'));
    const limit = upload ? options.uploadLimit : options.limit;
    if (!chunked && lengthHeader !== undefined && Number(lengthHeader) > limit) {
      const kept = incoming
        ? Number(lengthHeader) <= options.discardUpTo && (await discardRest(incoming, options))
        : true;
      throw tooLarge(kept ? {} : CLOSE);
    }
    const release = upload ? slots.take(options.clientOf(c)) : undefined;
    const contentType = c.req.header('content-type') ?? '';
    const original = c.req.raw;
    const body = new GuardedBody(
      () =>
        incoming
          ? (incoming.iterator({ destroyOnReturn: false }) as AsyncIterator<Uint8Array>)
          : readerOf(original.body),
      {
        limit,
        readWithinMs: options.readWithinMs,
        maxJsonDepth: /^application\/([\w.+-]+\+)?json\b/i.test(contentType) ? options.maxJsonDepth : undefined,
      },
    );
    try {
      c.req.raw = new Request(c.req.raw.url, {
        method,
        headers: c.req.raw.headers,
        body: body.stream,
        duplex: 'half',
      } as RequestInit);
      await next();
    } finally {
      body.stop();
      release?.();
    }
    if (body.failure) {
      // The route saw its body fail (and may have answered 400 for it): the answer is the failure's.
      if (body.failure.code === 'payload_too_large' || body.failure.code === 'invalid_input')
        return refuseUnread(body.failure);
      throw body.failure;
    }
    if (incoming && !(await discardRest(incoming, options))) c.header('Connection', 'close');
  };
}

/**
 * The request's body as a stream that reads its source only when pulled (so a route that never reads it reads
 * nothing), counting bytes, scanning JSON nesting, and giving up at the deadline. What went wrong is kept in
 * `failure` for the middleware: a route's body parser turns any stream error into its own 400.
 */
class GuardedBody {
  failure: DomainError | null = null;
  readonly stream: ReadableStream<Uint8Array>;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `open` gives the request's own body, asked for at the first read. */
  constructor(
    open: () => AsyncIterator<Uint8Array>,
    rules: { limit: number; readWithinMs: number; maxJsonDepth: number | undefined },
  ) {
    let source: AsyncIterator<Uint8Array> | undefined;
    let size = 0;
    const depth = rules.maxJsonDepth === undefined ? undefined : new JsonDepthScan(rules.maxJsonDepth);
    const expired = new Promise<'expired'>((resolve) => {
      this.timer = setTimeout(() => resolve('expired'), rules.readWithinMs);
    });
    const fail = (controller: ReadableStreamDefaultController<Uint8Array>, error: DomainError) => {
      this.failure ??= error;
      controller.error(error);
      void source?.return?.().catch(() => undefined);
    };
    this.stream = new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          source ??= open();
          const next = await Promise.race([source.next(), expired]);
          if (next === 'expired') {
            return fail(
              controller,
              new DomainError(
                'request_timeout',
                `Request body was not received within ${Math.round(rules.readWithinMs / 1000)} s`,
                CLOSE,
              ),
            );
          }
          if (next.done) {
            clearTimeout(this.timer);
            return controller.close();
          }
          const chunk = next.value;
          size += chunk.byteLength;
          if (size > rules.limit) return fail(controller, tooLarge());
          if (depth && !depth.accepts(chunk))
            return fail(controller, invalidInput(`body: JSON nested deeper than ${depth.max} levels`));
          controller.enqueue(chunk);
        },
        cancel: async () => {
          await source?.return?.().catch(() => undefined);
        },
      },
      { highWaterMark: 0 },
    );
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/** A Fetch body (a request made in-process, as tests do) read chunk by chunk. */
function readerOf(body: ReadableStream<Uint8Array> | null): AsyncIterator<Uint8Array> {
  const reader = body?.getReader();
  return {
    next: async () =>
      reader ? ((await reader.read()) as IteratorResult<Uint8Array>) : { done: true, value: undefined },
    return: async () => {
      await reader?.cancel().catch(() => undefined);
      return { done: true, value: undefined };
    },
  };
}

/** Brackets outside strings, counted as the bytes arrive: a few milliseconds for a megabyte, no parse. */
export class JsonDepthScan {
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(readonly max: number) {}

  /** False as soon as an opening bracket goes past `max`. */
  accepts(chunk: Uint8Array): boolean {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === 0x5c) this.escaped = true;
        else if (byte === 0x22) this.inString = false;
      } else if (byte === 0x22) this.inString = true;
      else if (byte === 0x5b || byte === 0x7b) {
        if (++this.depth > this.max) return false;
      } else if (byte === 0x5d || byte === 0x7d) this.depth--;
    }
    return true;
  }
}

/** Uploads being read, per client address and in all. */
class UploadSlots {
  private readonly byClient = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly perClient: number,
    private readonly inAll: number,
  ) {}

  /** A slot, or a refusal: 429 when this client has its share, 503 when the server has all it takes. */
  take(client: string): () => void {
    const mine = this.byClient.get(client) ?? 0;
    if (mine >= this.perClient) {
      throw new DomainError(
        'rate_limited',
        `Too many uploads at once from this address (at most ${this.perClient}); wait for one to finish`,
        { 'Retry-After': '5' },
      );
    }
    if (this.total >= this.inAll) {
      throw new DomainError(
        'not_ready',
        `The server is receiving as many uploads as it takes (${this.inAll}); try again shortly`,
        { 'Retry-After': '5' },
      );
    }
    this.byClient.set(client, mine + 1);
    this.total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.byClient.get(client) ?? 1) - 1;
      if (left > 0) this.byClient.set(client, left);
      else this.byClient.delete(client);
    };
  }
}

/**
 * Reads what is left of a request's body and throws it away. True when the body ended within the bounds (the
 * connection can serve the next request); false when it did not, or the socket is gone.
 */
export function discardRest(
  incoming: IncomingMessage,
  bounds: { discardUpTo: number; discardWithinMs: number },
): Promise<boolean> {
  if (incoming.readableEnded || incoming.complete) return Promise.resolve(true);
  if (incoming.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('close', onClose);
      if (!ended) incoming.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.byteLength;
      if (seen > bounds.discardUpTo) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(incoming.readableEnded);
    const timer = setTimeout(() => finish(false), bounds.discardWithinMs);
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('close', onClose);
    incoming.resume();
  });
}
