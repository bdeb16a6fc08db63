import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAuth } from './auth-context.tsx';

/** Where the sign-in page learns where to go back to (location state). */
export interface LoginState {
  from?: string;
}

/** The profile's change-password form, where a user whose password an admin reset must go first. */
export const CHANGE_PASSWORD_PATH = '/profile?tab=security';

/**
 * Acts on what the server said about the session on any call: an expired or revoked session goes to /login (which
 * says so while the notice stands, and returns to where the user was); leaving /login forgets the notice. A password
 * an admin reset keeps the user on the change-password form.
 */
export function SessionRedirect() {
  const { sessionNotice, acknowledgeExpiry } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const here = location.pathname + location.search;
  const onLogin = location.pathname === '/login';
  const wasOnLogin = useRef(onLogin);

  useEffect(() => {
    if (sessionNotice === 'expired' && !onLogin) {
      if (wasOnLogin.current) acknowledgeExpiry();
      else navigate('/login', { replace: true, state: { from: here } satisfies LoginState });
    } else if (sessionNotice === 'password_change_required' && here !== CHANGE_PASSWORD_PATH) {
      navigate(CHANGE_PASSWORD_PATH, { replace: true });
    }
    wasOnLogin.current = onLogin;
  }, [sessionNotice, acknowledgeExpiry, navigate, here, onLogin]);
  return null;
}
