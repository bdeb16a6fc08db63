import { generateSecret, generateSync, generateURI, verifySync } from 'otplib';

const STEP_SECONDS = 30;

export const newTotpSecret = () => generateSecret();

export function totpUri(secret: string, account: string, issuer: string): string {
  return generateURI({ issuer, label: account, secret });
}

/** A PNG of the otpauth URI as a data: URL, drawn here: no QR service is called. */
export const totpQrDataUrl = async (uri: string) =>
  (await import('qrcode')).default.toDataURL(uri, { margin: 1, width: 240 });

/**
 * Checks a 6-digit code at `now` with one 30-second step of tolerance each way. A step at or before
 * `lastUsedStep` is refused, so a code is accepted once only; returns the step that matched.
 */
export function checkTotp(secret: string, code: string, lastUsedStep: number | null, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const result = verifySync({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: STEP_SECONDS,
    ...(lastUsedStep !== null ? { afterTimeStep: lastUsedStep } : {}),
  });
  return result.valid ? (result as { timeStep: number }).timeStep : null;
}

/** The current code (tests and the end-to-end script act as the authenticator app). */
export const totpCodeAt = (secret: string, at: Date) =>
  generateSync({ secret, epoch: Math.floor(at.getTime() / 1000) });
