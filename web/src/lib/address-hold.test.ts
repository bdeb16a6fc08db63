import { describe, expect, it } from 'vitest';
import { addressHoldText } from './address-hold.ts';

describe('addressHoldText', () => {
  const now = new Date('2026-01-02T00:00:00.000Z');

  it('says until when a replaced address receives no money, while it is held', () => {
    expect(addressHoldText('2026-01-03T12:30:00.000Z', now)).toMatch(
      /^Replaced recently: no money goes to it before 3 Jan 2026.*12:30/,
    );
  });

  it('says nothing without a hold, or once the hold is over (money may go to it from that very time)', () => {
    expect(addressHoldText(null, now)).toBeNull();
    expect(addressHoldText('2026-01-02T00:00:00.000Z', now)).toBeNull();
    expect(addressHoldText('2026-01-01T00:00:00.000Z', now)).toBeNull();
  });
});
