import { describe, expect, it } from 'vitest';
import { FINAL_ESCROW_STATUSES } from './final-statuses.ts';
import { escrowMachine } from './machine.ts';

describe('the final escrow statuses', () => {
  it("are exactly the machine's final states", () => {
    const finals = Object.entries(escrowMachine.config.states ?? {})
      .filter(([, node]) => (node as { type?: string }).type === 'final')
      .map(([name]) => name);
    expect([...FINAL_ESCROW_STATUSES].sort()).toEqual(finals.sort());
  });
});
