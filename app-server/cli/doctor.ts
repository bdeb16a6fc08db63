import { sql } from 'kysely';
import { backupDir, type Config, mailOutboxPath } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { pendingMigrations } from '../db/migrate.ts';
import { LOW_POOL_THRESHOLD } from '../escrows/pool-alert.ts';
import { verifyChain } from '../event-store/verify-chain.ts';
import { MAX_MAIL_ATTEMPTS } from '../mail/sender.ts';
import { newestBackup } from './backup.ts';

export type Verdict = 'ok' | 'warning' | 'problem';

export interface Finding {
  check: string;
  verdict: Verdict;
  /** What was found. */
  detail: string;
  /** What to do about it (absent when all is well). */
  fix?: string;
}

/** A rate older than this is worth a warning: escrows are priced with it. */
const RATE_STALE_HOURS = 24;
/** Mail queued longer than this means the sender is not getting through. */
const MAIL_LATE_MINUTES = 15;

const ok = (check: string, detail: string): Finding => ({ check, verdict: 'ok', detail });
const warning = (check: string, detail: string, fix: string): Finding => ({ check, verdict: 'warning', detail, fix });
const problem = (check: string, detail: string, fix: string): Finding => ({ check, verdict: 'problem', detail, fix });

const UNDEFINED_TABLE = '42P01';

/** `query`'s answer, or `missing` when its table does not exist yet (a store whose migrations are pending). */
async function unlessMissing<T>(query: () => Promise<T>, missing: T): Promise<T> {
  try {
    return await query();
  } catch (error) {
    if ((error as { code?: string }).code === UNDEFINED_TABLE) return missing;
    throw error;
  }
}

export interface DiagnoseOptions {
  now?: Date;
  /** Told how far the chain check is (events checked of all), for a progress bar. */
  onChainProgress?: (checked: number, total: number) => void;
}

/**
 * What an operator should know before trusting this deployment with money: each check, its verdict and the fix.
 * Every check runs even on a new or unmigrated store (a table that does not exist yet counts as empty), so a first
 * run names everything that is missing at once. Reads only: it never migrates.
 */
export async function diagnose(
  config: Config,
  database: DatabaseHandle,
  options: DiagnoseOptions = {},
): Promise<Finding[]> {
  const now = options.now ?? new Date();
  const findings: Finding[] = [configuration(config, database)];
  try {
    await sql`SELECT 1`.execute(database.db);
    findings.push(ok('database', `${database.backend} at ${database.location} answers`));
  } catch (error) {
    findings.push(
      problem(
        'database',
        `${database.backend} at ${database.location} does not answer: ${(error as Error).message}`,
        'Start the database or correct DATABASE_URL',
      ),
    );
    return findings;
  }
  const pending = await pendingMigrations(database.db);
  findings.push(
    pending.length
      ? problem(
          'migrations',
          `${pending.length} pending: ${pending.join(', ')}`,
          'Run: npm run cli -- migrate (npm start also applies them)',
        )
      : ok('migrations', 'all applied'),
  );
  const db = database.db;

  const chain = await unlessMissing(
    () => verifyChain(db, options.onChainProgress ? { onProgress: options.onChainProgress } : {}),
    null,
  );
  if (!chain) findings.push(ok('chain', 'no log yet'));
  else {
    findings.push(
      chain.ok
        ? ok('chain', `${chain.events} events verify; head ${chain.head.position}:${chain.head.hash}`)
        : problem(
            'chain',
            `broken at position ${chain.firstBreak!.position}: ${chain.firstBreak!.reason}`,
            'Compare with your last published chain head and an export kept elsewhere (verify-export); restore from a good export (import-events)',
          ),
    );
  }

  findings.push(
    config.SMTP_URL
      ? ok('SMTP', 'SMTP_URL is set')
      : warning(
          'SMTP',
          `SMTP_URL is unset: mail is written to ${mailOutboxPath(config)}, not sent`,
          'Set SMTP_URL (smtp:// or smtps://) to the mail server that sends for you',
        ),
  );
  const mail = await unlessMissing(
    () =>
      db
        .selectFrom('mail_outbox')
        .select([
          sql<number>`count(*) FILTER (WHERE attempts >= ${MAX_MAIL_ATTEMPTS})::int`.as('given_up'),
          sql<number>`count(*) FILTER (WHERE attempts < ${MAX_MAIL_ATTEMPTS} AND created_at < ${new Date(now.getTime() - MAIL_LATE_MINUTES * 60_000).toISOString()}::timestamptz)::int`.as(
            'late',
          ),
          sql<number>`count(*)::int`.as('unsent'),
          sql<string | null>`max(last_error)`.as('last_error'),
        ])
        .where('sent_at', 'is', null)
        .executeTakeFirstOrThrow(),
    { given_up: 0, late: 0, unsent: 0, last_error: null },
  );
  if (mail.given_up > 0)
    findings.push(
      problem(
        'mail',
        `${mail.given_up} mail(s) failed ${MAX_MAIL_ATTEMPTS} times and will not be retried (last error: ${mail.last_error ?? 'none'})`,
        'Check SMTP_URL and the mail server; those messages must be sent by hand',
      ),
    );
  else if (mail.late > 0)
    findings.push(
      warning(
        'mail',
        `${mail.late} mail(s) queued for more than ${MAIL_LATE_MINUTES} minutes (last error: ${mail.last_error ?? 'none'})`,
        'Is a server running (it sends the mail)? Check SMTP_URL and the mail server',
      ),
    );
  else findings.push(ok('mail', `${mail.unsent} waiting to be sent, none late`));

  const pool = await unlessMissing(
    () =>
      db
        .selectFrom('addresses')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('status', '=', 'available')
        .executeTakeFirstOrThrow(),
    { n: 0 },
  );
  findings.push(
    pool.n >= LOW_POOL_THRESHOLD
      ? ok('address pool', `${pool.n} addresses available`)
      : problem(
          'address pool',
          `${pool.n} addresses available (fewer than ${LOW_POOL_THRESHOLD}): buyers will be refused payment addresses`,
          `Add ${config.BITCOIN_NETWORK} addresses in the admin console (Addresses)`,
        ),
  );

  const settings = await unlessMissing(
    () => db.selectFrom('settings').select(['rate_cents', 'rate_set_at']).where('id', '=', 1).executeTakeFirst(),
    undefined,
  );
  if (!settings?.rate_cents || !settings.rate_set_at) {
    findings.push(
      problem('BTC rate', 'no BTC/USD rate is set: nobody can open an escrow', 'Set it in the admin console (Pricing)'),
    );
  } else {
    const hours = (now.getTime() - new Date(settings.rate_set_at).getTime()) / 3_600_000;
    findings.push(
      hours > RATE_STALE_HOURS
        ? warning(
            'BTC rate',
            `set ${Math.floor(hours)} hours ago`,
            'Update it in the admin console (Pricing): new escrows are priced with it',
          )
        : ok('BTC rate', `set ${Math.max(0, Math.floor(hours * 60))} minutes ago`),
    );
  }

  const admins = await unlessMissing(
    () =>
      db.selectFrom('users').select(['username', 'totp_enabled', 'is_frozen']).where('role', '=', 'admin').execute(),
    [],
  );
  const active = admins.filter((a) => !a.is_frozen);
  const without2fa = active.filter((a) => !a.totp_enabled).map((a) => a.username);
  if (active.length === 0)
    findings.push(
      problem(
        'admins',
        'no active admin',
        'Start the server and open the /setup link it prints, or run: npm run cli -- create-admin --username U --email E --password P',
      ),
    );
  else if (without2fa.length)
    findings.push(
      problem(
        'admins',
        `without 2FA: ${without2fa.join(', ')}`,
        'Each admin turns on two-factor authentication in their profile',
      ),
    );
  else findings.push(ok('admins', `${active.length} admin(s), all with 2FA`));

  findings.push(await backupFinding(config, now));
  return findings;
}

