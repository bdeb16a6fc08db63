import type { Aggregate } from '../../domain/aggregates.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';

/** Streams kept; the least recently used goes first. */
const MAX_STREAMS = 5_000;

interface Folded {
  /** The aggregate the state belongs to, so an append can carry the state forward. */
  aggregate: Aggregate<unknown, unknown>;
  /** The stream version the state was folded to, and that event's hash. */
  version: number;
  hash: string;
  /** The state, folded when first asked for. */
  state: () => unknown;
}

interface Kept {
  /** Every event of the stream, version 1 first, as this process last read or appended them. */
  events: StoredEvent[];
  folded?: Folded;
}

/**
 * The events of recently used streams and the state folded from them, owned by one event store. Nothing here is
 * trusted on its own: an append built on a stream read from here is refused if the stream moved on in another
 * process, and the command handler then reads it afresh (`forget`). A kept state is used only if the stream's event
 * at its version still has the hash it was folded to: the hash covers that event and, through the chain, everything
 * before it, so the state is that of these very events. Folding a stream through the escrow machine again on every
 * command was a tenth of a command's CPU.
 */
export class StreamCache {
  private readonly streams = new Map<string, Kept>();

  events(streamId: string): StoredEvent[] | undefined {
    return this.streams.get(streamId)?.events;
  }

  remember(streamId: string, events: StoredEvent[]): void {
    const kept = this.streams.get(streamId);
    this.keep(streamId, { events, ...(kept?.folded ? { folded: kept.folded } : {}) });
  }

  forget(streamId: string): void {
    this.streams.delete(streamId);
  }

  clear(): void {
    this.streams.clear();
  }

  /** The state of `events` (the whole stream), folding only what was not folded lately. */
  fold<State, Command>(aggregate: Aggregate<State, Command>, streamId: string, events: readonly StoredEvent[]): State {
    const kept = this.streams.get(streamId);
    const known = kept?.folded;
    const reusable =
      known !== undefined &&
      known.aggregate === aggregate &&
      known.version <= events.length &&
      events[known.version - 1]?.hash === known.hash;
    let state = reusable ? (known.state() as State) : aggregate.initial();
    for (let i = reusable ? known.version : 0; i < events.length; i++) state = aggregate.evolve(state, events[i]!);
    const last = events.at(-1);
    const folded = state;
    if (kept && last)
      kept.folded = {
        aggregate: aggregate as Aggregate<unknown, unknown>,
        version: events.length,
        hash: last.hash,
        state: () => folded,
      };
    return state;
  }

  /**
   * Events this process just committed: a kept stream they follow grows by them, and its state is carried forward
   * (folded only when the stream's next command asks for it, so that command folds nothing); a stream they start
   * is kept; one they do not follow (it moved on elsewhere) is dropped.
   */
  committed(stored: readonly StoredEvent[]): void {
    for (const event of stored) {
      const kept = this.streams.get(event.stream_id);
      if (kept && kept.events.length === event.stream_version - 1) {
        kept.events.push(event);
        const before = kept.folded;
        if (before && before.version === event.stream_version - 1) {
          let after: { state: unknown } | undefined;
          const state = () => (after ??= { state: before.aggregate.evolve(before.state(), event) }).state;
          kept.folded = { ...before, version: event.stream_version, hash: event.hash, state };
        }
      } else if (event.stream_version === 1) this.keep(event.stream_id, { events: [event] });
      else this.streams.delete(event.stream_id);
    }
  }

  private keep(streamId: string, kept: Kept): void {
    this.streams.delete(streamId);
    this.streams.set(streamId, kept);
    if (this.streams.size > MAX_STREAMS) this.streams.delete(this.streams.keys().next().value!);
  }
}
