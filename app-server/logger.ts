import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger };

/**
 * Structured logs: JSON lines, or short readable lines when standard output is a terminal (`pretty`). Credentials
 * are redacted wherever they might appear (request lines never carry a header or a body in the first place).
 */
export function createLogger(level: string, destination?: pino.DestinationStream, options: { pretty?: boolean } = {}): Logger {
  const readable = options.pretty ?? (destination === undefined && process.stdout.isTTY === true);
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: [
          'authorization',
          '*.authorization',
          'password',
          '*.password',
          'totp_code',
          '*.totp_code',
          'token',
          '*.token',
          'access_token',
          '*.access_token',
        ],
        censor: '[redacted]',
      },
    },
    readable
      ? pretty({ colorize: true, translateTime: 'HH:MM:ss', hideObject: true, messageFormat: readableLine, sync: true })
      : destination,
  );
}

/** A log line for people: the message, plus a request's duration and actor, or an error's message. */
function readableLine(log: Record<string, unknown>, messageKey: string): string {
  const message = String(log[messageKey] ?? '');
  if (typeof log.duration_ms === 'number') return `${message} ${log.duration_ms} ms (${String(log.actor)}, ${String(log.request_id)})`;
  const err = log.err as { message?: string } | undefined;
  return err?.message ? `${message}: ${err.message}` : message;
}
