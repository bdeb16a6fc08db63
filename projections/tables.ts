import type { AddressesTables } from './addresses/table.ts';
import type { AuditLogTables } from './audit-log/table.ts';
import type { DisputesTables } from './disputes/table.ts';
import type { EscrowsTables } from './escrows/table.ts';
import type { ReviewStatsTables } from './review-stats/table.ts';
import type { ReviewsTables } from './reviews/table.ts';
import type { SettingsTables } from './settings/table.ts';
import type { UsersTables } from './users/table.ts';
import type { VerificationsTables } from './verifications/table.ts';

/** Row types of every read model, composed from each projection's own table types. */
export interface ReadModelTables
  extends UsersTables,
    EscrowsTables,
    AddressesTables,
    DisputesTables,
    VerificationsTables,
    ReviewsTables,
    ReviewStatsTables,
    SettingsTables,
    AuditLogTables {}
