import { describe, expect, it } from 'vitest';
import { parseEvent, streamTypeOf } from '../events.ts';
import { LOG_KEY_ID, transparencyEventSchemas } from './events.ts';
import { publicKeyOf, verifierKey } from './note.ts';

const ORIGIN = 'escrow.example/log';
const VKEY = verifierKey(ORIGIN, publicKeyOf(new Uint8Array(32).fill(1)));
const OLD = verifierKey(ORIGIN, publicKeyOf(new Uint8Array(32).fill(2)));
const { LogKeyIntroduced, LogKeyRotated } = transparencyEventSchemas;

/** The messages zod gives for a vkey, or [] when it is accepted. */
const vkeyErrors = (vkey: string) => {
  const parsed = LogKeyIntroduced.safeParse({ origin: ORIGIN, vkey });
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};

describe('the log key events', () => {
  it('live on the settings stream settings:log-key', () => {
    expect(LOG_KEY_ID).toBe('log-key');
    expect(streamTypeOf('LogKeyIntroduced')).toBe('settings');
    expect(streamTypeOf('LogKeyRotated')).toBe('settings');
  });

  it('hold a C2SP verifier key as the log publishes it (an unpadded Ed25519 key)', () => {
    expect(VKEY).toMatch(/^escrow\.example\/log\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}$/);
    expect(parseEvent('LogKeyIntroduced', { origin: ORIGIN, vkey: VKEY })).toEqual({
      type: 'LogKeyIntroduced',
      data: { origin: ORIGIN, vkey: VKEY },
    });
    expect(LogKeyRotated.parse({ origin: ORIGIN, vkey: VKEY, previous_vkey: OLD })).toEqual({
      origin: ORIGIN,
      vkey: VKEY,
      previous_vkey: OLD,
    });
    expect(vkeyErrors('a+0123abcd+AAAA')).toEqual([]);
    expect(vkeyErrors('ab+0123abcd+AA==')).toEqual([]);
  });

  it.each([
    ['a name with a space', 'escrow log+0123abcd+AAAA'],
    ['no name', '+0123abcd+AAAA'],
    ['a key id of 7 digits', 'escrow+0123abc+AAAA'],
    ['a key id in capitals', 'escrow+0123ABCD+AAAA'],
    ['a key id that is not hexadecimal', 'escrow+0123abcg+AAAA'],
    ['no key', 'escrow+0123abcd+'],
    ['a key that is not base64', 'escrow+0123abcd+AA-A'],
    ['text after the key', 'escrow+0123abcd+AAAA x'],
    ['three padding signs', 'escrow+0123abcd+A==='],
  ])('refuse a vkey with %s', (_case, vkey) => {
    expect(vkeyErrors(vkey)).toEqual(['must be a C2SP verifier key']);
  });

  it('refuse a vkey shorter than 10 or longer than 300 characters', () => {
    expect(vkeyErrors('a+0123abc')).toContain('must be a C2SP verifier key');
    expect(vkeyErrors('a+0123abc').length).toBe(2);
    expect(vkeyErrors(`a+0123abcd+${'A'.repeat(289)}`)).toEqual([]);
    expect(vkeyErrors(`a+0123abcd+${'A'.repeat(290)}`)).toHaveLength(1);
    expect(LogKeyRotated.safeParse({ origin: ORIGIN, vkey: VKEY, previous_vkey: 'x' }).success).toBe(false);
  });

  it('name an origin of 1 to 300 characters', () => {
    expect(LogKeyIntroduced.safeParse({ origin: '', vkey: VKEY }).success).toBe(false);
    expect(LogKeyIntroduced.safeParse({ origin: 'o'.repeat(300), vkey: VKEY }).success).toBe(true);
    expect(LogKeyIntroduced.safeParse({ origin: 'o'.repeat(301), vkey: VKEY }).success).toBe(false);
  });
});
