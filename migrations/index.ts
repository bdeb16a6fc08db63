import type { Migration } from 'kysely';
import * as eventStore from './0001_event_store.ts';
import * as readModels from './0002_read_models.ts';
import * as accounts from './0003_accounts.ts';
import * as reviewPublished from './0004_review_published.ts';
import * as evidenceFiles from './0005_evidence_files.ts';
import * as setupTokens from './0006_setup_tokens.ts';
import * as idempotencyLease from './0007_idempotency_lease.ts';
import * as moneySafety from './0008_money_safety.ts';
import * as eventsAppendOnly from './0009_events_append_only.ts';
import * as transparency from './0011_transparency.ts';
import * as moneyProofs from './0012_money_proofs.ts';
import * as integrations from './0013_integrations.ts';
import * as deal from './0014_deal.ts';
import * as messages from './0015_messages.ts';
import * as proposals from './0016_proposals.ts';

/** Every migration in order. Names never change once released. */
export const migrations: Record<string, Migration> = {
  '0001_event_store': eventStore,
  '0002_read_models': readModels,
  '0003_accounts': accounts,
  '0004_review_published': reviewPublished,
  '0005_evidence_files': evidenceFiles,
  '0006_setup_tokens': setupTokens,
  '0007_idempotency_lease': idempotencyLease,
  '0008_money_safety': moneySafety,
  '0009_events_append_only': eventsAppendOnly,
  '0011_transparency': transparency,
  '0012_money_proofs': moneyProofs,
  '0013_integrations': integrations,
  '0014_deal': deal,
  '0015_messages': messages,
  '0016_proposals': proposals,
};
