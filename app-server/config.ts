import { z } from 'zod';
import { parseUsdToCents } from '../domain/money.ts';

const port = z.coerce.number().int().min(0).max(65_535);
const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], 'must be true or false')
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

/** Every environment variable the server reads, with its default. The README's env table mirrors this. */
export const configSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: optionalUrl.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
    message: 'must start with postgres:// or postgresql://',
  }),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BITCOIN_NETWORK: z.enum(['mainnet', 'testnet', 'signet', 'regtest']).default('mainnet'),
  SUPPORT_EMAIL: z.email().default('support@example.com'),
  SUPPORT_HOURS: z.string().min(1).default('Mon-Fri 9:00 AM-6:00 PM GMT'),
  SMTP_URL: optionalUrl.refine((v) => v === undefined || /^smtps?:\/\//.test(v), {
    message: 'must start with smtp:// or smtps://',
  }),
  MAIL_OUTBOX: optionalUrl,
  MAIL_FROM: z.email().optional(),
  PUBLIC_URL: optionalUrl,
  SECRET_KEY: optionalUrl.refine((v) => v === undefined || /^[0-9a-fA-F]{64}$/.test(v), {
    message: 'must be 64 hexadecimal characters (32 bytes)',
  }),
  ADMIN_USERNAME: optionalUrl,
  ADMIN_EMAIL: optionalUrl,
  ADMIN_PASSWORD: optionalUrl,
  TRUST_PROXY: optionalUrl,
  RATE_LIMIT_LOGIN: z.coerce.number().int().min(1).max(100_000).default(10),
  RATE_LIMIT_REGISTER: z.coerce.number().int().min(1).max(100_000).default(20),
  RATE_LIMIT_REVIEWS: z.coerce.number().int().min(1).max(100_000).default(10),
  RATE_LIMIT_CONTACT: z.coerce.number().int().min(1).max(100_000).default(5),
  RATE_LIMIT_ESCROWS: z.coerce.number().int().min(1).max(100_000).default(20),
  /** The smallest escrow amount in USD, as cents. */
  MIN_ESCROW_USD: z
    .string()
    .trim()
    .regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be an amount in USD like 1.00')
    .refine((v) => /[1-9]/.test(v), 'must be more than 0')
    .default('1.00')
    .transform((v) => parseUsdToCents(v, 'MIN_ESCROW_USD')),
  /** Hours a replaced payout or refund address is held (no money goes to it) once the escrow is funded. */
  PAYOUT_ADDRESS_HOLD_HOURS: z.coerce.number().int().min(0).max(24 * 90).default(24),
  /** Whether admins must have 2FA on to use any admin power. */
  ADMIN_2FA_REQUIRED: flag.default(true),
  /** Password hashes computed at once; more wait their turn (briefly), then get 503. */
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** How long a password check may wait for its turn before 503. */
  PASSWORD_HASH_QUEUE_MS: z.coerce.number().int().min(0).max(60_000).default(3_000),
  PGP_PUBLIC_KEY_FILE: optionalUrl,
  /** log2 of scrypt's cost; 17 is OWASP's minimum. Lower only for tests. */
  PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(20).default(17),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  /** The bearer token a Prometheus scraper sends to GET /metrics on the main port; unset: refused there. */
  METRICS_TOKEN: optionalUrl.refine((v) => v === undefined || v.length >= 16, { message: 'must be at least 16 characters' }),
  /** A separate port serving only GET /metrics (with no token unless METRICS_TOKEN is set too); unset: none. */
  METRICS_PORT: port.optional(),
  /** The transparency log's name in its checkpoints and key; unset: the host and path of PUBLIC_URL, then `/log`. */
  TRANSPARENCY_ORIGIN: optionalUrl.refine((v) => v === undefined || /^[^\s+]+$/.test(v), { message: 'must have no spaces and no +' }),
  /** The key that signs checkpoints (64 hex, or a PRIVATE+KEY+… note key); unset: DATA_DIR/log-signing.key. */
  LOG_SIGNING_KEY: optionalUrl,
  /** Seconds between checkpoints, signed only when the log has grown. */
  CHECKPOINT_INTERVAL_S: z.coerce.number().int().min(1).max(86_400).default(60),
});

export type Config = z.infer<typeof configSchema>;

/** The address people reach the app at, for links in mail. */
export const publicUrl = (config: Config) => (config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`).replace(/\/$/, '');

/** Where mail goes without SMTP: MAIL_OUTBOX, else DATA_DIR/mail-outbox.jsonl. */
export const mailOutboxPath = (config: Config) =>
  config.MAIL_OUTBOX ?? `${config.DATA_DIR}/mail-outbox.jsonl`;

export class ConfigError extends Error {}

/** Reads the environment; a bad value throws one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = configSchema.safeParse(env);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const variable = String(issue.path[0] ?? 'environment');
  throw new ConfigError(`Invalid ${variable}=${JSON.stringify(env[variable] ?? '')}: ${issue.message}`);
}
