import type { ColumnType } from 'kysely';

/** One message of an escrow's conversation, with its attachment's facts when it has one. */
export interface MessagesTables {
  escrow_messages: {
    id: string;
    escrow_id: string;
    /** The event's position in the log: the conversation's order. */
    position: number;
    side: 'buyer' | 'seller' | 'admin';
    /** The account that wrote it (the event's actor). */
    author_id: string;
    text: string;
    file_evidence_id: string | null;
    file_name: string | null;
    file_content_type: string | null;
    file_size_bytes: number | null;
    file_sha256: string | null;
    created_at: ColumnType<Date, string, string>;
  };
}
