import { Link, Outlet } from 'react-router-dom';

export function Layout() {
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true">
            ₿
          </span>
          Escrow
        </Link>
      </header>
      <main id="main" className="site-main">
        <Outlet />
      </main>
      <footer className="site-footer">
        <p>Funds held by people you can reach, recorded in a ledger anyone can verify.</p>
      </footer>
    </div>
  );
}
