import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { fromBase64, toBase64, toHex, fromHex, type Hash, HASH_SIZE } from './merkle.ts';

/**
 * C2SP signed-note (Ed25519 only) and C2SP tlog-checkpoint: the signed statement "the log named ORIGIN has SIZE
 * leaves and this root". Pure and browser-safe; a note made here is one `golang.org/x/mod/sumdb/note` verifies.
 */

const ED25519 = 0x01;
const encoder = new TextEncoder();

/** A key name: non-empty, no spaces, no '+'. */
export const validKeyName = (name: string) => name.length > 0 && !/[\s+]/u.test(name);

/** SHA-256(name || 0x0A || 0x01 || public key)[:4]. */
export function keyId(name: string, publicKey: Uint8Array): Uint8Array {
  const nameBytes = encoder.encode(name);
  const input = new Uint8Array(nameBytes.length + 2 + publicKey.length);
  input.set(nameBytes);
  input[nameBytes.length] = 0x0a;
  input[nameBytes.length + 1] = ED25519;
  input.set(publicKey, nameBytes.length + 2);
  return sha256(input).slice(0, 4);
}

/** The verifier key `name+hex(key id)+base64(0x01 || public key)` that note.NewVerifier reads. */
export function verifierKey(name: string, publicKey: Uint8Array): string {
  if (!validKeyName(name)) throw new Error(`"${name}" is not a key name (no spaces, no +)`);
  const body = new Uint8Array(1 + publicKey.length);
  body[0] = ED25519;
  body.set(publicKey, 1);
  return `${name}+${toHex(keyId(name, publicKey))}+${toBase64(body)}`;
}

export interface Verifier {
  name: string;
  id: Uint8Array;
  publicKey: Uint8Array;
}

/** Reads a vkey; null when it is not a well-formed Ed25519 vkey whose id matches its key. */
export function parseVerifierKey(vkey: string): Verifier | null {
  // The base64 key may hold '+' itself: the name and the id are the first two fields.
  const parts = splitFields(vkey.trim(), 3);
  if (!parts) return null;
  const [name, idHex, keyText] = parts as [string, string, string];
  const id = fromHex(idHex);
  const body = fromBase64(keyText);
  if (
    !name ||
    !idHex ||
    !keyText ||
    !validKeyName(name) ||
    !id ||
    id.length !== 4 ||
    !body ||
    body.length !== 33 ||
    body[0] !== ED25519
  )
    return null;
  const publicKey = body.slice(1);
  if (toHex(keyId(name, publicKey)) !== idHex) return null;
  return { name, id, publicKey };
}

/** Ed25519 public key of a 32-byte secret seed. */
export const publicKeyOf = (seed: Uint8Array): Uint8Array => ed25519.getPublicKey(seed);

/** A fresh 32-byte Ed25519 seed. */
export const newSeed = (): Uint8Array => ed25519.utils.randomSecretKey();

