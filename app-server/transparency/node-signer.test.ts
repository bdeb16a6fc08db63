import { describe, expect, it } from 'vitest';
import {
  checkpointText,
  newSeed,
  openNote,
  parseVerifierKey,
  portableSigner,
  signNote,
  verifierKey,
} from '../../domain/transparency/note.ts';
import { nodeSigner } from './node-signer.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('nodeSigner', () => {
  it('gives RFC 8032 test 1 its public key and signature', () => {
    // RFC 8032 section 7.1, TEST 1: the empty message.
    const signer = nodeSigner(Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex'));
    expect(hex(signer.publicKey)).toBe('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
    expect(hex(signer.sign(new Uint8Array()))).toBe(
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
    );
  });

  it('signs notes byte for byte as the portable signer does, and they open with the log key', () => {
    for (let i = 0; i < 5; i++) {
      const seed = newSeed();
      const text = checkpointText({ origin: 'escrow.example/log', size: 7 + i, root: new Uint8Array(32).fill(i) });
      const note = signNote(text, 'escrow.example/log', nodeSigner(seed));
      expect(note).toBe(signNote(text, 'escrow.example/log', portableSigner(seed)));
      const verifier = parseVerifierKey(verifierKey('escrow.example/log', nodeSigner(seed).publicKey))!;
      expect(openNote(note, verifier)).toEqual({ ok: true, text });
    }
  });

  it('refuses a seed that is not 32 bytes', () => {
    expect(() => nodeSigner(new Uint8Array(31))).toThrow('32 bytes');
  });
});
