/**
 * The one way the web app talks to the server: JSON in and out under /api, the bearer token from localStorage,
 * and every failure as an ApiError whose message is the server's `detail` (or the caller's fallback).
 */
const TOKEN_KEY = 'escrow.session';

export const sessionToken = {
  get: (): string | null => localStorage.getItem(TOKEN_KEY),
  set: (token: string) => localStorage.setItem(TOKEN_KEY, token),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

/**
 * What a refusal says about the session itself, whatever call it answered: `expired` (the stored token is no longer
 * accepted: expired, revoked by a logout elsewhere, a password change or a suspension) or `password_change_required`
 * (an admin reset the password: only the profile's change-password form works until it is changed).
 */
export type SessionProblem = 'expired' | 'password_change_required';
const sessionListeners = new Set<(problem: SessionProblem) => void>();

/** Subscribes to session problems seen on any call; returns the unsubscribe. */
export function onSessionProblem(listener: (problem: SessionProblem) => void): () => void {
  sessionListeners.add(listener);
  return () => sessionListeners.delete(listener);
}

export class ApiError extends Error {
  readonly status: number;
  /** The server's machine-readable `code` (e.g. `totp_required`); branch on this, never on the message. */
  readonly code: string | null;
  constructor(status: number, message: string, code: string | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as a form (urlencoded), or multipart when a FormData is given. */
  form?: Record<string, string> | FormData;
  /** Shown when the server gives no `detail` (spec's error catalogue). */
  fallback?: string;
  signal?: AbortSignal;
  /** Sent instead of the stored session (logout revokes a token it has already forgotten). */
  token?: string;
}

export async function api<T>(path: string, options: CallOptions = {}): Promise<T> {
  const headers = new Headers();
  const token = options.token ?? sessionToken.get();
  if (token) headers.set('authorization', `Bearer ${token}`);
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(options.json);
  } else if (options.form instanceof FormData) {
    body = options.form;
  } else if (options.form) {
    body = new URLSearchParams(options.form);
  }
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method: options.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, options.fallback ?? 'Cannot reach the service. Check your connection and try again.');
  }
  const data = (await res.json().catch(() => null)) as (T & { detail?: unknown; code?: unknown }) | null;
  if (!res.ok) {
    const detail = data && typeof data.detail === 'string' ? data.detail : null;
    const code = data && typeof data.code === 'string' ? data.code : null;
    const sentStoredToken = Boolean(token) && options.token === undefined;
    const sessionRefused =
      res.status === 401 && (code === null || code === 'unauthenticated') && path !== '/auth/login';
    if (sentStoredToken && sessionRefused && token === sessionToken.get()) {
      sessionToken.clear();
      sessionListeners.forEach((listener) => listener('expired'));
    } else if (sentStoredToken && code === 'password_change_required') {
      sessionListeners.forEach((listener) => listener('password_change_required'));
    }
    throw new ApiError(res.status, detail ?? options.fallback ?? `Request failed (${res.status})`, code);
  }
  return data as T;
}

/** The message to show for anything a call threw. */
export const messageOf = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : fallback);
