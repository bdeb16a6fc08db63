import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/compress';

export type Encoding = 'br' | 'gzip';

export interface CompressionOptions {
  /** Smaller bodies go out as they are: the encoding would cost more than it saves. 512: the app shell (~950
   * bytes) is still compressed, a health answer or a short JSON refusal is not. */
  thresholdBytes?: number;
}

/**
 * Compresses text answers (HTML, scripts, styles, JSON, the OpenAPI document) with Brotli or gzip, whichever the
 * client prefers (Brotli on a tie). Hono's own `compress` offers only gzip and deflate (through CompressionStream);
 * Node's zlib has Brotli built in. zstd is not offered: Node 20's zlib has none (the proxy, Caddy, adds it).
 * Left alone: answers already encoded, partial, to HEAD, marked `no-transform`, below the threshold, and types that
 * are compressed already or stream (images, PDFs, fonts, the NDJSON export: gzip would hold its lines back).
 */
export function compression({ thresholdBytes = 512 }: CompressionOptions = {}): MiddlewareHandler {
  return async function compressAnswer(c, next) {
    const encoding = preferredEncoding(c.req.header('Accept-Encoding'));
    if (!encoding) {
      // Nothing will be compressed for this client. The answer still varies by the header, said before it is made:
      // opening a finished answer's headers would turn the server's cached fast answer into a whole Fetch Response.
      c.header('Vary', 'Accept-Encoding', { append: true });
      return next();
    }
    await next();
    const res = c.res;
    const type = res.headers.get('Content-Type');
    if (!type || !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type)) return;
    const varies = res.headers.get('Vary');
    if (varies !== '*' && !/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(varies ?? ''))
      res.headers.set('Vary', varies ? `${varies}, Accept-Encoding` : 'Accept-Encoding');
    const length = res.headers.get('Content-Length');
    if (
      !res.body ||
      c.req.method === 'HEAD' ||
      res.status === 206 ||
      res.headers.has('Content-Encoding') ||
      (length !== null && Number(length) < thresholdBytes) ||
      /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get('Cache-Control') ?? '')
    )
      return;
    const body = length === null ? await res.arrayBuffer() : null; // an answer of unknown size: measure it first
    if (body && body.byteLength < thresholdBytes) {
      c.res = new Response(body, res);
      return;
    }
    const source = body ? Readable.from([Buffer.from(body)]) : Readable.fromWeb(res.body as NodeReadableStream);
    const encoder =
      encoding === 'br'
        ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
        : createGzip({ level: 6 });
    const headers = new Headers(res.headers);
    headers.delete('Content-Length');
    headers.set('Content-Encoding', encoding);
    const etag = headers.get('ETag');
    if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
    c.res = new Response(Readable.toWeb(source.pipe(encoder)) as ReadableStream, {
      status: res.status,
      statusText: res.statusText,
      headers,
    });
    // Hono's `c.res` setter copies the previous answer's headers back in: the plain body's length among them, which
    // would leave a browser waiting for bytes that never come.
    c.res.headers.delete('Content-Length');
  };
}

/** `br` or `gzip` as the Accept-Encoding header ranks them (q-values, `*`), or none. */
export function preferredEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (encoding: Encoding) => weights.get(encoding) ?? weights.get('*') ?? 0;
  const best = (['br', 'gzip'] as const).filter((e) => weight(e) > 0).sort((a, b) => weight(b) - weight(a))[0];
  return best;
}
