import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMPTY_ROOT, toHex } from './merkle.ts';
import {
  checkpointText,
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
