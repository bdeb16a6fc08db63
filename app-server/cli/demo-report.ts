import { publicUrl } from '../config.ts';
import type { DemoReport } from '../demo/seed-demo.ts';
import type { AppDeps } from '../app-deps.ts';

/** What seed-demo made, and how to sign in as each role. */
export function formatDemoReport(report: DemoReport, deps: Pick<AppDeps, 'config' | 'database'>): string {
  const width = Math.max(...report.accounts.map((a) => a.username.length));
  return [
    `Demo data in ${deps.database.backend} ${deps.database.location}: ${report.events} events`,
    `  escrows: ${Object.entries(report.escrowsByStatus)
      .sort()
      .map(([s, n]) => `${s} ${n}`)
      .join(', ')}`,
    `  pool addresses: ${report.addresses} (${deps.config.BITCOIN_NETWORK}; random, nobody holds their keys: never send real bitcoin to them)`,
    `  reviews: ${Object.entries(report.reviews)
      .sort()
      .map(([s, n]) => `${s} ${n}`)
      .join(', ')}`,
    '',
    `Sign in at ${publicUrl(deps.config)}/login (every account has the same password):`,
    ...report.accounts.map((a) => `  ${a.username.padEnd(width)}  ${a.role.padEnd(6)}  ${report.password}`),
    '',
    'The admin has no 2FA yet: turn it on in the profile before using the console for real.',
  ].join('\n');
}
