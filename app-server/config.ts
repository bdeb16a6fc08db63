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
  /** Unpaid escrows one buyer may have holding a pool address at once (Make Payment, or opening one as buyer). */
  MAX_UNPAID_ESCROWS: z.coerce.number().int().min(1).max(100_000).default(3),
  /** The smallest escrow amount in USD, as cents. */
  MIN_ESCROW_USD: z
    .string()
    .trim()
    .regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be an amount in USD like 1.00')
    .refine((v) => /[1-9]/.test(v), 'must be more than 0')
    .default('1.00')
    .transform((v) => parseUsdToCents(v, 'MIN_ESCROW_USD')),
  /** Hours a replaced payout or refund address is held (no money goes to it), whatever the escrow's status. */
  PAYOUT_ADDRESS_HOLD_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 90)
    .default(24),
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
  /** A request body not received whole this long after the request came in is refused with 408. */
  BODY_READ_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  /** Evidence uploads read at once from one client address, and in all (past either: 429, 503). */
  UPLOADS_PER_CLIENT: z.coerce.number().int().min(1).max(1_000).default(2),
  UPLOADS_IN_ALL: z.coerce.number().int().min(1).max(10_000).default(16),
  /** A connection that has sent no request (or nothing since its last answer) is closed after this long. */
  HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  /** A request whose headers have not all arrived this long after its first byte is refused with 408. */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(20_000),
  /** The bearer token a Prometheus scraper sends to GET /metrics on the main port; unset: refused there. */
  METRICS_TOKEN: optionalUrl.refine((v) => v === undefined || v.length >= 16, {
    message: 'must be at least 16 characters',
  }),
  /** A separate port serving only GET /metrics (with no token unless METRICS_TOKEN is set too); unset: none. */
  METRICS_PORT: port.optional(),
  /** Whether webhooks may go to private, loopback and link-local addresses (a receiver on the operator's own network). */
  WEBHOOK_ALLOW_PRIVATE: flag.default(false),
  /**
   * Payment proofs on mainnet: the easiest target (compact "bits") a header may have. Default: block 840,000's. Tests
   * lower it to use older real blocks. Not judged on test networks.
   */
  MIN_WORK_BITS: z
    .string()
    .trim()
    .regex(/^(0x)?[0-9a-fA-F]{8}$/, 'must be a compact target like 0x17034219')
    .default('0x17034219')
    .transform((v) => Number.parseInt(v.replace(/^0x/, ''), 16))
    .refine(
      (bits) => (bits & 0x00800000) === 0 && (bits & 0x007fffff) !== 0 && bits >>> 24 <= 32,
      'encodes no valid target',
    ),
  /** Payment proofs on mainnet: headers needed, the block's own included. */
  MIN_CONFIRMATIONS: z.coerce.number().int().min(1).max(1000).default(3),
  /** Every payout and refund address must come with a BIP-322 signature proving its holder controls it. */
  PAYOUT_PROOF_REQUIRED: flag.default(false),
  /** Where `backup` writes by default and where `doctor` looks for the newest backup; unset: DATA_DIR/backups. */
  BACKUP_DIR: optionalUrl,
  /** `doctor` warns when the newest backup is older than this. */
  BACKUP_MAX_AGE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(26),
  /** The transparency log's name in its checkpoints and key; unset: the host and path of PUBLIC_URL, then `/log`. */
  TRANSPARENCY_ORIGIN: optionalUrl.refine((v) => v === undefined || /^[^\s+]+$/.test(v), {
    message: 'must have no spaces and no +',
  }),
  /** The key that signs checkpoints (64 hex, or a PRIVATE+KEY+… note key); unset: DATA_DIR/log-signing.key. */
  LOG_SIGNING_KEY: optionalUrl,
  /** Seconds between checkpoints, signed only when the log has grown. */
  CHECKPOINT_INTERVAL_S: z.coerce.number().int().min(1).max(86_400).default(60),
});

export type Config = z.infer<typeof configSchema>;

/** The address people reach the app at, for links in mail. */
export const publicUrl = (config: Config) =>
  (config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`).replace(/\/$/, '');

/** Where mail goes without SMTP: MAIL_OUTBOX, else DATA_DIR/mail-outbox.jsonl. */
export const mailOutboxPath = (config: Config) => config.MAIL_OUTBOX ?? `${config.DATA_DIR}/mail-outbox.jsonl`;

/** Where backups go unless `backup --out` says otherwise: BACKUP_DIR, else DATA_DIR/backups. */
export const backupDir = (config: Config) => config.BACKUP_DIR ?? `${config.DATA_DIR}/backups`;

export class ConfigError extends Error {}

/** Reads the environment; a bad value throws one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = configSchema.safeParse(env);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const variable = String(issue.path[0] ?? 'environment');
  throw new ConfigError(`Invalid ${shownValue(variable, env[variable] ?? '')}: ${issue.message}`);
}

/** Variables whose value is a secret as a whole: never written anywhere, not even when it is wrong. */
const SECRET_VARIABLES = new Set(['SECRET_KEY', 'METRICS_TOKEN', 'ADMIN_PASSWORD']);
/** Variables holding a URL that may carry a password. */
const URL_VARIABLES = new Set(['DATABASE_URL', 'SMTP_URL']);

/** A URL with any password in it replaced by `***` (for errors and logs). */
export const withoutPassword = (url: string) => url.replace(/^([^:/?#]*:\/\/[^/?#@]*?:)[^/?#]*@/, '$1***@');

/**
 * `text` with every secret of the environment in it replaced by `***`: SECRET_KEY, METRICS_TOKEN, ADMIN_PASSWORD and
 * the passwords in DATABASE_URL and SMTP_URL (as written and as percent-decoded). For a start-up failure's message,
 * which may come from a driver that quotes what it was given.
 */
export function scrubSecrets(text: string, env: NodeJS.ProcessEnv = process.env): string {
  const secrets = [...SECRET_VARIABLES].map((v) => env[v]);
  for (const v of URL_VARIABLES) {
    const password = /^[^:/?#]*:\/\/[^/?#@]*?:([^/?#]*)@/.exec(env[v] ?? '')?.[1];
    if (password) secrets.push(password, safeDecode(password));
  }
  let scrubbed = text;
  for (const secret of secrets) if (secret && secret.length >= 4) scrubbed = scrubbed.split(secret).join('***');
  return scrubbed;
}

const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** How a wrong value is named in the start-up error: secrets by their length only, URLs without their password. */
function shownValue(variable: string, value: string): string {
  if (SECRET_VARIABLES.has(variable)) return `${variable} (its value is not shown; ${value.length} characters)`;
  if (URL_VARIABLES.has(variable)) return `${variable}=${JSON.stringify(withoutPassword(value))}`;
  return `${variable}=${JSON.stringify(value)}`;
}
