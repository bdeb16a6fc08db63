import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventLeafHash,
  fromBase64,
  toBase64,
  verifyConsistency,
  verifyInclusion,
} from '../../../../domain/transparency/merkle.ts';
import { verifyCheckpoint } from '../../../../domain/transparency/note.ts';
import { bearer, json, signedInUser } from '../../../testing/accounts.ts';
import { openMarket } from '../../../testing/market.ts';
import { openTestApp, type TestApp } from '../../../testing/test-app.ts';
import { checkProofBundle } from '../../../../domain/transparency/proof.ts';
import { chainHash } from '../../../../domain/chain.ts';

let t: TestApp;
let escrowId: string;
let buyerToken: string;
let first: { size: number; root_hash: string };
beforeAll(async () => {
  t = await openTestApp({ PUBLIC_URL: 'https://escrow.example' });
  await t.deps.transparency!.introduceKey(t.deps.store);
  const { buyer } = await openMarket(t, ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4']);
  buyerToken = buyer.token;
  const res = await t.app.request(
    '/api/escrows',
    json(
      { product_service: 'Camera', description: 'Mirrorless', amount_usd: '1000.00', seller_email: 'sam@example.com' },
      buyer.token,
    ),
  );
  escrowId = ((await res.json()) as { id: string }).id;
  first = (await t.deps.transparency!.signIfGrown())!;
  await signedInUser(t, 'zed', 'seller'); // the log grows
  await t.deps.transparency!.signIfGrown();
}, 120_000);
afterAll(() => t.close());

const get = (path: string) => t.app.request(path);

describe('the public transparency API', () => {
  it('serves the latest checkpoint as a note the key verifies, cacheable, with no sign-in', async () => {
    const res = await get('/api/transparency/checkpoint');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/public/);
    const note = await res.text();
    const key = (await (await get('/api/transparency/key')).json()) as { origin: string; vkey: string };
    expect(key.origin).toBe('escrow.example/log');
    const checked = verifyCheckpoint(note, key.vkey);
    expect(checked.ok).toBe(true);
    expect(await (await get('/tlog/checkpoint')).text()).toBe(note);
  });

  it('lists checkpoints after a size, and proves inclusion and consistency against them', async () => {
    const list = (await (await get('/api/transparency/checkpoints?after=0')).json()) as {
      size: number;
      root_hash: string;
      signed_at: string;
      note: string;
    }[];
    expect(list.length).toBe(2);
    expect(list[0]).toEqual(expect.objectContaining({ size: first.size, root_hash: first.root_hash }));
    expect(((await (await get(`/api/transparency/checkpoints?after=${first.size}`)).json()) as unknown[]).length).toBe(
      1,
    );
    const [older, latest] = list as [(typeof list)[0], (typeof list)[0]];
    const events = await t.database.db.selectFrom('events').select(['position', 'hash']).orderBy('position').execute();
    for (const e of events.slice(0, latest.size)) {
      const res = await get(`/api/transparency/inclusion?index=${Number(e.position) - 1}&size=${latest.size}`);
      expect(res.headers.get('cache-control')).toMatch(/immutable/);
      const { proof } = (await res.json()) as { proof: string[] };
      expect(
        verifyInclusion(
          Number(e.position) - 1,
          latest.size,
          eventLeafHash(e.hash),
          proof.map((p) => fromBase64(p)!),
          fromBase64(latest.root_hash)!,
        ),
      ).toBe(true);
    }
    const { proof } = (await (
      await get(`/api/transparency/consistency?from=${older.size}&to=${latest.size}`)
    ).json()) as { proof: string[] };
    expect(
      verifyConsistency(
        older.size,
        latest.size,
        fromBase64(older.root_hash)!,
        fromBase64(latest.root_hash)!,
        proof.map((p) => fromBase64(p)!),
      ),
    ).toBe(true);
  });

  it('refuses sizes that are not signed checkpoints and bad numbers with 422 naming the field', async () => {
    for (const [path, field] of [
      ['/api/transparency/inclusion?index=0&size=3', 'size'],
      ['/api/transparency/inclusion?index=x&size=3', 'index'],
      [`/api/transparency/inclusion?index=${first.size}&size=${first.size}`, 'index'],
      ['/api/transparency/consistency?from=0&to=' + first.size, 'from'],
      ['/api/transparency/consistency?from=1&to=2', 'to'],
      ['/api/transparency/checkpoints?after=-1', 'after'],
    ] as const) {
      const res = await get(path);
      expect([400, 422], path).toContain(res.status);
      expect(((await res.json()) as { detail: string }).detail, path).toContain(field);
    }
  });

  it('serves hash tiles: partial ones of the stored width, none beyond the tree', async () => {
    const size = (await t.database.db.selectFrom('tlog_state').select('size').executeTakeFirstOrThrow()).size;
    const res = await get(`/tlog/tile/0/000.p/${Number(size)}`);
    expect(res.status).toBe(200);
    const body = new Uint8Array(await res.arrayBuffer());
    expect(body.length).toBe(32 * Number(size));
    const firstEvent = await t.database.db
      .selectFrom('events')
      .select('hash')
      .where('position', '=', 1)
      .executeTakeFirstOrThrow();
    expect(toBase64(body.slice(0, 32))).toBe(toBase64(eventLeafHash(firstEvent.hash)));
    expect((await get('/tlog/tile/0/000')).status).toBe(404);
    expect((await get('/tlog/tile/0/x1/000')).status).toBe(422);
  });
});

