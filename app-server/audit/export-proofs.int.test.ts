import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTransaction, regtestProof, testAddress } from '../../domain/bitcoin/spv-fixtures.ts';
import { exportEvents } from '../event-store/export.ts';
import { form, json } from '../testing/accounts.ts';
import { openMarket } from '../testing/market.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { exportProofs, proofsPathOf } from './export-proofs.ts';
import { ExportBroken, verifyExport } from './verify-export.ts';

/** verify-export --with-proofs: the payment proofs travel beside the export and are checked again offline. */
const FLOOR = { minWorkBits: 0x2000ffff, minConfirmations: 3 };
let t: TestApp;
let exportPath: string;
let verifiedLine: number;
const dir = mkdtempSync(join(tmpdir(), 'export-proofs-'));

beforeAll(async () => {
  t = await openTestApp({ MIN_WORK_BITS: '0x2000ffff', MIN_CONFIRMATIONS: '3' });
  const address = testAddress(7, 'mainnet');
  const { admin, buyer } = await openMarket(t, [address]);
  const escrow = (await (
    await t.app.request(
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
    )
  ).json()) as { id: string; amount_sats: number };
  await t.app.request(`/api/escrows/${escrow.id}/mark-paid`, form({ notes: 'sent' }, buyer.token));
  const proof = regtestProof(makeTransaction([{ address, sats: escrow.amount_sats }], 'mainnet'), {
    bits: 0x2000ffff,
    following: 2,
  });
  const res = await t.app.request(
    `/api/admin/escrows/${escrow.id}/verify-payment`,
    form(
      { verified: 'true', notes: '', tx_hex: proof.tx_hex, txout_proof: proof.txout_proof, headers: proof.headers },
      admin.token,
    ),
  );
  expect(res.status).toBe(200);
  let text = '';
  await exportEvents(t.database.db, (chunk) => {
    text += chunk;
  });
  exportPath = join(dir, 'log.ndjson');
  writeFileSync(exportPath, text);
  let proofs = '';
  expect(await exportProofs(t.database.db, (chunk) => void (proofs += chunk))).toBe(1);
  writeFileSync(proofsPathOf(exportPath), proofs);
  verifiedLine = text.split('\n').findIndex((l) => l.includes('"PaymentVerified"')) + 1;
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

async function brokenAt(run: Promise<unknown>): Promise<ExportBroken> {
  const error = await run.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ExportBroken);
  return error as ExportBroken;
}

describe('verify-export --with-proofs', () => {
  it('re-checks every proof the export carries', async () => {
    expect(await verifyExport(exportPath, { withProofs: { path: proofsPathOf(exportPath), ...FLOOR } })).toMatchObject({
      proofsChecked: 1,
    });
    expect((await verifyExport(exportPath)).proofsChecked).toBeUndefined();
  });

  it('refuses a changed proof, a missing proofs file, and a proof that no longer meets the rules, at the event that names it', async () => {
    const changedPath = join(dir, 'changed.proofs.ndjson');
    const row = JSON.parse(readFileSync(proofsPathOf(exportPath), 'utf8')) as { headers: string };
    writeFileSync(changedPath, `${JSON.stringify({ ...row, headers: row.headers.slice(0, 160) })}\n`);
    const changed = await brokenAt(verifyExport(exportPath, { withProofs: { path: changedPath, ...FLOOR } }));
    expect(changed.line).toBe(verifiedLine);
    expect(changed.message).toContain('is not in the proofs file');

    const missing = await brokenAt(
      verifyExport(exportPath, { withProofs: { path: join(dir, 'none.ndjson'), ...FLOOR } }),
    );
    expect(missing.message).toContain('there is no proofs file');

    const stricter = await brokenAt(
      verifyExport(exportPath, {
        withProofs: { path: proofsPathOf(exportPath), minWorkBits: 0x17034219, minConfirmations: 3 },
      }),
    );
    expect(stricter.line).toBe(verifiedLine);
    expect(stricter.message).toContain('no longer holds');
    expect(stricter.message).toContain('too little work for mainnet');
  });
});
