import type { EscrowActor } from '../../domain/escrow/decide.ts';
import type { CommandMeta } from '../commands/handle.ts';
import type { EventStore } from '../event-store/event-store.ts';
import { onEscrow } from '../escrows/commands.ts';
import { checkEvidence } from '../escrows/evidence.ts';

export interface MessageUpload {
  name: string;
  type: string;
  bytes: Uint8Array;
}

/**
 * A message on the escrow's conversation, by a party or an admin. An attached file is checked by its bytes (the
 * evidence rules) before anything is written; its bytes go into `evidence_files` in the same transaction as the
 * `MessagePosted` event that records its SHA-256, so there is never a message without its file or a file without its
 * message. Whether a message may be written now is the escrow decider's.
 */
export async function postMessage(
  store: EventStore,
  input: { escrowId: string; by: EscrowActor; text: string; file: MessageUpload | null },
  meta: CommandMeta,
) {
  const evidence = input.file ? await checkEvidence(input.file.name, input.file.type, input.file.bytes) : null;
  return onEscrow(
    store,
    input.escrowId,
    { type: 'postMessage', by: input.by, text: input.text, file: evidence?.ref },
    meta,
    {
      alsoWrite: async (trx) => {
        if (!evidence) return;
        await trx
          .insertInto('evidence_files')
          .values({
            evidence_id: evidence.ref.evidence_id,
            escrow_id: input.escrowId,
            content: evidence.content,
            sha256: evidence.ref.sha256,
          })
          .execute();
      },
    },
  );
}
