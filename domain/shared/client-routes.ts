/**
 * The web app's pages, as react-router paths: the one list the server and the web app's router share. The server
 * answers these with the app (200) and any other path with the app's not-found page under a 404, so a crawler or a
 * monitor sees a missing page as missing. A page added to web/src/app/router.tsx goes here too (a test holds the
 * router to this list).
 */
export const CLIENT_ROUTES = [
  '/',
  '/about',
  '/transparency',
  '/how-it-works',
  '/faq',
  '/reviews',
  '/pgp-key',
  '/contact',
  '/login',
  '/register',
  '/verify-email',
  '/setup',
  '/dashboard',
  '/escrow/:id',
  '/profile',
  '/admin',
] as const;

const matchers = CLIENT_ROUTES.map((route) => {
  const pattern = route
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern}/?$`);
});

/** True when the path (no query string) is one of the app's pages. */
export const isClientRoute = (pathname: string) => matchers.some((matcher) => matcher.test(pathname));
