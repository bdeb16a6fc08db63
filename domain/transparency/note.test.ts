import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { EMPTY_ROOT, fromBase64, toBase64, toHex } from './merkle.ts';
import {
  checkpointText,
  keyId,
  newSeed,
  openNote,
  parseCheckpointText,
  parseSignerKey,
  parseVerifierKey,
  publicKeyOf,
  signerKey,
  signNote,
  splitNotes,
  verifierKey,
  verifyCheckpoint,
} from './note.ts';

const vectors = JSON.parse(readFileSync(join(import.meta.dirname, 'testdata/signed-note/vectors.json'), 'utf8')) as {
  verify: { vkey: string; note: string; text: string }[];
  sign: { skey: string; vkey: string; text: string; note: string }[];
};

describe('C2SP signed-note', () => {
  it.each(vectors.verify)('verifies the published example by $vkey', ({ vkey, note, text }) => {
    const verifier = parseVerifierKey(vkey)!;
    expect(verifier).not.toBeNull();
    expect(openNote(note, verifier)).toEqual({ ok: true, text });
    expect(openNote(note.replace('example message', 'example massage'), verifier).ok).toBe(false);
  });

  it.each(vectors.sign)('signs exactly as golang.org/x/mod/sumdb/note does', ({ skey, vkey, text, note }) => {
    const signer = parseSignerKey(skey)!;
    expect(signer.name).toBe('PeterNeumann');
    expect(verifierKey(signer.name, publicKeyOf(signer.seed))).toBe(vkey);
    expect(signerKey(signer.name, signer.seed)).toBe(skey);
    expect(signNote(text, signer.name, signer.seed)).toBe(note);
    expect(openNote(note, parseVerifierKey(vkey)!)).toEqual({ ok: true, text });
  });

  it('refuses mangled keys and notes', () => {
    const { vkey, note } = vectors.sign[0]!;
    expect(parseVerifierKey(vkey.replace('c74f20a3', 'c74f20a4'))).toBeNull();
    expect(parseVerifierKey(vkey.replace('ARpc', 'ZRpc'))).toBeNull();
    expect(parseVerifierKey(`${vkey}+x`)).toBeNull();
    expect(parseSignerKey(vectors.sign[0]!.skey.replace('AYEK', 'AYEL'))).toBeNull();
    const verifier = parseVerifierKey(vkey)!;
    expect(openNote(note.slice(0, -1), verifier).ok).toBe(false);
    expect(openNote(note.replace('— PeterNeumann', '— Other'), verifier)).toEqual({
      ok: false,
      reason: 'no signature by the key PeterNeumann',
    });
    const other = parseVerifierKey(verifierKey('PeterNeumann', publicKeyOf(newSeed())))!;
    expect(openNote(note, other).ok).toBe(false);
  });
});

describe('C2SP tlog-checkpoint', () => {
  it('reads the published example and writes the same text', () => {
    const text = 'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';
    const checkpoint = parseCheckpointText(text)!;
    expect(checkpoint.size).toBe(20852163);
    expect(checkpointText(checkpoint)).toBe(text);
    expect(parseCheckpointText('o\n01\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n')).toBeNull();
    expect(parseCheckpointText('o\n1\nCsUYap==\n')).toBeNull();
  });

  it('signs a checkpoint that verifies with its key and origin only', () => {
    const seed = newSeed();
    const origin = 'escrow.example/log';
    const vkey = verifierKey(origin, publicKeyOf(seed));
    const note = signNote(checkpointText({ origin, size: 7, root: EMPTY_ROOT }), origin, seed);
    const checked = verifyCheckpoint(note, vkey);
    expect(checked.ok && checked.checkpoint.size).toBe(7);
    expect(checked.ok && toHex(checked.checkpoint.root)).toBe(toHex(EMPTY_ROOT));
    const elsewhere = signNote(
      checkpointText({ origin: 'other.example/log', size: 7, root: EMPTY_ROOT }),
      origin,
      seed,
    );
    expect(verifyCheckpoint(elsewhere, vkey).ok).toBe(false);
    expect(verifyCheckpoint(note.replace('\n7\n', '\n8\n'), vkey).ok).toBe(false);
  });

  it('splits a file of several notes', () => {
    const seed = newSeed();
    const a = signNote('o\n1\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n', 'o', seed);
    const b = signNote('o\n2\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n', 'o', seed);
    expect(splitNotes(`${a}\n${b}`)).toEqual([a, b]);
    expect(splitNotes(a + b)).toEqual([a, b]);
  });
});

