/** What a message in an escrow's conversation may be: checked by the server, and in the browser before sending. */

/** Longest message text, in characters (an attachment follows the evidence rules). */
export const MAX_MESSAGE_CHARS = 4000;
/** At most one mail about new messages per escrow and recipient in this many minutes. */
export const MESSAGE_MAIL_WINDOW_MINUTES = 10;
