import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ApiError, api, onSessionProblem, sessionToken } from '../api/client.ts';
import type { Me as CurrentUser } from '../../../contract/users.ts';
import { retryDelay, retryTransient } from '../lib/query-retry.ts';

/** Why the user is not (fully) signed in any more, when the server said so; null when nothing went wrong. */
export type SessionNotice = 'expired' | 'password_change_required' | null;

interface Auth {
  user: CurrentUser | null;
  /** True while a stored session is being checked. */
  loading: boolean;
  /** The stored session could not be checked (the service is unreachable or failing); the session is kept. */
  checkFailed: boolean;
  /** Checks the stored session again after a failure. */
  recheck: () => void;
  /** True once the user signed out here (until the next sign-in): guarded pages then go to /, not to /login. */
  signedOut: boolean;
  /**
   * `expired`: a call with the stored session was refused (expired, revoked elsewhere, password changed); the
   * session is gone. `password_change_required`: an admin reset the password; only changing it works.
   */
  sessionNotice: SessionNotice;
  signIn: (token: string) => Promise<void>;
  signOut: () => Promise<void>;
  /** After the password was changed: the session works fully again. */
  passwordChanged: () => void;
  /** The sign-in page has said the session ended, and the user moved on: forget the notice. */
  acknowledgeExpiry: () => void;
}

const AuthContext = createContext<Auth | null>(null);

/** No answer, or the service failing (5xx): the session may be fine. */
const isOutage = (error: unknown) => !(error instanceof ApiError) || error.status === 0 || error.status >= 500;

export const meQueryKey = ['me'] as const;

/**
 * The signed-in user, from the stored session token through GET /api/auth/me. A token the server refuses on any
 * call is removed (spec: a failed /auth/me removes the token) and the session notice says why.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState(sessionToken.get);
  const [signedOut, setSignedOut] = useState(false);
  const [sessionNotice, setSessionNotice] = useState<SessionNotice>(null);

  useEffect(
    () =>
      onSessionProblem((problem) => {
        if (problem === 'expired') {
          setToken(null);
          queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'me' });
        }
        setSessionNotice(problem);
      }),
    [queryClient],
  );

  const me = useQuery({
    queryKey: [...meQueryKey, token],
    enabled: Boolean(token),
    // Only an unanswered or failing service is worth asking again; a refusal is an answer.
    retry: retryTransient,
    retryDelay,
    queryFn: async ({ signal }) => {
      try {
        return await api<CurrentUser>('/auth/me', { signal });
      } catch (error) {
        // A 401 is handled by the API client for every call; any other refusal of the session itself (a suspended
        // account: 403) ends it here too, so the user is asked to sign in (and sign-in says why) instead of waiting.
        if (error instanceof ApiError && !isOutage(error) && error.status !== 401) {
          sessionToken.clear();
          setToken(null);
          setSessionNotice('expired');
        }
        throw error;
      }
    },
  });

  const signIn = useCallback(
    async (next: string) => {
      sessionToken.set(next);
      setToken(next);
      setSignedOut(false);
      setSessionNotice(null);
      await queryClient.fetchQuery({ queryKey: [...meQueryKey, next], queryFn: () => api<CurrentUser>('/auth/me') });
    },
    [queryClient],
  );
  const signOut = useCallback(async () => {
    // Forget the session here at once, then revoke it on the server; a network failure must not keep anyone signed in.
    const current = sessionToken.get();
    sessionToken.clear();
    setToken(null);
    setSignedOut(true);
    setSessionNotice(null);
    queryClient.clear();
    if (current) await api('/auth/logout', { method: 'POST', token: current }).catch(() => undefined);
  }, [queryClient]);
  const passwordChanged = useCallback(() => {
    setSessionNotice((notice) => (notice === 'password_change_required' ? null : notice));
    void queryClient.invalidateQueries();
  }, [queryClient]);

  const refetchMe = me.refetch;
  const recheck = useCallback(() => void refetchMe(), [refetchMe]);
  const acknowledgeExpiry = useCallback(() => setSessionNotice((notice) => (notice === 'expired' ? null : notice)), []);

  const value = useMemo<Auth>(
    () => ({
      user: token ? (me.data ?? null) : null,
      loading: Boolean(token) && me.isPending,
      checkFailed: Boolean(token) && me.isError && !me.data && isOutage(me.error),
      recheck,
      signedOut,
      sessionNotice,
      signIn,
      signOut,
      passwordChanged,
      acknowledgeExpiry,
    }),
    [
      token,
      me.data,
      me.isPending,
      me.isError,
      me.error,
      recheck,
      signedOut,
      sessionNotice,
      signIn,
      signOut,
      passwordChanged,
      acknowledgeExpiry,
    ],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}
