import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../projections/registry.ts';
import { bearer, form, json } from '../testing/accounts.ts';
import { freshAddress } from '../testing/bitcoin.ts';
import { openMarket } from '../testing/market.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { exportEvents } from './export.ts';
import { importEvents, ImportRefused } from './import.ts';
import { readChainHead } from './chain-head.ts';

let source: TestApp;
let target: TestDatabase;
const dir = mkdtempSync(join(tmpdir(), 'escrow-import-'));
const file = join(dir, 'events.ndjson');

beforeAll(async () => {
  source = await openTestApp();
  target = await openTestDatabase();
  // A little of everything: accounts, a rate, a pool, escrows (one funded, one disputed), a review.
  const { admin, buyer, seller } = await openMarket(source, [freshAddress(), freshAddress()]);
  const open = async () => {
    const res = await source.app.request(
      '/api/escrows',
      json(
        {
          product_service: 'Camera',
          description: 'Mirrorless',
          amount_usd: '1000.00',
          seller_email: 'sam@example.com',
        },
        buyer.token,
      ),
    );
    return ((await res.json()) as { id: string }).id;
  };
  const funded = await open();
  await source.app.request(`/api/escrows/${funded}/mark-paid`, form({ notes: 'sent' }, buyer.token));
  expect(
    (await source.app.request(`/api/admin/escrows/${funded}/verify-payment`, form({ verified: 'true' }, admin.token)))
      .status,
  ).toBe(200);
  const disputed = await open();
  expect(
    (
      await source.app.request(
        `/api/escrows/${disputed}/open-dispute`,
        json({ reason: 'The seller went quiet' }, seller.token),
      )
    ).status,
  ).toBe(200);
  await source.app.request(
    '/api/reviews',
    json(
      {
        reviewer_name: 'Ann',
        reviewer_email: 'ann@example.com',
        rating: 5,
        title: 'Smooth',
        content: 'It all went as described.',
        country: 'Germany',
      },
      buyer.token,
    ),
  );
  const out = createWriteStream(file);
  await exportEvents(source.database.db, (chunk) => void out.write(chunk));
  await new Promise<void>((resolve) => out.end(resolve));
});
afterAll(async () => {
  await source?.close();
  await target?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const readModelTables = projections.flatMap((p) => p.tables.map((t) => t.name));
/** Every row of a table, as sorted JSON lines: the same rows give the same text on either side. */
async function rowsOf(db: TestDatabase['db'], table: string) {
  const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(db);
  return rows.map((row) => JSON.stringify(row)).sort();
}

describe('import-events', () => {
  it('refuses a broken chain, naming the line, and keeps nothing of it', async () => {
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const changed = JSON.parse(lines[5]!) as { data: Record<string, unknown> };
    changed.data = { ...changed.data, tampered: true };
    const broken = join(dir, 'broken.ndjson');
    writeFileSync(broken, [...lines.slice(0, 5), JSON.stringify(changed), ...lines.slice(6)].join('\n'));
    const refusal = await importEvents(target, broken).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ImportRefused);
    expect((refusal as Error).message).toMatch(/^line 6: event 5: /);
    expect(await readChainHead(target.db)).toEqual({ position: 0, hash: '0'.repeat(64) });
    expect(await target.db.selectFrom('events').select('position').execute()).toEqual([]);
  });

  it('loads the export into an empty store with the same chain head and the same read models', async () => {
    const report = await importEvents(target, file);
    const head = await readChainHead(source.database.db);
    expect(head.position).toBeGreaterThan(20);
    expect(report.head).toEqual(head);
    expect(await readChainHead(target.db)).toEqual(head);
    for (const table of readModelTables)
      expect(await rowsOf(target.db, table), table).toEqual(await rowsOf(source.database.db, table));
    expect(await rowsOf(target.db, 'streams')).toEqual(await rowsOf(source.database.db, 'streams'));
    expect((await rowsOf(target.db, 'escrows')).length).toBe(2);
    // No secrets travel: nobody can sign in until an admin sets passwords again.
    expect(await target.db.selectFrom('credentials').select('user_id').execute()).toEqual([]);
  });

  it('refuses a store that already has events', async () => {
    await expect(importEvents(target, file)).rejects.toThrow(/the store is not empty/);
  });

  it('leaves a store that works: an admin given a password again can act on the restored escrows', async () => {
    const restored = await openTestApp();
    try {
      await importEvents(restored.database, file);
      const admin = await restored.database.db
        .selectFrom('users')
        .select('id')
        .where('role', '=', 'admin')
        .executeTakeFirstOrThrow();
      const { resetPassword } = await import('../accounts/admin-users.ts');
      await resetPassword(restored.deps, admin.id, 'a temporary passphrase', { actor: 'system', requestId: 'test' });
      const login = await restored.app.request(
        '/api/auth/login',
        json({ username: 'root', password: 'a temporary passphrase' }),
      );
      expect(login.status).toBe(200);
      const { access_token } = (await login.json()) as { access_token: string };
      // A temporary password must be replaced before anything else.
      const changed = await restored.app.request(
        '/api/auth/change-password',
        json({ current_password: 'a temporary passphrase', new_password: 'the admin own passphrase' }, access_token),
      );
      expect(changed.status).toBe(200);
      const list = await restored.app.request('/api/admin/disputes', bearer(access_token));
      expect(list.status).toBe(200);
    } finally {
      await restored.close();
    }
  });
});
