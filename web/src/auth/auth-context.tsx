import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { ApiError, api, sessionToken } from '../api/client.ts';
import type { CurrentUser } from '../api/types.ts';

interface Auth {
  user: CurrentUser | null;
  /** True while a stored session is being checked. */
  loading: boolean;
  /** True once the user signed out here (until the next sign-in): guarded pages then go to /, not to /login. */
  signedOut: boolean;
  signIn: (token: string) => Promise<void>;
  signOut: () => Promise<void>;
}

const AuthContext = createContext<Auth | null>(null);

/**
 * The signed-in user, from the stored session token through GET /api/auth/me. A token the server refuses is
 * removed (spec: a failed /auth/me removes the token).
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState(sessionToken.get);
  const [signedOut, setSignedOut] = useState(false);
  const me = useQuery({
    queryKey: ['me', token],
    enabled: Boolean(token),
    retry: (count, error) => !(error instanceof ApiError && error.status === 401) && count < 2,
    queryFn: async ({ signal }) => {
      try {
        return await api<CurrentUser>('/auth/me', { signal });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          sessionToken.clear();
          setToken(null);
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
      await queryClient.fetchQuery({ queryKey: ['me', next], queryFn: () => api<CurrentUser>('/auth/me') });
    },
    [queryClient],
  );
  const signOut = useCallback(async () => {
    // Forget the session here at once, then revoke it on the server; a network failure must not keep anyone signed in.
    const current = sessionToken.get();
    sessionToken.clear();
    setToken(null);
    setSignedOut(true);
    queryClient.clear();
    if (current) await api('/auth/logout', { method: 'POST', token: current }).catch(() => undefined);
  }, [queryClient]);

  const value = useMemo<Auth>(
    () => ({ user: token ? (me.data ?? null) : null, loading: Boolean(token) && me.isPending, signedOut, signIn, signOut }),
    [token, me.data, me.isPending, signedOut, signIn, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}
