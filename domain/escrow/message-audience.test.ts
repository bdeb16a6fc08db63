import { describe, expect, it } from 'vitest';
import { adminsHearOfMessage } from './message-audience.ts';

describe('who hears of a message besides the parties', () => {
  it("the admins hear of a party's message while the escrow is disputed", () => {
    expect(adminsHearOfMessage({ status: 'disputed' }, 'buyer')).toBe(true);
    expect(adminsHearOfMessage({ status: 'disputed' }, 'seller')).toBe(true);
  });

  it("not of another admin's message, nor of anything while the escrow is not disputed", () => {
    expect(adminsHearOfMessage({ status: 'disputed' }, 'admin')).toBe(false);
    for (const status of ['pending_payment', 'funded', 'frozen', 'released'] as const)
      expect(adminsHearOfMessage({ status }, 'buyer'), status).toBe(false);
  });
});
