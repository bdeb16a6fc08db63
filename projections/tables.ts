import type { InsertType } from 'kysely';
import type { AddressesTables } from './addresses/table.ts';
import type { AuditLogTables } from './audit-log/table.ts';
import type { DisputesTables } from './disputes/table.ts';
import type { EscrowsTables } from './escrows/table.ts';
import type { MessagesTables } from './messages/table.ts';
import type { ProposalsTables } from './proposals/table.ts';
import type { ReviewStatsTables } from './review-stats/table.ts';
import type { ReviewsTables } from './reviews/table.ts';
import type { SettingsTables } from './settings/table.ts';
import type { UsersTables } from './users/table.ts';
import type { VerificationsTables } from './verifications/table.ts';

/** Row types of every read model, composed from each projection's own table types. */
export interface ReadModelTables
  extends
    UsersTables,
    EscrowsTables,
    AddressesTables,
    DisputesTables,
    VerificationsTables,
    ReviewsTables,
    ReviewStatsTables,
    SettingsTables,
    AuditLogTables,
    MessagesTables,
    ProposalsTables {}

/**
 * Each read-model table's row as reducers read and write it: the value a column takes on insert, so times are ISO
 * strings (the row stores turn the driver's Dates back into them, see normalise-row.ts) and int8 columns numbers.
 */
export type ProjectionTables = {
  [T in keyof ReadModelTables]: { [C in keyof ReadModelTables[T]]: InsertType<ReadModelTables[T][C]> };
};

export type TableName = keyof ProjectionTables;

export type RowOf<T extends TableName> = ProjectionTables[T];
