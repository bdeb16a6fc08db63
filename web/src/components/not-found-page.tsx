import { usePageMeta } from './page-meta.ts';
import { ButtonLink } from './ui/button.tsx';

export function NotFoundPage() {
  usePageMeta('Page not found', 'There is no page at this address.');
  return (
    <section className="card narrow center-block">
      <p className="eyebrow">404</p>
      <h1>Page not found</h1>
      <p>There is nothing at this address. It may have moved, or the link may be mistyped.</p>
      <ButtonLink to="/">Back to the home page</ButtonLink>
    </section>
  );
}
