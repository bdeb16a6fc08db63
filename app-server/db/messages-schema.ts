import type { ColumnType } from 'kysely';

type Time = ColumnType<Date, string | Date, string | Date>;

/** Mail about new messages (migration 0015): not a read model, the throttle of the message digest mail. */
export interface MessageMailTables {
  message_mail_digests: {
    escrow_id: string;
    /** The e-mail address mailed. */
    recipient: string;
    /** What the recipient is to the escrow: messages by that side never go in their mail. */
    recipient_side: 'buyer' | 'seller' | 'admin';
    last_mailed_at: Time;
    /** The log position of the last message a mail to this recipient told of. */
    mailed_through_position: number;
    /** Since when messages wait for the next mail (null: none waits). */
    pending_since: ColumnType<Date | null, string | Date | null, string | Date | null>;
  };
}
