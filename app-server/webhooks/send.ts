import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { guardedLookup, hostOf, isPrivateAddress } from './destination.ts';

/** How long a receiver has to answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface WebhookMessage {
  url: string;
  secret: string;
  messageId: string;
  payload: string;
}

/** What one attempt came to: the receiver's status (2xx is delivered), or why no answer came. */
export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** The Standard Webhooks headers of one attempt: `webhook-timestamp` is the attempt's, and signed with the body. */
export function signedHeaders(
  message: Pick<WebhookMessage, 'secret' | 'messageId' | 'payload'>,
  at: Date,
): Record<string, string> {
  const signature = new Webhook(message.secret).sign(message.messageId, at, message.payload);
  return {
    'content-type': 'application/json',
    'user-agent': 'escrow-webhooks/1',
    'webhook-id': message.messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

/**
 * POSTs one signed message. Redirects are not followed (a 3xx is a failed attempt: a receiver that moved says so
 * by being updated, and following one could lead inside); private addresses are refused at connect time unless
 * allowed. Never throws: every failure is an outcome to log.
 */
export function sendWebhook(
  message: WebhookMessage,
  at: Date,
  options: { allowPrivate: boolean; timeoutMs?: number },
): Promise<AttemptOutcome> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): AttemptOutcome => ({
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(message.url);
    } catch {
      resolve(done(null, 'the endpoint URL is not valid'));
      return;
    }
    const host = hostOf(url);
    if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) {
      resolve(done(null, `refused: ${host} is a private or loopback address`));
      return;
    }
    const body = Buffer.from(message.payload);
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        headers: { ...signedHeaders(message, at), 'content-length': String(body.length) },
        lookup: guardedLookup(options.allowPrivate) as never,
        timeout: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        response.resume(); // the answer's body is not read; draining it lets the socket close
        response.on('end', () => resolve(done(status, describeStatus(status))));
        response.on('error', () => resolve(done(status, describeStatus(status))));
      },
    );
    request.on('timeout', () =>
      request.destroy(new Error(`no answer within ${(options.timeoutMs ?? WEBHOOK_TIMEOUT_MS) / 1000} s`)),
    );
    request.on('error', (error) => resolve(done(null, error.message.slice(0, 300))));
    request.end(body);
  });
}

function describeStatus(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `the receiver answered ${status}: redirects are not followed`;
  return `the receiver answered ${status}`;
}
