import type { ColumnType } from 'kysely';

export interface VerificationsTables {
  payment_marks: {
    escrow_id: string;
    mark_position: number;
    notes: string;
    marked_by: string;
    marked_at: ColumnType<Date, string, string>;
    status: 'pending' | 'rejected' | 'verified';
    decided_by: string | null;
    decided_at: ColumnType<Date | null, string | null, string | null>;
    decision_notes: string | null;
  };
  payment_mark_current: { escrow_id: string; mark_position: number };
  payment_evidence: {
    evidence_id: string;
    escrow_id: string;
    mark_position: number;
    filename: string;
    content_type: string;
    size_bytes: number;
    sha256: string;
  };
}
