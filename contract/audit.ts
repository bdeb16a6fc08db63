import { z } from 'zod';

const isoTime = z.string().describe('ISO 8601 time, UTC');
const chainPoint = z.strictObject({ position: z.number().int(), hash: z.string() });
const chainBreak = z.strictObject({ position: z.number().int(), reason: z.string() });

/** One line of the audit log: an event in words. */
export const auditEntrySchema = z.strictObject({
  id: z.number().int(),
  action_type: z.string(),
  timestamp: isoTime,
  object_type: z.enum(['escrow', 'address', 'user', 'review', 'settings']),
  object_id: z.string(),
  actor: z.string().describe("A user id, 'system' or 'anonymous'"),
  actor_user_id: z.string().nullable(),
  summary: z.string().describe('The event in words, users named by their usernames'),
  actor_username: z.string().nullable(),
  object_name: z
    .string()
    .nullable()
    .describe("The username of the user the entry is about (object_type 'user'), else null"),
});
export const auditEntriesSchema = z.array(auditEntrySchema);

/** An event of the log, with everything needed to check its hash. */
export const storedEventSchema = z.strictObject({
  position: z.number().int(),
  event_id: z.string(),
  stream_id: z.string(),
  stream_type: z.enum(['escrow', 'address', 'user', 'review', 'settings']),
  stream_version: z.number().int(),
  type: z.string(),
  schema_version: z.number().int(),
  data: z.record(z.string(), z.unknown()),
  metadata: z.looseObject({ actor: z.string(), request_id: z.string(), machine_version: z.number().int().optional() }),
  occurred_at: isoTime,
  prev_hash: z.string(),
  hash: z.string(),
});
export const storedEventsSchema = z.array(storedEventSchema);

/** GET /api/admin/chain. */
export const chainStatusSchema = z.strictObject({
  head: chainPoint,
  ok: z.boolean().describe('The whole chain verified just now'),
  events: z.number().int(),
  first_break: chainBreak.nullable(),
  verified_up_to: z.number().int().nullable(),
  broken: chainBreak.nullable(),
  last_check_at: isoTime.nullable(),
  last_full_check_at: isoTime.nullable(),
});

const replayRow = z.record(z.string(), z.unknown());
/** POST /api/admin/replay. */
export const replayReportSchema = z.strictObject({
  events: z.number().int(),
  seconds: z.number(),
  eventsPerSecond: z.number(),
  match: z.boolean(),
  tables: z.array(
    z.strictObject({
      table: z.string(),
      liveRows: z.number().int(),
      rebuiltRows: z.number().int(),
      onlyLive: z.array(replayRow),
      onlyRebuilt: z.array(replayRow),
      match: z.boolean(),
    }),
  ),
  swapped: z
    .array(z.strictObject({ table: z.string(), deleted: z.number().int(), inserted: z.number().int() }))
    .optional(),
});
