import { Menu, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useSiteInfo } from '../api/site.ts';
import { useAuth } from '../auth/auth-context.tsx';
import { SessionRedirect } from '../auth/session-redirect.tsx';
import { BrandMark } from './brand-mark.tsx';

const publicLinks = [
  ['/about', 'About'],
  ['/how-it-works', 'How it works'],
  ['/reviews', 'Reviews'],
  ['/faq', 'FAQ'],
  ['/pgp-key', 'PGP key'],
  ['/contact', 'Contact'],
] as const;

function NavItem({ to, children }: { to: string; children: string }) {
  return (
    <NavLink to={to} className={({ isActive }) => `nav-link${isActive ? ' nav-link-active' : ''}`}>
      {children}
    </NavLink>
  );
}

/**
 * Spec: while the session is being checked the navigation says 'Loading...', never the signed-out links; when the
 * check fails for want of an answer, it says so (the page offers Retry).
 */
function CheckingSession({ failed }: { failed: boolean }) {
  return (
    <span className="nav-loading" role="status">
      {failed ? 'Offline' : 'Loading...'}
    </span>
  );
}

export function Layout() {
  const { user, loading, checkFailed, signOut } = useAuth();
  const site = useSiteInfo();
  const navigate = useNavigate();
  const location = useLocation();
  // The mobile menu belongs to the page it was opened on: navigating closes it.
  const [menuOpenAt, setMenuOpenAt] = useState<string | null>(null);
  const menuOpen = menuOpenAt === location.pathname;
  const menuToggle = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpenAt(null);
      menuToggle.current?.focus();
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [menuOpen]);

  const logout = () => {
    void signOut();
    navigate('/');
  };

  return (
    <div className="shell">
      <SessionRedirect />
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Link to={user ? '/dashboard' : '/'} className="brand">
          <BrandMark />
          Escrow
        </Link>
        <button
          ref={menuToggle}
          type="button"
          className="icon-button menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-nav"
          onClick={() => setMenuOpenAt(menuOpen ? null : location.pathname)}
        >
          {menuOpen ? <X aria-hidden="true" size={22} /> : <Menu aria-hidden="true" size={22} />}
          <span className="visually-hidden">Menu</span>
        </button>
        <nav id="site-nav" aria-label="Main" className={`site-nav${menuOpen ? ' site-nav-open' : ''}`}>
          {loading || checkFailed ? (
            <CheckingSession failed={checkFailed} />
          ) : user ? (
            <>
              <NavItem to="/dashboard">Dashboard</NavItem>
              <NavItem to="/profile">Profile</NavItem>
              {user.role === 'admin' && <NavItem to="/admin">Admin</NavItem>}
              <span className="nav-user" title={user.email}>
                Signed in as <strong>{user.username}</strong>
              </span>
              <button type="button" className="btn btn-secondary nav-button" onClick={logout}>
                Logout
              </button>
            </>
          ) : (
            <>
              {publicLinks.map(([to, label]) => (
                <NavItem key={to} to={to}>
                  {label}
                </NavItem>
              ))}
              <NavItem to="/login">Sign in</NavItem>
              <Link to="/register" className="btn btn-primary nav-button">
                Create account
              </Link>
            </>
          )}
        </nav>
      </header>
      <main id="main" className="site-main" tabIndex={-1}>
        <Outlet />
      </main>
      <footer className="site-footer">
        <div className="footer-grid">
          <div>
            <p className="footer-brand">
              <BrandMark /> Escrow
            </p>
            <p>Funds held by people you can reach, recorded in a ledger anyone can verify.</p>
          </div>
          <nav aria-label="Footer">
            <ul className="footer-links">
              {publicLinks.map(([to, label]) => (
                <li key={to}>
                  <Link to={to}>{label}</Link>
                </li>
              ))}
              <li>
                <Link to="/transparency">Transparency log</Link>
              </li>
              <li>
                {/* A page of the server, not of the app: a full page load. */}
                <a href="/api/docs">API</a>
              </li>
            </ul>
          </nav>
          {site.data && (
            <div>
              <p>
                Support: <a href={`mailto:${site.data.support_email}`}>{site.data.support_email}</a>
              </p>
              <p>Hours: {site.data.support_hours}</p>
            </div>
          )}
        </div>
      </footer>
    </div>
  );
}