describe('C2SP keys, field by field', () => {
  const seed = new Uint8Array(32).fill(5);
  const publicKey = publicKeyOf(seed);
  /** A vkey written by hand, its key id made right for whatever name and body it holds. */
  const handVkey = (name: string, body: Uint8Array) => `${name}+${toHex(keyId(name, body.slice(1)))}+${toBase64(body)}`;
  const withPrefix = (prefix: number, key: Uint8Array) => new Uint8Array([prefix, ...key]);
  /** A signer key written by hand, its key id made from the public key of `seed`. */
  const handSkey = (head: string, name: string, body: Uint8Array, seedForId = body.slice(1)) =>
    `${head}+${name}+${toHex(keyId(name, publicKeyOf(seedForId)))}+${toBase64(body)}`;

  it('derives the key id as SHA-256(name, newline, 0x01, key)[:4]', () => {
    const { vkey } = vectors.sign[0]!;
    const verifier = parseVerifierKey(vkey)!;
    expect(toHex(keyId('PeterNeumann', verifier.publicKey))).toBe('c74f20a3');
    expect(toHex(verifier.id)).toBe('c74f20a3');
    expect(verifier.name).toBe('PeterNeumann');
    const expected = sha256(
      new Uint8Array([...new TextEncoder().encode('PeterNeumann'), 0x0a, 0x01, ...verifier.publicKey]),
    );
    expect(toHex(keyId('PeterNeumann', verifier.publicKey))).toBe(toHex(expected.slice(0, 4)));
  });

  it('refuses to name a key with no name, a space or a +', () => {
    expect(() => verifierKey('', publicKey)).toThrow('"" is not a key name (no spaces, no +)');
    expect(() => verifierKey('escrow log', publicKey)).toThrow('"escrow log" is not a key name (no spaces, no +)');
    expect(() => verifierKey('escrow+log', publicKey)).toThrow('"escrow+log" is not a key name (no spaces, no +)');
    expect(() => verifierKey('escrow\tlog', publicKey)).toThrow('is not a key name');
    expect(verifierKey('e', publicKey)).toMatch(/^e\+[0-9a-f]{8}\+/);
  });

  it('reads a vkey with spaces or a newline around it', () => {
    const vkey = verifierKey('escrow.example/log', publicKey);
    expect(parseVerifierKey(` ${vkey}\n`)).toEqual({
      name: 'escrow.example/log',
      id: keyId('escrow.example/log', publicKey),
      publicKey,
    });
  });

  it('refuses a vkey with a bad name, a short or long key, or another algorithm, even with its id made to fit', () => {
    expect(parseVerifierKey(handVkey('escrow.example/log', withPrefix(1, publicKey)))).not.toBeNull();
    expect(parseVerifierKey('escrow.example/log')).toBeNull();
    expect(parseVerifierKey('escrow.example/log+c74f20a3')).toBeNull();
    expect(parseVerifierKey(handVkey('escrow log', withPrefix(1, publicKey)))).toBeNull();
    expect(parseVerifierKey(handVkey('', withPrefix(1, publicKey)))).toBeNull();
    expect(parseVerifierKey(handVkey('escrow', withPrefix(1, publicKey.slice(1))))).toBeNull();
    expect(parseVerifierKey(handVkey('escrow', withPrefix(1, new Uint8Array([...publicKey, 0]))))).toBeNull();
    expect(parseVerifierKey(handVkey('escrow', withPrefix(2, publicKey)))).toBeNull();
    const good = handVkey('escrow', withPrefix(1, publicKey));
    expect(parseVerifierKey(good.replace(/\+[0-9a-f]{8}\+/, (m) => m.toUpperCase()))).toBeNull();
    expect(parseVerifierKey(good.replace(/\+[0-9a-f]{8}\+/, (m) => m.slice(0, 7) + '+'))).toBeNull();
    expect(parseVerifierKey(good.replace(/\+[0-9a-f]{8}\+/, '++'))).toBeNull();
    expect(parseVerifierKey(`${good.slice(0, good.lastIndexOf('+') + 1)}not-base64`)).toBeNull();
    expect(parseVerifierKey(`${good.slice(0, good.lastIndexOf('+') + 1)}`)).toBeNull();
  });

  it('reads a signer key with spaces around it, and gives its name and seed', () => {
    const skey = signerKey('escrow.example/log', seed);
    expect(skey).toMatch(/^PRIVATE\+KEY\+escrow\.example\/log\+[0-9a-f]{8}\+/);
    expect(parseSignerKey(`  ${skey}\n`)).toEqual({ name: 'escrow.example/log', seed });
  });

  it('refuses a signer key not marked PRIVATE+KEY, or with a bad name, body or algorithm', () => {
    const body = withPrefix(1, seed);
    expect(parseSignerKey(handSkey('PRIVATE+KEY', 'escrow', body))).toEqual({ name: 'escrow', seed });
    expect(parseSignerKey('PRIVATE+KEY+escrow')).toBeNull();
    expect(parseSignerKey(handSkey('SECRET+KEY', 'escrow', body))).toBeNull();
    expect(parseSignerKey(handSkey('PRIVATE+KEYS', 'escrow', body))).toBeNull();
    expect(parseSignerKey(handSkey('PUBLIC+VKEY', 'escrow', body))).toBeNull();
    expect(parseSignerKey(handSkey('PRIVATE+KEY', 'escrow log', body))).toBeNull();
    expect(parseSignerKey(handSkey('PRIVATE+KEY', 'escrow', withPrefix(2, seed), seed))).toBeNull();
    expect(parseSignerKey(handSkey('PRIVATE+KEY', 'escrow', withPrefix(1, seed.slice(1)), seed))).toBeNull();
    expect(parseSignerKey(handSkey('PRIVATE+KEY', 'escrow', new Uint8Array([1, ...seed, 0]), seed))).toBeNull();
    expect(parseSignerKey(`PRIVATE+KEY+escrow+${toHex(keyId('escrow', publicKey))}+not-base64`)).toBeNull();
    expect(parseSignerKey(`PRIVATE+KEY+escrow+${toHex(keyId('escrow', publicKey))}+`)).toBeNull();
    expect(parseSignerKey(`PRIVATE+KEY+escrow++${toBase64(body)}`)).toBeNull();
  });
});

