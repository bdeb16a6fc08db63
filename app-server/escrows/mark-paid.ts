import { escrowAggregate } from '../../domain/aggregates.ts';
import type { EscrowActor } from '../../domain/escrow/decide.ts';
import { type CommandMeta, executeCommand } from '../commands/execute.ts';
import type { AppDeps } from '../app-deps.ts';
import { escrowEffects } from './after-events.ts';
import { checkEvidence } from './evidence.ts';

/**
 * The buyer says the money is sent, with notes and optionally a file. The file is checked by its bytes before
 * anything is written; its bytes are stored in the same transaction as the `PaymentMarked` event that records
 * its SHA-256, so there is never an event without its file or a file without its event.
 */
export async function markPaid(
  deps: Pick<AppDeps, 'database' | 'store' | 'config'>,
  input: { escrowId: string; by: EscrowActor; notes: string; file: { name: string; type: string; bytes: Uint8Array } | null },
  meta: CommandMeta,
) {
  const { db } = deps.database;
  const evidence = input.file ? [await checkEvidence(input.file.name, input.file.type, input.file.bytes)] : [];
  const effects = escrowEffects(deps);
  return executeCommand(
    { db, store: deps.store },
    escrowAggregate,
    input.escrowId,
    { type: 'markPaid', by: input.by, notes: input.notes, evidence: evidence.map((e) => e.ref) },
    meta,
    {
      alsoWrite: async (trx, stored) => {
        if (evidence.length) {
          await trx
            .insertInto('evidence_files')
            .values(evidence.map((e) => ({ evidence_id: e.ref.evidence_id, escrow_id: input.escrowId, content: e.content, sha256: e.ref.sha256 })))
            .execute();
        }
        await effects.alsoWrite(trx, stored);
      },
    },
  );
}
