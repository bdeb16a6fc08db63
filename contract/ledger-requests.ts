import { z } from 'zod';
import { wholeNumber } from './input-fields.ts';

/** The ledger's calls under /api/admin: the audit log, the raw event log, its export and the replay. */

const page = {
  limit: wholeNumber('limit')
    .pipe(z.number().min(1, 'limit must be from 1 to 500').max(500, 'limit must be from 1 to 500'))
    .default(50),
};
const objectTypes = ['escrow', 'address', 'user', 'review', 'settings'] as const;

/** GET /api/admin/audit-logs: newest first, paged by id (`before`). */
export const auditLogQuerySchema = z.object({
  ...page,
  before: wholeNumber('before').pipe(z.number().min(1, 'before must be at least 1')).optional(),
  actor: z.string().max(100).optional().describe('A username, a user id, system or anonymous'),
  object_type: z.enum(objectTypes).optional(),
  object_id: z.string().max(100).optional(),
  action_type: z.string().max(60).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});

/** GET /api/admin/events: the events after a position. */
export const eventLogQuerySchema = z.object({
  ...page,
  after: wholeNumber('after').default(0),
  stream_id: z.string().max(120).optional(),
  stream_type: z.enum(objectTypes).optional(),
  type: z.string().max(60).optional(),
});

/** GET /api/admin/events/export: a range of positions, both ends optional. */
export const eventExportQuerySchema = z.object({
  from: wholeNumber('from').pipe(z.number().min(1, 'from must be at least 1')).optional(),
  to: wholeNumber('to').pipe(z.number().min(1, 'to must be at least 1')).optional(),
});

const swapField = z.enum(['true', 'false'], 'swap must be true or false');

/** POST /api/admin/replay, as JSON (a boolean or its word) or as a form (the word). */
export const replayJsonSchema = z.object({
  swap: z.union([z.boolean(), swapField], 'swap must be true or false').optional(),
});
export const replayFormSchema = z.object({ swap: swapField.optional() });
