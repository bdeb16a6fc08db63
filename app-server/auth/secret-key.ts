import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The key that seals secrets at rest: SECRET_KEY (64 hex characters) when set, which every server of one
 * deployment must share; otherwise a key file made once under DATA_DIR, readable by its owner only.
 */
export function loadSecretKey(configured: string | undefined, dataDir: string): { key: Buffer; source: string } {
  if (configured) return { key: Buffer.from(configured, 'hex'), source: 'SECRET_KEY' };
  const path = join(dataDir, 'secret.key');
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(path, 0o600);
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
  if (key.length !== 32) throw new Error(`${path} must hold 64 hexadecimal characters`);
  return { key, source: path };
}
