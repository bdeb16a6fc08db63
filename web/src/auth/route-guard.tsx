import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { Button } from '../components/ui/button.tsx';
import { Loading } from '../components/ui/loading.tsx';
import { useAuth } from './auth-context.tsx';
import type { LoginState } from './session-redirect.tsx';

/** Spec: 'Loading...' while the user loads; no user goes to /login (or to / right after a logout); a non-admin on an admin route goes to /. */
export function RequireUser({ admin = false, children }: { admin?: boolean; children: ReactNode }) {
  const { user, loading, checkFailed, recheck, signedOut } = useAuth();
  const location = useLocation();
  if (loading) return <Loading />;
  if (checkFailed) {
    // The service did not answer: the session may well be alive, so this is not a reason to sign in again.
    return (
      <div className="query-error" role="alert">
        <p>Could not reach the service to check your session. Check your connection and try again.</p>
        <Button variant="secondary" onClick={recheck}>
          Retry
        </Button>
      </div>
    );
  }
  if (!user && signedOut) return <Navigate to="/" replace />;
  if (!user)
    return <Navigate to="/login" replace state={{ from: location.pathname + location.search } satisfies LoginState} />;
  if (admin && user.role !== 'admin') return <Navigate to="/" replace />;
  return children;
}