describe('C2SP signed-note, refusals and their reasons', () => {
  const seed = new Uint8Array(32).fill(6);
  const name = 'escrow.example/log';
  const verifier = parseVerifierKey(verifierKey(name, publicKeyOf(seed)))!;
  const text = 'escrow.example/log\n3\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n';
  const note = signNote(text, name, seed);
  const signatureLine = note.slice(text.length + 1, -1);
  const blob = fromBase64(signatureLine.split(' ')[2]!)!;
  const withBlob = (bytes: Uint8Array) => `${text}\n\u2014 ${name} ${toBase64(bytes)}\n`;

  it('refuses to sign a text without its final newline or with a blank line', () => {
    const message = 'a note text ends with a newline and has no blank line';
    expect(() => signNote('escrow.example/log\n3', name, seed)).toThrow(message);
    expect(() => signNote('escrow.example/log\n\n3\n', name, seed)).toThrow(message);
  });

  it('opens the note it signed, and the shortest note there is', () => {
    expect(openNote(note, verifier)).toEqual({ ok: true, text });
    expect(signNote('\n', name, seed).startsWith('\n\n\u2014 ')).toBe(true);
    expect(openNote(signNote('\n', name, seed), verifier)).toEqual({ ok: true, text: '\n' });
  });

  it('refuses a note without its final newline or without a signature block', () => {
    expect(openNote(note.slice(0, -1), verifier)).toEqual({
      ok: false,
      reason: 'the note does not end with a newline',
    });
    expect(openNote(note.replace('\n\n', '\n'), verifier)).toEqual({
      ok: false,
      reason: 'the note has no signature block',
    });
  });

  it('refuses a malformed signature line', () => {
    const malformed = { ok: false, reason: 'a signature line is malformed' };
    expect(openNote(note.replace('\u2014 ', '- '), verifier)).toEqual(malformed);
    expect(openNote(note.replace('\u2014 ', 'x\u2014 '), verifier)).toEqual(malformed);
    expect(openNote(note.replace(/\n$/, ' extra\n'), verifier)).toEqual(malformed);
    expect(openNote(note.replace(`${name} `, `${name}  `), verifier)).toEqual(malformed);
    expect(openNote(`${note.slice(0, -1)}\n\n`, verifier)).toEqual(malformed);
  });

  it('refuses a signature that is not base64 or is too short to hold a key id and a signature', () => {
    const notBase64 = { ok: false, reason: 'a signature is not base64' };
    expect(openNote(note.replace(/ [^ ]+\n$/, ' not-base64!\n'), verifier)).toEqual(notBase64);
    expect(openNote(withBlob(blob.slice(0, 4)), verifier)).toEqual(notBase64);
    // Five bytes are a key id and a (wrong) signature: read, and refused by the key.
    expect(openNote(withBlob(blob.slice(0, 5)), verifier)).toEqual({
      ok: false,
      reason: 'the signature does not verify with the key',
    });
  });

  it('refuses a tampered text, a tampered signature, or a signature with a byte too many', () => {
    const refused = { ok: false, reason: 'the signature does not verify with the key' };
    expect(openNote(note.replace('\n3\n', '\n4\n'), verifier)).toEqual(refused);
    const flipped = blob.slice();
    flipped[10] = flipped[10]! ^ 1;
    expect(openNote(withBlob(flipped), verifier)).toEqual(refused);
    expect(openNote(withBlob(new Uint8Array([...blob, 0])), verifier)).toEqual(refused);
    expect(openNote(withBlob(blob.slice(0, -1)), verifier)).toEqual(refused);
  });

  it('ignores signatures by another key, even of the same name, and says none is by the key', () => {
    const impostor = signNote(text, name, new Uint8Array(32).fill(8));
    expect(openNote(impostor, verifier)).toEqual({ ok: false, reason: `no signature by the key ${name}` });
    const otherName = signNote(text, 'witness.example', seed);
    expect(openNote(otherName, verifier)).toEqual({ ok: false, reason: `no signature by the key ${name}` });
    // Another key's line first, ours after it: the note opens.
    const cosigned = `${impostor.slice(0, -1)}\n${signatureLine}\n`;
    expect(openNote(cosigned, verifier)).toEqual({ ok: true, text });
  });

  it('refuses a note signed by the small-order identity key, which any message would fit under ZIP-215', () => {
    const identity = new Uint8Array(32);
    identity[0] = 1;
    const weak = parseVerifierKey(verifierKey(name, identity))!;
    expect(weak).not.toBeNull();
    const signature = new Uint8Array(64);
    signature[0] = 1;
    const forged = `${text}\n\u2014 ${name} ${toBase64(new Uint8Array([...weak.id, ...signature]))}\n`;
    expect(openNote(forged, weak)).toEqual({ ok: false, reason: 'the signature does not verify with the key' });
  });
});

