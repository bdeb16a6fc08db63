import { useEffect } from 'react';
import { Link } from 'react-router-dom';

export function NotFoundPage() {
  useEffect(() => {
    document.title = 'Page not found — Escrow';
  }, []);
  return (
    <section className="panel narrow">
      <h1>Page not found</h1>
      <p>There is nothing at this address. It may have moved, or the link may be mistyped.</p>
      <Link className="button" to="/">
        Back to the home page
      </Link>
    </section>
  );
}
