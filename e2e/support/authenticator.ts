/**
 * The authenticator app, played by otplib with the server's parameters (RFC 6238: SHA-1, 6 digits, 30-second steps).
 * A code is accepted once, so a second code waits for the next step.
 */
import { generateSync } from 'otplib';

const STEP_SECONDS = 30;
const stepAt = (ms: number) => Math.floor(ms / 1000 / STEP_SECONDS);

/** The current code, waiting for the next step when this step's code was already used. */
export function authenticator(secret: string) {
  let lastStep = -1;
  return async (): Promise<string> => {
    while (stepAt(Date.now()) <= lastStep) await new Promise((r) => setTimeout(r, 500));
    const now = Date.now();
    lastStep = stepAt(now);
    return generateSync({ secret, epoch: Math.floor(now / 1000) });
  };
}

/** A six-digit code the app would not show now (nor in the steps next to it): for the refusal. */
export function wrongCode(secret: string): string {
  const epoch = Math.floor(Date.now() / 1000);
  const near = new Set([-1, 0, 1].map((k) => generateSync({ secret, epoch: epoch + k * STEP_SECONDS })));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}
