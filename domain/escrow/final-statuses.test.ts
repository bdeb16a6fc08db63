import { describe, expect, it } from 'vitest';
import { FINAL_ESCROW_STATUSES, hasEnded, holdsMoney } from './final-statuses.ts';
import { escrowMachine } from './machine.ts';

describe('the final escrow statuses', () => {
  it("are exactly the machine's final states", () => {
    const finals = Object.entries(escrowMachine.config.states ?? {})
      .filter(([, node]) => (node as { type?: string }).type === 'final')
      .map(([name]) => name);
    expect([...FINAL_ESCROW_STATUSES].sort()).toEqual(finals.sort());
  });
});

describe('what a status says of the money and the end', () => {
  it('holds money only once verified and until paid out', () => {
    const at = '2026-11-26T00:00:00.000Z';
    expect(['funded', 'disputed', 'frozen'].map((status) => holdsMoney({ status, funded_at: at }))).toEqual([
      true,
      true,
      true,
    ]);
    // Frozen before any payment, or still waiting for one: nothing is held.
    expect(holdsMoney({ status: 'frozen', funded_at: null })).toBe(false);
    expect(holdsMoney({ status: 'pending_payment', funded_at: null })).toBe(false);
    expect(['released', 'refunded', 'cancelled'].map((status) => holdsMoney({ status, funded_at: at }))).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('has ended in a final status only', () => {
    expect(['released', 'refunded', 'cancelled', 'funded', 'pending_payment', 'disputed'].map(hasEnded)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
