import type { Kysely } from 'kysely';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { Database } from '../db/schema.ts';
import { findVisibleEscrow } from '../escrows/parties.ts';
import type { SignedInUser } from '../app-deps.ts';

/** An answer as the idempotency record keeps it. */
export interface KeptAnswer {
  status: number;
  body: string;
}

/**
 * How a call's answer is built from the read model, for the calls that move an escrow (money): the escrow as its
 * own page shows it to the caller. Used inside the transaction of the command's events (so the answer is kept with
 * them), and again on a retry whose answer was lost. Null for other calls: their answer is kept once made.
 */
export interface AnswerRecipe {
  /** The escrow the answer shows: from the path, or the escrow stream the command appended to. */
  escrowId: (committedStream: string | null) => string | null;
  status: number;
  build: (db: Kysely<Database>, escrowId: string) => Promise<KeptAnswer>;
}

const ESCROW_STREAM = /^escrow:(.+)$/;
const ON_ESCROW = /^\/api\/(?:admin\/)?escrows\/([0-9a-fA-F-]{36})\/[a-z-]+$/;
const RESOLVE = /^\/api\/admin\/disputes\/[^/]+\/resolve$/;

/** The stream an answer is about: the first escrow stream of the append, else its first stream. */
export const committedStreamOf = (stored: readonly StoredEvent[]) =>
  (stored.find((e) => e.stream_type === 'escrow') ?? stored[0])?.stream_id ?? null;

export function answerRecipe(path: string, user: SignedInUser | undefined): AnswerRecipe | null {
  if (!user) return null;
  const build = (status: number) => async (db: Kysely<Database>, escrowId: string) => ({
    status,
    body: (await findVisibleEscrow(db, escrowId, user)).answer,
  });
  const fromStream = (stream: string | null) => (stream ? (ESCROW_STREAM.exec(stream)?.[1] ?? null) : null);
  if (path === '/api/escrows') return { escrowId: fromStream, status: 201, build: build(201) };
  const onEscrow = ON_ESCROW.exec(path);
  if (onEscrow) return { escrowId: () => onEscrow[1]!, status: 200, build: build(200) };
  if (RESOLVE.test(path)) return { escrowId: fromStream, status: 200, build: build(200) };
  return null;
}
