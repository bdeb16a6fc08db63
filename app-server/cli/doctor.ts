import { sql } from 'kysely';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { migrationsApplied } from '../db/migrate.ts';
import { LOW_POOL_THRESHOLD } from '../escrows/pool-alert.ts';
import { verifyChain } from '../event-store/verify-chain.ts';
import { MAX_MAIL_ATTEMPTS } from '../mail/sender.ts';

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

/** What an operator should know before trusting this deployment with money: each check, its verdict and the fix. */
export async function diagnose(config: Config, database: DatabaseHandle, now = new Date()): Promise<Finding[]> {
  const findings: Finding[] = [configuration(config, database)];
  try {
    await sql`SELECT 1`.execute(database.db);
    findings.push(ok('database', `${database.backend} at ${database.location} answers`));
  } catch (error) {
    findings.push(problem('database', `${database.backend} at ${database.location} does not answer: ${(error as Error).message}`, 'Start the database or correct DATABASE_URL'));
    return findings;
  }
  if (!(await migrationsApplied(database.db))) {
    findings.push(problem('migrations', 'migrations are pending', 'Run: npm run cli -- migrate (npm start also applies them)'));
    return findings;
  }
  findings.push(ok('migrations', 'all applied'));
  const db = database.db;

  const chain = await verifyChain(db);
  findings.push(
    chain.ok
      ? ok('chain', `${chain.events} events verify; head ${chain.head.position}:${chain.head.hash}`)
      : problem('chain', `broken at position ${chain.firstBreak!.position}: ${chain.firstBreak!.reason}`, 'Compare with your last published chain head and an export kept elsewhere (verify-export); restore from a good export (import-events)'),
  );

  const mail = await db
    .selectFrom('mail_outbox')
    .select([
      sql<number>`count(*) FILTER (WHERE attempts >= ${MAX_MAIL_ATTEMPTS})::int`.as('given_up'),
      sql<number>`count(*) FILTER (WHERE attempts < ${MAX_MAIL_ATTEMPTS} AND created_at < ${new Date(now.getTime() - MAIL_LATE_MINUTES * 60_000).toISOString()}::timestamptz)::int`.as('late'),
      sql<number>`count(*)::int`.as('unsent'),
      sql<string | null>`max(last_error)`.as('last_error'),
    ])
    .where('sent_at', 'is', null)
    .executeTakeFirstOrThrow();
  if (mail.given_up > 0) findings.push(problem('mail', `${mail.given_up} mail(s) failed ${MAX_MAIL_ATTEMPTS} times and will not be retried (last error: ${mail.last_error ?? 'none'})`, 'Check SMTP_URL and the mail server; those messages must be sent by hand'));
  else if (mail.late > 0) findings.push(warning('mail', `${mail.late} mail(s) queued for more than ${MAIL_LATE_MINUTES} minutes (last error: ${mail.last_error ?? 'none'})`, 'Is a server running (it sends the mail)? Check SMTP_URL and the mail server'));
  else findings.push(ok('mail', `${mail.unsent} waiting to be sent, none late`));

  const pool = await db.selectFrom('addresses').select(sql<number>`count(*)::int`.as('n')).where('status', '=', 'available').executeTakeFirstOrThrow();
  findings.push(
    pool.n >= LOW_POOL_THRESHOLD
      ? ok('address pool', `${pool.n} addresses available`)
      : problem('address pool', `${pool.n} addresses available (fewer than ${LOW_POOL_THRESHOLD}): buyers will be refused payment addresses`, `Add ${config.BITCOIN_NETWORK} addresses in the admin console (Addresses)`),
  );

  const settings = await db.selectFrom('settings').select(['rate_cents', 'rate_set_at']).where('id', '=', 1).executeTakeFirst();
  if (!settings?.rate_cents || !settings.rate_set_at) {
    findings.push(problem('BTC rate', 'no BTC/USD rate is set: nobody can open an escrow', 'Set it in the admin console (Pricing)'));
  } else {
    const hours = (now.getTime() - new Date(settings.rate_set_at).getTime()) / 3_600_000;
    findings.push(
      hours > RATE_STALE_HOURS
        ? warning('BTC rate', `set ${Math.floor(hours)} hours ago`, 'Update it in the admin console (Pricing): new escrows are priced with it')
        : ok('BTC rate', `set ${Math.max(0, Math.floor(hours * 60))} minutes ago`),
    );
  }

  const admins = await db.selectFrom('users').select(['username', 'totp_enabled', 'is_frozen']).where('role', '=', 'admin').execute();
  const active = admins.filter((a) => !a.is_frozen);
  const without2fa = active.filter((a) => !a.totp_enabled).map((a) => a.username);
  if (active.length === 0) findings.push(problem('admins', 'no active admin', 'Start the server and open the /setup link it prints, or run: npm run cli -- create-admin --username U --email E --password P'));
  else if (without2fa.length) findings.push(problem('admins', `without 2FA: ${without2fa.join(', ')}`, 'Each admin turns on two-factor authentication in their profile'));
  else findings.push(ok('admins', `${active.length} admin(s), all with 2FA`));
  return findings;
}

function configuration(config: Config, database: DatabaseHandle): Finding {
  const notes: string[] = [];
  if (database.backend === 'postgres' && !config.SECRET_KEY) notes.push('SECRET_KEY is unset (several servers on one PostgreSQL must share one key)');
  if (!config.PUBLIC_URL) notes.push('PUBLIC_URL is unset (links in mail point to http://HOST:PORT)');
  if (!config.SMTP_URL) notes.push('SMTP_URL is unset (mail is written to a file, not sent)');
  if (config.PASSWORD_HASH_COST < 17) notes.push(`PASSWORD_HASH_COST is ${config.PASSWORD_HASH_COST} (below OWASP's 17)`);
  if (notes.length === 0) return ok('configuration', 'valid');
  return warning('configuration', notes.join('; '), 'Set them in the environment (README, Configuration)');
}

/** The findings as lines a person reads, and the exit code: 1 when any is a problem. */
export function formatFindings(findings: Finding[]): { text: string; exitCode: number } {
  const mark: Record<Verdict, string> = { ok: 'ok     ', warning: 'WARNING', problem: 'PROBLEM' };
  const lines = findings.flatMap((f) => [`${mark[f.verdict]}  ${f.check}: ${f.detail}`, ...(f.fix ? [`         fix: ${f.fix}`] : [])]);
  const problems = findings.filter((f) => f.verdict === 'problem').length;
  lines.push(problems ? `${problems} problem(s) to fix` : 'no problems');
  return { text: lines.join('\n'), exitCode: problems ? 1 : 0 };
}
