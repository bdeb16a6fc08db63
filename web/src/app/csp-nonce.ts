import { setNonce } from 'get-nonce';

/** Hands the response's CSP nonce (put in index.html by the server) to libraries that inject <style> elements. */
export function adoptCspNonce(): void {
  const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
  if (nonce) setNonce(nonce);
}
