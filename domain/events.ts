import type { z } from 'zod';
import { type AddressEvent, addressEventSchemas } from './address/events.ts';
import { type EscrowEvent, escrowEventSchemas } from './escrow/events.ts';
import { type ReviewEvent, reviewEventSchemas } from './review/events.ts';
import { type SettingsEvent, settingsEventSchemas } from './settings/events.ts';
import { type TransparencyEvent, transparencyEventSchemas } from './transparency/events.ts';
import { type UserEvent, userEventSchemas } from './user/events.ts';

/** The whole event catalogue: every stored event type, its stream type and its data schema. */
export const eventSchemas = {
  ...escrowEventSchemas,
  ...addressEventSchemas,
  ...userEventSchemas,
  ...reviewEventSchemas,
  ...settingsEventSchemas,
  ...transparencyEventSchemas,
} as const;

export type DomainEvent = EscrowEvent | AddressEvent | UserEvent | ReviewEvent | SettingsEvent | TransparencyEvent;
export type EventType = DomainEvent['type'];
export const eventTypes = Object.keys(eventSchemas) as EventType[];

export type StreamType = 'escrow' | 'address' | 'user' | 'review' | 'settings';

const streamTypeByEvent: Record<EventType, StreamType> = Object.fromEntries([
  ...Object.keys(escrowEventSchemas).map((t) => [t, 'escrow']),
  ...Object.keys(addressEventSchemas).map((t) => [t, 'address']),
  ...Object.keys(userEventSchemas).map((t) => [t, 'user']),
  ...Object.keys(reviewEventSchemas).map((t) => [t, 'review']),
  ...Object.keys(settingsEventSchemas).map((t) => [t, 'settings']),
  // The log's signing keys live on the settings stream `settings:log-key`.
  ...Object.keys(transparencyEventSchemas).map((t) => [t, 'settings']),
]) as Record<EventType, StreamType>;

export const streamTypeOf = (type: EventType): StreamType => streamTypeByEvent[type];

/** Stream ids are `{type}:{id}`, e.g. `escrow:6f1c…`. */
export const streamId = (type: StreamType, id: string) => `${type}:${id}`;
/** The id of the one settings stream (`settings:pricing`), which holds the pricing in force. */
export const SETTINGS_ID = 'pricing';

/** Validates an event's data against its schema; throws a ZodError when it does not fit. */
export function parseEvent(type: string, data: unknown): DomainEvent {
  const schema = (eventSchemas as Record<string, z.ZodType>)[type];
  if (!schema) throw new Error(`Unknown event type ${type}`);
  return { type, data: schema.parse(data) } as DomainEvent;
}

/** Bumped when a data shape changes; stored with each event so old events can be upcast on read. */
export const SCHEMA_VERSION = 1;
