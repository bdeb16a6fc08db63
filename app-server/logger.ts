import pino, { type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { stdoutDestination } from './log-destination.ts';

export type { Logger };

/**
 * Structured logs: JSON lines, or short readable lines when standard output is a terminal (`pretty`). Credentials
 * are redacted wherever they might appear (request lines never carry a header or a body in the first place).
 * Without a destination, lines go to standard output through `stdoutDestination`, which never blocks the process.
 */
export function createLogger(
  level: string,
  destination?: pino.DestinationStream,
  options: { pretty?: boolean } = {},
): Logger {
  const readable = options.pretty ?? (destination === undefined && process.stdout.isTTY === true);
  const output = destination ?? stdoutDestination();
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
    readable ? readableLines(output) : output,
  );
}

/** The JSON lines made readable on their way to `output`. */
function readableLines(output: pino.DestinationStream): pino.DestinationStream {
  const prettify = prettyFactory({
    colorize: true,
    translateTime: 'HH:MM:ss',
    hideObject: true,
    messageFormat: readableLine,
  });
  return { write: (line: string) => output.write(prettify(line)) };
}

/** A log line for people: the message, plus a request's duration and actor, or an error's message. */
function readableLine(log: Record<string, unknown>, messageKey: string): string {
  const message = String(log[messageKey] ?? '');
  if (typeof log.duration_ms === 'number')
    return `${message} ${log.duration_ms} ms (${String(log.actor)}, ${String(log.request_id)})`;
  const err = log.err as { message?: string } | undefined;
  return err?.message ? `${message}: ${err.message}` : message;
}
