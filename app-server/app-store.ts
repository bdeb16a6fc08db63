import type { Kysely } from 'kysely';
import { projections } from '../projections/registry.ts';
import { type Config, publicUrl } from './config.ts';
import type { Database } from './db/schema.ts';
import { createEventStore } from './event-store/append.ts';
import type { EventStore } from './event-store/event-store.ts';
import { escrowEffects } from './escrows/effects.ts';
import { messageMailEffect } from './messages/message-mail.ts';
import { webhookEffect } from './webhooks/queue.ts';

/**
 * The event store the app runs on: every projection, and the effects escrow and pool events bring with them (mail,
 * the pool alert, the message mail, webhook deliveries).
 */
export const openAppStore = (db: Kysely<Database>, config: Config): EventStore =>
  createEventStore(db, projections, [
    ...escrowEffects(publicUrl(config)),
    messageMailEffect(publicUrl(config)),
    webhookEffect,
  ]);
