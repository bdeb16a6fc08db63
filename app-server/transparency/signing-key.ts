import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fromHex, toHex } from '../../domain/transparency/merkle.ts';
import { newSeed, parseSignerKey } from '../../domain/transparency/note.ts';

/**
 * The Ed25519 key that signs the transparency log's checkpoints: LOG_SIGNING_KEY when set (64 hex characters, or a
 * note signer key `PRIVATE+KEY+…` as golang.org/x/mod/sumdb/note writes it), which every server of one deployment
 * must share; otherwise `DATA_DIR/log-signing.key`, made at the first start, readable by its owner only (as
 * `secret.key` is). Never logged, never in an event or an export: only its public key is published.
 */
export interface LogSigningKey {
  seed: Uint8Array;
  /** Where it came from, to say so in a log line (never the key). */
  source: string;
}

export const logSigningKeyPath = (dataDir: string) => join(dataDir, 'log-signing.key');

export function parseLogSigningKey(text: string): Uint8Array | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return fromHex(trimmed.toLowerCase());
  return parseSignerKey(trimmed)?.seed ?? null;
}

export function loadLogSigningKey(configured: string | undefined, dataDir: string): LogSigningKey {
  if (configured) {
    const seed = parseLogSigningKey(configured);
    if (!seed) throw new Error('LOG_SIGNING_KEY must be 64 hexadecimal characters or a PRIVATE+KEY+… note signer key');
    return { seed, source: 'LOG_SIGNING_KEY' };
  }
  const path = logSigningKeyPath(dataDir);
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    try {
      writeFileSync(path, `${toHex(newSeed())}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process made it first: use theirs.
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
  }
  chmodSync(path, 0o600);
  const seed = parseLogSigningKey(readFileSync(path, 'utf8'));
  if (!seed) throw new Error(`${path} must hold 64 hexadecimal characters`);
  return { seed, source: path };
}

/** Replaces the key file with a new key (the old one is not kept: a rotation may follow its exposure). */
export function replaceLogSigningKeyFile(dataDir: string): LogSigningKey {
  const path = logSigningKeyPath(dataDir);
  const next = `${path}.new`;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(next, `${toHex(newSeed())}\n`, { mode: 0o600 });
  renameSync(next, path);
  return loadLogSigningKey(undefined, dataDir);
}
