import { defineProjection } from '../projection.ts';
import { idOfStream } from '../stream-ids.ts';

/** Every escrow's conversation, oldest first by position. Messages are only ever added. */
export const messagesProjection = defineProjection({
  name: 'messages',
  tables: [{ name: 'escrow_messages', key: ['id'] }],
  handles: ['MessagePosted'],
  async apply(store, event) {
    if (event.type !== 'MessagePosted') return;
    const { message_id, side, text, file } = event.data;
    await store.put('escrow_messages', {
      id: message_id,
      escrow_id: idOfStream(event.stream_id),
      position: event.position,
      side,
      author_id: event.metadata.actor,
      text,
      file_evidence_id: file?.evidence_id ?? null,
      file_name: file?.filename ?? null,
      file_content_type: file?.content_type ?? null,
      file_size_bytes: file?.size_bytes ?? null,
      file_sha256: file?.sha256 ?? null,
      created_at: event.occurred_at,
    });
  },
});
