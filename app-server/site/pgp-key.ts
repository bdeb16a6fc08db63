import { readFile } from 'node:fs/promises';
import type { PgpKeyInfo } from '../../contract/site.ts';

const algorithmNames: Record<string, string> = {
  rsaEncryptSign: 'RSA',
  rsaSign: 'RSA',
  rsaEncrypt: 'RSA',
  dsa: 'DSA',
  ecdsa: 'ECDSA',
  eddsaLegacy: 'EdDSA',
  ed25519: 'Ed25519',
  ed448: 'Ed448',
};

/** Reads the support key and what the page shows of it, straight from the key (never typed by hand). */
export async function readPgpKey(path: string): Promise<PgpKeyInfo> {
  const armored = (await readFile(path, 'utf8')).trim();
  const { readKey } = await import('openpgp'); // loaded only where a key is configured: a faster start
  const key = await readKey({ armoredKey: armored });
  if (key.isPrivate()) throw new Error('PGP_PUBLIC_KEY_FILE holds a private key; configure the public key only');
  const { algorithm, bits, curve } = key.getAlgorithmInfo();
  const name = algorithmNames[algorithm] ?? algorithm;
  const user = await key.getPrimaryUser().catch(() => null);
  return {
    armored,
    key_type: bits ? `${name} ${bits}-bit` : `${name}${curve ? ` (${curve})` : ''}`,
    key_id: key.getKeyID().toHex().toUpperCase(),
    fingerprint: key
      .getFingerprint()
      .toUpperCase()
      .replace(/(.{4})(?!$)/g, '$1 '),
    user_id: user?.user.userID?.userID ?? null,
    created_at: key.getCreationTime().toISOString(),
  };
}
