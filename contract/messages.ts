import { z } from 'zod';
import { MAX_MESSAGE_CHARS } from '../domain/escrow/message-rules.ts';

export { MAX_MESSAGE_CHARS };

const messageText = z
  .string('text is required')
  .trim()
  .min(1, 'text is required')
  .max(MAX_MESSAGE_CHARS, `text must be at most ${MAX_MESSAGE_CHARS} characters`);

/** POST /api/escrows/{id}/messages as JSON. */
export const postMessageJsonSchema = z.object({ text: messageText });

/** POST /api/escrows/{id}/messages as a multipart form: the text and optionally one file, checked by its bytes. */
export const postMessageFormSchema = z.object({
  text: messageText,
  file: z
    .union([z.instanceof(File), z.literal('')], 'file must be a file upload')
    .optional()
    .meta({ type: 'string', format: 'binary' }),
});

/** A message's attachment: its bytes at `url`, for admins and the escrow's parties, always as a download. */
export const messageFileSchema = z.strictObject({
  evidence_id: z.string(),
  filename: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  sha256: z.string().describe('SHA-256 of the bytes, as the MessagePosted event records it'),
  url: z.string().describe('The URL that serves the file'),
});

/** One message of an escrow's conversation. */
export const messageSchema = z.strictObject({
  id: z.string(),
  side: z.enum(['buyer', 'seller', 'admin']).describe('Who wrote it: a party, or an admin'),
  author: z.string().describe("The writer's username"),
  text: z.string(),
  file: messageFileSchema.optional(),
  created_at: z.string().describe('ISO 8601 time, UTC'),
});
export type Message = z.infer<typeof messageSchema>;

/** GET /api/escrows/{id}/messages: the conversation, oldest first. */
export const messageListSchema = z.array(messageSchema);
