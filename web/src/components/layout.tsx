import { Link, Outlet } from 'react-router-dom';
import { BrandMark } from './brand-mark.tsx';

export function Layout() {
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Link to="/" className="brand">
          <BrandMark />
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