/** An Ed25519 key that signs notes: its public key and its signature of a message. */
export interface NoteSigner {
  publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

/** A signer in portable code (the browser, tests); the server signs with node:crypto (the same signatures, faster). */
export const portableSigner = (seed: Uint8Array): NoteSigner => ({
  publicKey: publicKeyOf(seed),
  sign: (message) => ed25519.sign(message, seed),
});

/** Signs `text` (which ends with a newline) as a note with one signature line, by a seed or a signer. */
export function signNote(text: string, name: string, key: Uint8Array | NoteSigner): string {
  if (!text.endsWith('\n') || text.includes('\n\n'))
    throw new Error('a note text ends with a newline and has no blank line');
  const signer = key instanceof Uint8Array ? portableSigner(key) : key;
  const signature = signer.sign(encoder.encode(text));
  const blob = new Uint8Array(4 + signature.length);
  blob.set(keyId(name, signer.publicKey));
  blob.set(signature, 4);
  return `${text}\n\u2014 ${name} ${toBase64(blob)}\n`;
}

export type OpenedNote = { ok: true; text: string } | { ok: false; reason: string };

/**
 * Checks a signed note against one verifier key: well-formed, and at least one signature line by that key (name and
 * id) whose Ed25519 signature over the text is valid. Lines signed by other keys are ignored, as the spec says.
 */
export function openNote(note: string, verifier: Verifier): OpenedNote {
  if (!note.endsWith('\n')) return { ok: false, reason: 'the note does not end with a newline' };
  const split = note.lastIndexOf('\n\n');
  if (split < 0) return { ok: false, reason: 'the note has no signature block' };
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  const message = encoder.encode(text);
  let tried = false;
  for (const line of lines) {
    const match = /^\u2014 (\S+) (\S+)$/u.exec(line);
    if (!match) return { ok: false, reason: 'a signature line is malformed' };
    const blob = fromBase64(match[2]!);
    if (!blob || blob.length < 5) return { ok: false, reason: 'a signature is not base64' };
    if (match[1] !== verifier.name || toHex(blob.slice(0, 4)) !== toHex(verifier.id)) continue;
    tried = true;
    const signature = blob.slice(4);
    if (signature.length === 64 && ed25519.verify(signature, message, verifier.publicKey, { zip215: false }))
      return { ok: true, text };
  }
  return {
    ok: false,
    reason: tried ? 'the signature does not verify with the key' : `no signature by the key ${verifier.name}`,
  };
}

/** A tlog-checkpoint's body. */
export interface Checkpoint {
  origin: string;
  size: number;
  root: Hash;
}

/** `origin\nsize\nbase64(root)\n`. */
export function checkpointText(checkpoint: Checkpoint): string {
  return `${checkpoint.origin}\n${checkpoint.size}\n${toBase64(checkpoint.root)}\n`;
}

/** Reads a checkpoint's text (extension lines after the third are allowed and ignored); null when malformed. */
export function parseCheckpointText(text: string): Checkpoint | null {
  const lines = text.split('\n');
  if (lines.length < 4 || lines.at(-1) !== '') return null;
  const [origin, sizeText, rootText] = lines as [string, string, string];
  if (!origin || !/^(0|[1-9][0-9]{0,15})$/.test(sizeText)) return null;
  const size = Number(sizeText);
  const root = fromBase64(rootText);
  if (!Number.isSafeInteger(size) || !root || root.length !== HASH_SIZE) return null;
  return { origin, size, root };
}

export type CheckedCheckpoint = { ok: true; checkpoint: Checkpoint } | { ok: false; reason: string };

/** A signed checkpoint note checked against `vkey`: its signature, then its body; the origin must be the key name. */
export function verifyCheckpoint(note: string, vkey: string): CheckedCheckpoint {
  const verifier = parseVerifierKey(vkey);
  if (!verifier) return { ok: false, reason: 'the verifier key is malformed' };
  const opened = openNote(note, verifier);
  if (!opened.ok) return opened;
  const checkpoint = parseCheckpointText(opened.text);
  if (!checkpoint) return { ok: false, reason: 'the note is not a checkpoint (origin, size, root hash)' };
  if (checkpoint.origin !== verifier.name)
    return { ok: false, reason: `the checkpoint's origin ${checkpoint.origin} is not the key's name ${verifier.name}` };
  return { ok: true, checkpoint };
}

/** The notes in a text holding one or more, each ending at its signature block. */
export function splitNotes(text: string): string[] {
  const notes: string[] = [];
  let current: string[] = [];
  let inSignatures = false;
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    if (inSignatures && !line.startsWith('\u2014 ')) {
      notes.push(`${current.join('\n')}\n`);
      current = [];
      inSignatures = false;
    }
    if (line === '' && current.length === 0) continue;
    if (line === '' && !inSignatures) inSignatures = true;
    current.push(line);
  }
  if (current.length) notes.push(`${current.join('\n')}\n`);
  return notes;
}

/** The signer key `PRIVATE+KEY+name+hex(key id)+base64(0x01 || seed)` that note.NewSigner reads. */
export function signerKey(name: string, seed: Uint8Array): string {
  const body = new Uint8Array(33);
  body[0] = ED25519;
  body.set(seed, 1);
  return `PRIVATE+KEY+${name}+${toHex(keyId(name, publicKeyOf(seed)))}+${toBase64(body)}`;
}

/** Reads a signer key; null when malformed or when its id does not match its key. */
export function parseSignerKey(skey: string): { name: string; seed: Uint8Array } | null {
  const parts = splitFields(skey.trim(), 5);
  if (!parts || parts[0] !== 'PRIVATE' || parts[1] !== 'KEY') return null;
  const [, , name, idHex, keyText] = parts as [string, string, string, string, string];
  const body = fromBase64(keyText);
  if (!name || !idHex || !keyText || !validKeyName(name) || !body || body.length !== 33 || body[0] !== ED25519)
    return null;
  const seed = body.slice(1);
  return toHex(keyId(name, publicKeyOf(seed))) === idHex ? { name, seed } : null;
}

/** `count` '+'-separated fields, the last taking the rest of the text; null when there are fewer. */
function splitFields(text: string, count: number): string[] | null {
  const fields: string[] = [];
  let rest = text;
  for (let i = 1; i < count; i++) {
    const at = rest.indexOf('+');
    if (at < 0) return null;
    fields.push(rest.slice(0, at));
    rest = rest.slice(at + 1);
  }
  fields.push(rest);
  return fields;
}
