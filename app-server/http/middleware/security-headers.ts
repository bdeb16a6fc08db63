import type { MiddlewareHandler } from 'hono';
import { NONCE, secureHeaders } from 'hono/secure-headers';

const common = {
  xFrameOptions: 'DENY',
  referrerPolicy: 'no-referrer',
  xContentTypeOptions: 'nosniff',
  strictTransportSecurity: 'max-age=31536000; includeSubDomains',
  crossOriginResourcePolicy: 'same-origin',
} as const;

/**
 * Pages: a CSP with no inline script and nothing from another origin (QR codes are data: URLs drawn locally;
 * evidence images the console previews are blob: URLs of files it fetched with the session).
 * Style elements need the response's nonce: the web app's dialogs inject one (scroll lock), and index.html hands
 * the nonce to them.
 */
const pageHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", NONCE],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
  ...common,
});

/** API answers are data, never rendered: nothing may load from them, so one fixed policy and no nonce to make. */
const apiHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'none'"],
  },
  ...common,
});

/** Strict headers on every response: no framing, no MIME sniffing, no referrer leaks, a CSP for each kind. */
export const securityHeaders = (): MiddlewareHandler => (c, next) =>
  c.req.path.startsWith('/api/') && !isDocsPage(c.req.path) ? apiHeaders(c, next) : pageHeaders(c, next);

/** The API's documentation page and its files are a page (with the page CSP), though served under /api. */
const isDocsPage = (path: string) => path === '/api/docs' || path.startsWith('/api/docs/');