/** The newest file `backup` (or the compose backup service) left in the backup directory, and its age. */
async function backupFinding(config: Config, now: Date): Promise<Finding> {
  const dir = backupDir(config);
  const newest = await newestBackup(dir);
  const fix = `Run: npm run cli -- backup (or the compose backup service) regularly; BACKUP_DIR names where they go (now ${dir})`;
  if (!newest) return warning('backup', `no backup in ${dir}`, fix);
  const hours = (now.getTime() - newest.at.getTime()) / 3_600_000;
  return hours > config.BACKUP_MAX_AGE_HOURS
    ? warning(
        'backup',
        `the newest backup is ${Math.floor(hours)} hours old (more than ${config.BACKUP_MAX_AGE_HOURS}): ${newest.file}`,
        fix,
      )
    : ok('backup', `${newest.file}, ${Math.max(0, Math.floor(hours * 60))} minutes old`);
}

function configuration(config: Config, database: DatabaseHandle): Finding {
  const notes: string[] = [];
  if (database.backend === 'postgres' && !config.SECRET_KEY)
    notes.push('SECRET_KEY is unset (several servers on one PostgreSQL must share one key)');
  if (!config.PUBLIC_URL) notes.push('PUBLIC_URL is unset (links in mail point to http://HOST:PORT)');
  if (config.PASSWORD_HASH_COST < 17)
    notes.push(`PASSWORD_HASH_COST is ${config.PASSWORD_HASH_COST} (below OWASP's 17)`);
  if (notes.length === 0) return ok('configuration', 'valid');
  return warning('configuration', notes.join('; '), 'Set them in the environment (README, Configuration)');
}

/** The findings as lines a person reads, and the exit code: 1 when any is a problem. */
export function formatFindings(findings: Finding[]): { text: string; exitCode: number } {
  const mark: Record<Verdict, string> = { ok: 'ok     ', warning: 'WARNING', problem: 'PROBLEM' };
  const lines = findings.flatMap((f) => [
    `${mark[f.verdict]}  ${f.check}: ${f.detail}`,
    ...(f.fix ? [`         fix: ${f.fix}`] : []),
  ]);
  const problems = findings.filter((f) => f.verdict === 'problem').length;
  lines.push(problems ? `${problems} problem(s) to fix` : 'no problems');
  return { text: lines.join('\n'), exitCode: problems ? 1 : 0 };
}
