/** Everything impure a decider needs is handed in: the clock, fresh ids and who acts. */
export interface DecideContext {
  /** ISO-8601 time of the command. */
  now: string;
  /** Returns a fresh UUID each call (random in production, deterministic in tests). */
  newId: () => string;
  /** The acting user's id, or 'system' for jobs. */
  actor: string;
}

export const SYSTEM_ACTOR = 'system';
