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
      ? pretty({ colorize: true, translateTime: 'HH:MM:ss', ignore: 'pid,hostname,request_id,method,route,path,status', singleLine: true, sync: true })
      : destination,
  );
}