describe('C2SP tlog-checkpoint, refusals and their reasons', () => {
  const seed = new Uint8Array(32).fill(4);
  const origin = 'escrow.example/log';
  const vkey = verifierKey(origin, publicKeyOf(seed));
  const root = toBase64(EMPTY_ROOT);

  it('writes origin, size and base64 root on three lines', () => {
    expect(checkpointText({ origin, size: 12, root: EMPTY_ROOT })).toBe(`${origin}\n12\n${root}\n`);
  });

  it('reads extension lines and ignores them, but wants the final newline and a 32-byte root', () => {
    expect(parseCheckpointText(`${origin}\n12\n${root}\nextension\n`)).toEqual({ origin, size: 12, root: EMPTY_ROOT });
    expect(parseCheckpointText(`${origin}\n12\n${root}`)).toBeNull();
    expect(parseCheckpointText(`${origin}\n12\n${root}\nextension`)).toBeNull();
    expect(parseCheckpointText(`${origin}\n12\n${toBase64(EMPTY_ROOT.slice(1))}\n`)).toBeNull();
    expect(parseCheckpointText(`${origin}\n12\n${toBase64(new Uint8Array([...EMPTY_ROOT, 0]))}\n`)).toBeNull();
    expect(parseCheckpointText(`\n12\n${root}\n`)).toBeNull();
    expect(parseCheckpointText(`${origin}\n0\n${root}\n`)).toEqual({ origin, size: 0, root: EMPTY_ROOT });
    expect(parseCheckpointText(`${origin}\n-1\n${root}\n`)).toBeNull();
    expect(parseCheckpointText(`${origin}\n9007199254740992\n${root}\n`)).toBeNull();
    expect(parseCheckpointText(`${origin}\n9007199254740991\n${root}\n`)?.size).toBe(9007199254740991);
  });

  it('refuses a malformed key, a note that is not a checkpoint, and another origin, each with its reason', () => {
    const note = signNote(checkpointText({ origin, size: 3, root: EMPTY_ROOT }), origin, seed);
    expect(verifyCheckpoint(note, 'escrow.example/log+00000000+AAAA')).toEqual({
      ok: false,
      reason: 'the verifier key is malformed',
    });
    expect(verifyCheckpoint(signNote('hello\n', origin, seed), vkey)).toEqual({
      ok: false,
      reason: 'the note is not a checkpoint (origin, size, root hash)',
    });
    const elsewhere = signNote(
      checkpointText({ origin: 'other.example/log', size: 3, root: EMPTY_ROOT }),
      origin,
      seed,
    );
    expect(verifyCheckpoint(elsewhere, vkey)).toEqual({
      ok: false,
      reason: "the checkpoint's origin other.example/log is not the key's name escrow.example/log",
    });
    expect(verifyCheckpoint(note.replace('\n3\n', '\n4\n'), vkey)).toEqual({
      ok: false,
      reason: 'the signature does not verify with the key',
    });
  });

  it('splits notes written with CRLF line ends, or without the last newline', () => {
    const a = signNote(`o\n1\n${root}\n`, 'o', seed);
    const b = signNote(`o\n2\n${root}\n`, 'o', seed);
    expect(splitNotes(`${a}${b}`.replace(/\n/g, '\r\n'))).toEqual([a, b]);
    expect(splitNotes(`${a}\n${b.slice(0, -1)}`)).toEqual([a, b]);
    expect(splitNotes(a.slice(0, -1))).toEqual([a]);
  });
});
