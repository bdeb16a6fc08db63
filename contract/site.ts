import { z } from 'zod';

const chainSchema = z
  .enum(['ok', 'broken', 'unverified'])
  .describe("The server's own check of the hash chain. `broken` stops every money movement; the server still serves");

export const healthSchema = z.strictObject({
  status: z.literal('ok'),
  version: z.string().describe("The product's version (package.json, CHANGELOG.md)"),
  chain: chainSchema,
});

export const readinessSchema = z.strictObject({
  ready: z.boolean().describe('The database answers and every migration is applied: this server can serve'),
  database: z.boolean(),
  migrations: z.boolean(),
  chain: chainSchema,
  detail: z.string().optional(),
});

export const siteInfoSchema = z.strictObject({
  support_email: z.string(),
  support_hours: z.string(),
  pgp_key_configured: z.boolean(),
  bitcoin_network: z.enum(['mainnet', 'testnet', 'signet', 'regtest']),
});
export type SiteInfo = z.infer<typeof siteInfoSchema>;

/** GET /api/pgp-key: the support key's armored block, what the key says of itself, and the address it serves. */
export const pgpKeySchema = z.strictObject({
  armored: z.string(),
  /** e.g. "RSA 4096-bit", read from the key itself. */
  key_type: z.string(),
  key_id: z.string(),
  fingerprint: z.string(),
  /** The key's primary user id, e.g. "Escrow Support <support@example.com>". */
  user_id: z.string().nullable(),
  created_at: z.string(),
  support_email: z.string(),
});
export type PgpKey = z.infer<typeof pgpKeySchema>;
/** What the key says of itself: the answer without the support address. */
export type PgpKeyInfo = Omit<PgpKey, 'support_email'>;
