import { expect } from 'vitest';
import type { Aggregate } from '../aggregates.ts';
import type { DomainEvent } from '../events.ts';
import type { DecideContext } from '../shared/context.ts';
import { DomainError, type ErrorCode } from '../shared/errors.ts';

export const NOW = '2026-01-01T00:00:00.000Z';
export const ACTOR = '99999999-9999-4999-8999-999999999999';

/**
 * given(past events).when(command).then(new events) — or .thenRefused(code, detail) — against one aggregate's
 * decider, with a fixed clock and actor.
 */
export function given<S, C>(aggregate: Aggregate<S, C>, past: DomainEvent[], ctx: Partial<DecideContext> = {}) {
  const context: DecideContext = {
    now: NOW,
    newId: () => '00000000-0000-4000-8000-000000000000',
    actor: ACTOR,
    ...ctx,
  };
  const state = past.reduce(
    (s, e) => aggregate.evolve(s, { ...e, occurred_at: '2025-12-31T00:00:00.000Z' }),
    aggregate.initial(),
  );
  return {
    when(command: C) {
      const decide = () => aggregate.decide(command, state, context);
      return {
        then(expected: DomainEvent[]) {
          expect(decide()).toEqual(expected);
        },
        thenRefused(code: ErrorCode, detail?: string | RegExp) {
          let error: unknown;
          try {
            decide();
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).code).toBe(code);
          if (detail !== undefined) expect((error as DomainError).detail).toMatch(detail);
        },
        /** The events, for checks on computed figures. */
        events: () => decide(),
      };
    },
  };
}
