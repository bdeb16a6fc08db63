import { describe, expect, it } from 'vitest';
import type { EscrowEvent } from './events.ts';
import type { EscrowMachineEvent } from './machine.ts';
import { type EscrowState, evolveEscrow, foldEscrow, initialEscrowState } from './state.ts';
import { buyerRefund, CREATOR_ID, histories, sample, sellerPayout } from './test-fixtures.ts';

const bySeller: EscrowEvent = {
  ...sample.EscrowCreated,
  data: { ...sample.EscrowCreated.data, creator_side: 'seller' },
};

describe('foldEscrow: the parties', () => {
  it("binds the creator's side to the creator, and only the creation does", () => {
    expect(foldEscrow(histories.pendingFresh).parties).toStrictEqual({ buyer: CREATOR_ID, seller: null });
    expect(foldEscrow([bySeller]).parties).toStrictEqual({ buyer: null, seller: CREATOR_ID });
    expect(foldEscrow(histories.funded).parties).toStrictEqual({ buyer: CREATOR_ID, seller: null });
  });

  it('binds the counterparty with PartyBound, even once the deal has ended', () => {
    const seller = sample.PartyBound.data.user_id;
    expect(foldEscrow([...histories.released, sample.PartyBound]).parties).toStrictEqual({
      buyer: CREATOR_ID,
      seller,
    });
  });

  it('refuses a PartyBound stored before the escrow was created', () => {
    expect(() => foldEscrow([sample.PartyBound])).toThrow('Stored event PartyBound before the escrow was created');
  });
});

describe('evolveEscrow: what it refuses', () => {
  /** Every sample event (PartyBound aside: it is not the lifecycle's), at times before and after the deadline. */
  type Timed = EscrowEvent & { occurred_at: string };
  const candidates: Timed[] = [
    ...(Object.keys(sample) as EscrowEvent['type'][])
      .filter((type) => type !== 'PartyBound')
      .map((type) => sample[type] as EscrowEvent),
    sellerPayout,
    buyerRefund,
  ].flatMap((event) =>
    ['2026-01-01T00:00:00.000Z', '2026-01-09T00:00:00.000Z'].map((occurred_at) => ({ ...event, occurred_at }) as Timed),
  );
  const refused = (state: EscrowState, event: Timed) => {
    try {
      return { after: evolveEscrow(state, event) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };

  it('refuses exactly the events the escrow machine cannot take, in every state a walk of them reaches', () => {
    // Breadth first over the states the sample events lead to, seven events deep: every status and the deal's steps.
    let frontier: EscrowState[] = [initialEscrowState()];
    let checked = 0;
    const seen = new Set<string>(); // each state is walked from once, at the first depth it is reached
    for (let depth = 0; depth < 7; depth++) {
      const next: EscrowState[] = [];
      for (const state of frontier) {
        for (const event of candidates) {
          const machineEvent = { type: event.type, data: event.data, at: event.occurred_at } as EscrowMachineEvent;
          const takes = state.snapshot.can(machineEvent);
          const outcome = refused(state, event);
          expect({ event: event.type, status: state.status, refused: 'error' in outcome }).toStrictEqual({
            event: event.type,
            status: state.status,
            refused: !takes,
          });
          if ('error' in outcome)
            expect(outcome.error).toBe(`Stored event ${event.type} is not allowed while ${state.status}`);
          checked += 1;
          const key = outcome.after ? JSON.stringify([outcome.after.snapshot.value, outcome.after.context]) : '';
          if (outcome.after && !seen.has(key)) {
            seen.add(key);
            next.push(outcome.after);
          }
        }
      }
      frontier = next;
    }
    expect(checked).toBeGreaterThan(10_000);
  });
});
