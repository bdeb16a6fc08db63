import { z } from 'zod';

/** A C2SP verifier key as the log publishes it: `name+hex id+base64 key`, never the private key. */
const vkey = z
  .string()
  .min(10)
  .max(300)
  .regex(/^[^\s+]+\+[0-9a-f]{8}\+[A-Za-z0-9+/]+={0,2}$/, 'must be a C2SP verifier key');

/**
 * The transparency log's signing keys, on the single stream `settings:log-key`: which public key signs the
 * checkpoints from that event on. The private key never enters the log.
 */
export const transparencyEventSchemas = {
  /** The first key of the log (or the first one this log's events name). */
  LogKeyIntroduced: z.object({ origin: z.string().min(1).max(300), vkey }),
  /** A new key replaces `previous_vkey`: checkpoints from here on are signed by `vkey`. */
  LogKeyRotated: z.object({ origin: z.string().min(1).max(300), vkey, previous_vkey: vkey }),
} as const;

type Schemas = typeof transparencyEventSchemas;
export type TransparencyEventType = keyof Schemas;
export type TransparencyEvent = {
  [K in TransparencyEventType]: { type: K; data: z.infer<Schemas[K]> };
}[TransparencyEventType];

/** The id of the stream that holds them (`settings:log-key`). */
export const LOG_KEY_ID = 'log-key';
