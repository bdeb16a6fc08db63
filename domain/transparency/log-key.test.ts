import { describe, expect, it } from 'vitest';
import { logKeyAggregate } from '../aggregates.ts';
import { given } from '../testing/given.ts';
import { evolveLogKey, initialLogKeyState } from './log-key.ts';
import { publicKeyOf, verifierKey } from './note.ts';

const ORIGIN = 'escrow.example/log';
const keyOf = (fill: number) => verifierKey(ORIGIN, publicKeyOf(new Uint8Array(32).fill(fill)));
const [A, B, C] = [keyOf(1), keyOf(2), keyOf(3)];
const introduced = (vkey: string) => ({ type: 'LogKeyIntroduced' as const, data: { origin: ORIGIN, vkey } });
const rotated = (vkey: string, previous_vkey: string) => ({
  type: 'LogKeyRotated' as const,
  data: { origin: ORIGIN, vkey, previous_vkey },
});

describe('the log key at start', () => {
  it('is introduced when the log names none yet', () => {
    given(logKeyAggregate, [])
      .when({ type: 'introduce', origin: ORIGIN, vkey: A })
      .then([introduced(A)]);
  });

  it('is not introduced again, nor replaced, once the log names one', () => {
    given(logKeyAggregate, [introduced(A)])
      .when({ type: 'introduce', origin: ORIGIN, vkey: A })
      .then([]);
    given(logKeyAggregate, [introduced(A)])
      .when({ type: 'introduce', origin: ORIGIN, vkey: B })
      .then([]);
  });
});

describe('an operator’s rotation', () => {
  it('names the new key and the one it replaces', () => {
    given(logKeyAggregate, [introduced(A)])
      .when({ type: 'rotate', origin: ORIGIN, vkey: B })
      .then([rotated(B, A)]);
    given(logKeyAggregate, [introduced(A), rotated(B, A)])
      .when({ type: 'rotate', origin: ORIGIN, vkey: C })
      .then([rotated(C, B)]);
  });

  it('introduces the key when the log names none yet', () => {
    given(logKeyAggregate, [])
      .when({ type: 'rotate', origin: ORIGIN, vkey: B })
      .then([introduced(B)]);
  });

  it('refuses the key already in use', () => {
    given(logKeyAggregate, [introduced(A)])
      .when({ type: 'rotate', origin: ORIGIN, vkey: A })
      .thenRefused('invalid_input', /^the new log key is the key in use$/);
    given(logKeyAggregate, [introduced(A), rotated(B, A)])
      .when({ type: 'rotate', origin: ORIGIN, vkey: B })
      .thenRefused('invalid_input', /^the new log key is the key in use$/);
  });

  it('may go back to an older key', () => {
    given(logKeyAggregate, [introduced(A), rotated(B, A)])
      .when({ type: 'rotate', origin: ORIGIN, vkey: A })
      .then([rotated(A, B)]);
  });
});

describe('the log key state', () => {
  it('starts with no key, then keeps the key in use and every key named, oldest first', () => {
    expect(initialLogKeyState()).toEqual({ vkey: null, keys: [] });
    const state = [introduced(A), rotated(B, A), rotated(C, B)].reduce(evolveLogKey, initialLogKeyState());
    expect(state).toEqual({ vkey: C, keys: [A, B, C] });
  });
});
