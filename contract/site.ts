import { z } from 'zod';

export const healthSchema = z.strictObject({ status: z.literal('ok') });

export const readinessSchema = z.strictObject({
  ready: z.boolean(),
  database: z.boolean(),
  migrations: z.boolean(),
  chain: z.enum(['ok', 'broken', 'unverified']).describe("The server's own check of the hash chain"),
  detail: z.string().optional(),
});

export const siteInfoSchema = z.strictObject({
  support_email: z.string(),
  support_hours: z.string(),
  pgp_key_configured: z.boolean(),
  bitcoin_network: z.enum(['mainnet', 'testnet', 'signet', 'regtest']),
});

export const pgpKeySchema = z.strictObject({
  armored: z.string(),
  key_type: z.string(),
  key_id: z.string(),
  fingerprint: z.string(),
  user_id: z.string().nullable(),
  created_at: z.string(),
  support_email: z.string(),
});
