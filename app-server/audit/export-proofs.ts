import type { Kysely } from 'kysely';
import { type BitcoinNetwork, checkBitcoinAddress } from '../../domain/bitcoin-address.ts';
import { checkPaymentProof, ProofError, proofSha256 } from '../../domain/bitcoin/spv.ts';
import type { Database } from '../db/schema.ts';
import { numberedLines, parseObjectLine } from './ndjson-lines.ts';

/**
 * Payment proofs travel with an export in a second NDJSON file beside it (`FILE.proofs.ndjson` by default): one line
 * per proof, `{proof_sha256, escrow_id, tx_hex, txout_proof, headers}`. The events file stays a list of events; the
 * hash chain vouches for each proof through the SHA-256 its PaymentVerified event records, so the side file needs no
 * chain of its own. `verify-export --with-proofs` reads it and re-checks every proof the log names.
 */

export const proofsPathOf = (exportPath: string) => `${exportPath}.proofs.ndjson`;

/** Writes every stored proof, one line each, through `write`; answers how many. */
export async function exportProofs(
  db: Kysely<Database>,
  write: (chunk: string) => void | Promise<void>,
): Promise<number> {
  let count = 0;
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('payment_proofs')
      .select(['proof_sha256', 'escrow_id', 'tx_hex', 'txout_proof', 'headers'])
      .where('proof_sha256', '>', after)
      .orderBy('proof_sha256')
      .limit(500)
      .execute();
    if (rows.length === 0) return count;
    await write(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
    count += rows.length;
    after = rows.at(-1)!.proof_sha256;
  }
}

/** A PaymentVerified event with a proof, as the export's replay saw it. */
export interface ProvenInExport {
  line: number;
  escrowId: string;
  txid: string | null;
  proof: {
    block_hash: string;
    confirmations: number;
    received_sats: number;
    proof_sha256: string;
    work_judged: boolean;
  };
  /** The escrow's payment address and amount when the payment was verified. */
  address: string | null;
  amountSats: number;
}

export interface ProofRulesForExport {
  minWorkBits: number;
  minConfirmations: number;
}

/** The network an address belongs to (regtest and testnet share legacy prefixes: either's rules judge no work). */
function networkOf(address: string): BitcoinNetwork | null {
  for (const network of ['mainnet', 'testnet', 'regtest'] as const)
    if (checkBitcoinAddress(address, network).ok) return network;
  return null;
}

/**
 * Re-checks each proof the log names against the proofs file: present, its bytes hashing to the recorded SHA-256,
 * proving the same transaction, block, confirmations and satoshis to the escrow's address under today's rules.
 * Answers the first refusal as [line, reason], or null when every proof holds.
 */
export async function recheckProofs(
  proofsPath: string,
  proven: readonly ProvenInExport[],
  rules: ProofRulesForExport,
): Promise<[line: number, reason: string] | null> {
  const wanted = new Map(proven.map((p) => [p.proof.proof_sha256, p]));
  const found = new Map<string, { tx_hex: string; txout_proof: string; headers: string }>();
  try {
    for await (const { number, text } of numberedLines(proofsPath)) {
      if (text.trim() === '') continue;
      const parsed = parseObjectLine(text);
      if ('error' in parsed) return [proven[0]?.line ?? 1, `the proofs file, line ${number}: ${parsed.error}`];
      const row = parsed.value as Record<string, unknown>;
      const fields = {
        tx_hex: String(row.tx_hex ?? ''),
        txout_proof: String(row.txout_proof ?? ''),
        headers: String(row.headers ?? ''),
      };
      if (wanted.has(proofSha256(fields))) found.set(proofSha256(fields), fields);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return proven.length
        ? [proven[0]!.line, `the export names payment proofs, but there is no proofs file ${proofsPath}`]
        : null;
    }
    throw error;
  }
  for (const p of proven) {
    const fields = found.get(p.proof.proof_sha256);
    if (!fields)
      return [
        p.line,
        `the payment proof ${p.proof.proof_sha256} of escrow ${p.escrowId} is not in the proofs file (or its bytes do not hash to it)`,
      ];
    if (!p.address) return [p.line, `escrow ${p.escrowId} was verified by a proof without a payment address`];
    const network = networkOf(p.address);
    if (!network) return [p.line, `escrow ${p.escrowId}'s payment address ${p.address} is not a Bitcoin address`];
    try {
      const again = checkPaymentProof(
        fields,
        { address: p.address, amountSats: p.amountSats, acceptPartial: true },
        { network, ...rules },
      );
      const differs = (
        [
          ['txid', p.txid, again.txid],
          ['block', p.proof.block_hash, again.block_hash],
          ['confirmations', p.proof.confirmations, again.confirmations],
          ['satoshis received', p.proof.received_sats, again.received_sats],
        ] as const
      ).find(([, recorded, checked]) => recorded !== checked);
      if (differs)
        return [
          p.line,
          `the payment proof of escrow ${p.escrowId} proves ${differs[0]} ${String(differs[2])}, but the event records ${String(differs[1])}`,
        ];
    } catch (error) {
      if (error instanceof ProofError)
        return [p.line, `the payment proof of escrow ${p.escrowId} no longer holds: ${error.message}`];
      throw error;
    }
  }
  return null;
}

/** Collects, while an export is read, each PaymentVerified event with a proof and the escrow figures it is checked against. */
export class ProofCollector {
  readonly proven: ProvenInExport[] = [];
  private readonly escrows = new Map<string, { address: string | null; amountSats: number }>();

  see(event: { stream_id: string; type: string; data: Record<string, unknown> }, line: number) {
    if (!event.stream_id.startsWith('escrow:')) return;
    const id = event.stream_id.slice('escrow:'.length);
    const escrow = this.escrows.get(id) ?? { address: null, amountSats: 0 };
    if (event.type === 'EscrowCreated') escrow.amountSats = Number(event.data.amount_sats);
    if (event.type === 'PaymentAddressAssigned') escrow.address = String(event.data.address);
    this.escrows.set(id, escrow);
    if (event.type === 'PaymentVerified' && event.data.proof) {
      this.proven.push({
        line,
        escrowId: id,
        txid: (event.data.txid as string | null) ?? null,
        proof: event.data.proof as ProvenInExport['proof'],
        ...escrow,
      });
    }
  }
}
