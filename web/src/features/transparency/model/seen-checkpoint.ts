import { z } from 'zod';

/** The last checkpoint this browser saw of one log, kept to check the next one against it. */
export const seenCheckpointSchema = z.object({
  size: z.number().int().min(1),
  root_hash: z.string().regex(/^[A-Za-z0-9+/]{43}=$/),
  seen_at: z.string(),
});
export type SeenCheckpoint = z.infer<typeof seenCheckpointSchema>;

const keyOf = (origin: string) => `escrow.transparency.seen:${origin}`;

export interface SeenCheckpointStore {
  get(origin: string): SeenCheckpoint | null;
  set(origin: string, seen: SeenCheckpoint): void;
}

/** In localStorage, per log origin; a value that is not one (edited by hand, an older form) counts as none. */
export const localSeenCheckpoints = (storage: Storage = localStorage): SeenCheckpointStore => ({
  get(origin) {
    try {
      const parsed = seenCheckpointSchema.safeParse(JSON.parse(storage.getItem(keyOf(origin)) ?? 'null'));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  },
  set(origin, seen) {
    storage.setItem(keyOf(origin), JSON.stringify(seen));
  },
});