describe("an escrow's proof", () => {
  it('is given to its parties and checks offline; others get 404', async () => {
    const res = await t.app.request(`/api/escrows/${escrowId}/proof`, bearer(buyerToken));
    expect(res.status).toBe(200);
    const bundle = (await res.json()) as Parameters<typeof checkProofBundle>[0];
    expect(bundle.events.length).toBeGreaterThan(0);
    const result = checkProofBundle(bundle, { chainHash });
    expect(result).toEqual(expect.objectContaining({ ok: true }));
    const stranger = await signedInUser(t, 'eve', 'buyer');
    expect((await t.app.request(`/api/escrows/${escrowId}/proof`, bearer(stranger.token))).status).toBe(404);
    expect((await t.app.request(`/api/escrows/${escrowId}/proof`)).status).toBe(401);
    // A changed line, a changed proof hash, or another key fails.
    const line = JSON.parse(bundle.events[0]!.line) as { data: Record<string, unknown> };
    line.data.amount_cents = 1;
    expect(
      checkProofBundle({ ...bundle, events: [{ ...bundle.events[0]!, line: JSON.stringify(line) }] }, { chainHash }).ok,
    ).toBe(false);
  });
});

/** Go's golang.org/x/mod/sumdb packages, GOPATH mode, offline. */
function goAvailable(): boolean {
  return spawnSync('go', ['version']).status === 0;
}

describe('independent check with Go (golang.org/x/mod/sumdb/note and tlog)', () => {
  const present = goAvailable();
  if (!present && process.env.CI)
    it('needs go in CI', () => expect.fail('go is not installed: CI installs golang-go and golang-golang-x-mod-dev'));
  it.skipIf(!present)(
    'verifies the live checkpoint and every inclusion and consistency proof',
    async () => {
      const list = (await (await get('/api/transparency/checkpoints')).json()) as { size: number; root_hash: string }[];
      const latest = list.at(-1)!;
      const key = (await (await get('/api/transparency/key')).json()) as { vkey: string };
      const note = await (await get('/api/transparency/checkpoint')).text();
      const events = await t.database.db
        .selectFrom('events')
        .select(['position', 'hash'])
        .orderBy('position')
        .execute();
      const inclusion = [];
      for (const e of events.slice(0, latest.size)) {
        const index = Number(e.position) - 1;
        const { proof } = (await (
          await get(`/api/transparency/inclusion?index=${index}&size=${latest.size}`)
        ).json()) as { proof: string[] };
        inclusion.push({ index, leaf_hash: toBase64(eventLeafHash(e.hash)), proof });
      }
      const consistency = [];
      for (const c of list) {
        const { proof } = (await (
          await get(`/api/transparency/consistency?from=${c.size}&to=${latest.size}`)
        ).json()) as { proof: string[] };
        consistency.push({ from: c.size, from_root: c.root_hash, proof });
      }
      const dir = mkdtempSync(join(tmpdir(), 'tlog-go-'));
      try {
        const input = JSON.stringify({ vkey: key.vkey, note, inclusion, consistency });
        const run = (stdin: string) =>
          spawnSync('go', ['run', join(import.meta.dirname, '../../../transparency/testdata/check-with-go.go')], {
            input: stdin,
            encoding: 'utf8',
            env: {
              ...process.env,
              GO111MODULE: 'off',
              GOPATH: '/usr/share/gocode',
              GOCACHE: join(dir, 'cache'),
              GOFLAGS: '',
              GOPROXY: 'off',
              GOTOOLCHAIN: 'local',
            },
            timeout: 180_000,
          });
        const ok = run(input);
        expect(ok.stderr + ok.stdout).toContain(
          `ok: note by escrow.example/log, size ${latest.size}, ${inclusion.length} inclusion`,
        );
        // And Go refuses a changed checkpoint: the check can fail.
        writeFileSync(join(dir, 'x'), '');
        const forged = run(
          JSON.stringify({
            vkey: key.vkey,
            note: note.replace(`\n${latest.size}\n`, `\n${latest.size + 1}\n`),
            inclusion: [],
            consistency: [],
          }),
        );
        expect(forged.status).not.toBe(0);
        expect(forged.stderr).toContain('note');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    240_000,
  );
});
