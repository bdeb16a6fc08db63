import { createHash, randomBytes } from 'node:crypto';

/** A fresh opaque secret of 256 bits, URL-safe. */
export const newSecretToken = () => randomBytes(32).toString('base64url');

/** What is stored instead of a token: its SHA-256. The token itself is only ever in the client's hands. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
