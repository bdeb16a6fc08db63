import { NONCE, secureHeaders } from 'hono/secure-headers';

/**
 * Strict headers on every response: a CSP with no inline script and nothing from another origin (QR codes are
 * data: URLs drawn locally), no framing, no MIME sniffing, no referrer leaks. Style elements need the response's
 * nonce: the web app's dialogs inject one (scroll lock), and index.html hands the nonce to them.
 */
export const securityHeaders = () =>
  secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", NONCE],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: 'DENY',
    referrerPolicy: 'no-referrer',
    xContentTypeOptions: 'nosniff',
    strictTransportSecurity: 'max-age=31536000; includeSubDomains',
    crossOriginResourcePolicy: 'same-origin',
  });
