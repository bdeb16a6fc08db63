import pino, { type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs. Credentials are redacted wherever they might appear. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
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
    destination,
  );
}
