/**
 * Every refusal the domain or the application can give carries one of these codes. The HTTP layer maps a code to
 * a status in exactly one place; nothing else builds an error body.
 */
export type ErrorCode =
  | 'invalid_input' // 400/422: bad input; the detail names the field
  | 'unauthenticated' // 401
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409: duplicate, concurrent change
  | 'transition_not_allowed' // 409: the state machine refused
  | 'request_timeout' // 408: the body did not arrive in time
  | 'payload_too_large' // 413
  | 'unsupported_media_type' // 415
  | 'rate_limited' // 429
  | 'not_ready'; // 503

/**
 * A finer, machine-readable reason where a client must tell refusals of one status apart (the sign-in form asks for a
 * code on `totp_required`, not on any 401). Sent as the error body's `code`; the HTTP status still follows `code`.
 */
export type ErrorReason =
  | 'totp_required'
  | 'totp_invalid'
  | 'totp_locked'
  | 'admin_totp_not_enabled'
  | 'email_unverified'
  | 'address_changed'
  | 'password_change_required'
  | 'setup_link_invalid'
  | 'unpaid_escrow_limit';

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly detail: string;
  /** Extra response headers (e.g. Retry-After); never secrets. */
  readonly headers: Readonly<Record<string, string>>;
  readonly reason: ErrorReason | undefined;

  constructor(code: ErrorCode, detail: string, headers: Record<string, string> = {}, reason?: ErrorReason) {
    super(detail);
    this.name = 'DomainError';
    this.code = code;
    this.detail = detail;
    this.headers = headers;
    this.reason = reason;
  }
}

export const invalidInput = (detail: string) => new DomainError('invalid_input', detail);
export const notFound = (detail: string) => new DomainError('not_found', detail);
export const forbidden = (detail: string) => new DomainError('forbidden', detail);
export const conflict = (detail: string) => new DomainError('conflict', detail);
export const transitionNotAllowed = (detail: string) => new DomainError('transition_not_allowed', detail);
