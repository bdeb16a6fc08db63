import { HTTPException } from 'hono/http-exception';
import type { ZodError } from 'zod';
import { DomainError, type ErrorCode } from '../../domain/shared/errors.ts';

const statusByCode: Record<ErrorCode, number> = {
  invalid_input: 422,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  transition_not_allowed: 409,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  not_ready: 503,
};

export interface HttpError {
  status: number;
  /** Machine-readable: the DomainError's reason, else its code, else a code for the status. */
  code: string;
  detail: string;
  headers: Record<string, string>;
  /** True when the cause is ours (a bug or an outage), to be logged with its stack. */
  unexpected: boolean;
}

const DATABASE_DOWN = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '08006', '08001', '08003']);

/** What the driver says, without a code, when the server went away or no connection could be had in time. */
const CONNECTION_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

const codeForStatus = (status: number): string =>
  (Object.entries(statusByCode).find(([, s]) => s === status)?.[0] as ErrorCode | undefined) ?? 'invalid_input';

/** The one mapping from anything thrown to an HTTP status and a `detail`. No stack ever leaves the server. */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof DomainError) {
    return {
      status: statusByCode[error.code],
      code: error.reason ?? error.code,
      detail: error.detail,
      headers: { ...error.headers },
      unexpected: false,
    };
  }
  const code = (error as { code?: string } | null)?.code;
  if ((code && DATABASE_DOWN.has(code)) || CONNECTION_LOST.test((error as Error | null)?.message ?? '')) {
    return {
      status: 503,
      code: 'not_ready',
      detail: 'The database is unavailable; please try again shortly',
      headers: { 'Retry-After': '5' },
      unexpected: true,
    };
  }
  if (code === '40001' || code === '40P01') {
    return {
      status: 409,
      code: 'conflict',
      detail: 'A concurrent change got there first; please retry',
      headers: {},
      unexpected: false,
    };
  }
  const status = (error as { status?: number } | null)?.status;
  if (status === 413)
    return { status, code: 'payload_too_large', detail: 'Request body is too large', headers: {}, unexpected: false };
  if (error instanceof HTTPException && status && status >= 400 && status < 500) {
    const detail = status === 415 ? 'Unsupported content type for this call' : error.message || 'Bad request';
    return { status, code: codeForStatus(status), detail, headers: {}, unexpected: false };
  }
  return { status: 500, code: 'internal', detail: 'Internal error; it has been logged', headers: {}, unexpected: true };
}

/**
 * The detail for refused input: always `field: what is wrong` (contract.md section 4), whether the input came as
 * JSON, a form, a multipart upload or the query string. A message that already begins with its field's name
 * ('full_name is required') stands as it is; anything else, the schema's own sentence or zod's wording, gets the
 * field put in front ('confirm_password: Passwords do not match'). A field that is missing altogether reads `field: required`.
 */
export function describeZodError(error: ZodError, target = 'body'): string {
  if (target === 'json' || target === 'form') target = 'body';
  const issue = error.issues[0];
  if (!issue) return `${target}: invalid`;
  const field = issue.path.length ? issue.path.map(String).join('.') : target;
  const leaf = String(issue.path.at(-1) ?? target);
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) return `${field}: required`;
  if (issue.message.startsWith(`${field} `) || issue.message.startsWith(`${leaf} `)) return issue.message;
  return `${field}: ${issue.message}`;
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The first field of validated input holding text that cannot be kept: NUL, which PostgreSQL refuses in text and
 * JSON, or an unpaired surrogate, which is not Unicode and has no canonical JSON for the hash chain. A dotted
 * path ('' for the whole value), or undefined when all is well.
 */
export function unstorableField(value: unknown, path: readonly string[] = []): string | undefined {
  if (typeof value === 'string')
    return value.includes('\u0000') || UNPAIRED_SURROGATE.test(value) ? path.join('.') : undefined;
  if (value instanceof File) return unstorableField(value.name, path);
  if (value === null || typeof value !== 'object') return undefined;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const field = unstorableField(item, [...path, key]);
    if (field !== undefined) return field;
  }
  return undefined;
}
