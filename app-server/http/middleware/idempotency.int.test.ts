import { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../../domain/shared/errors.ts';
import { openTestDatabase, type TestDatabase } from '../../testing/test-database.ts';
import type { AppEnv } from '../env.ts';
import { toHttpError } from '../errors.ts';
import { idempotency } from './idempotency.ts';

let t: TestDatabase;
let acted: number;
let app: Hono<AppEnv>;
/** Holds the acting request inside its handler until a test lets it go; open unless a test closes it. */
let gate: Promise<void> = Promise.resolve();

beforeAll(async () => {
  t = await openTestDatabase();
  app = new Hono<AppEnv>();
  app.use('*', idempotency({ db: t.db }));
  app.post('/transfer', async (c) => {
    acted += 1;
    await gate;
    return c.json({ transfer: acted }, 201);
  });
  app.post('/fails', () => {
    acted += 1;
    throw new Error('boom');
  });
  app.onError((error, c) => {
    const mapped = toHttpError(error);
    return c.json({ detail: mapped.detail }, mapped.status as 400);
  });
});
beforeEach(async () => {
  acted = 0;
  await t.reset();
});
afterAll(async () => t.dispose());

const post = (path: string, body: string, key?: string) =>
  app.request(path, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
  });

describe('Idempotency-Key', () => {
  it('returns the first answer to a retry instead of acting twice', async () => {
    const first = await post('/transfer', '{"amount":1}', 'key-1');
    const retry = await post('/transfer', '{"amount":1}', 'key-1');
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(await retry.json()).toEqual(await first.json());
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(acted).toBe(1);
  });

  it('acts every time without a key', async () => {
    await post('/transfer', '{}');
    await post('/transfer', '{}');
    expect(acted).toBe(2);
  });

  it('refuses the same key with a different body', async () => {
    await post('/transfer', '{"amount":1}', 'key-2');
    const other = await post('/transfer', '{"amount":2}', 'key-2');
    expect(other.status).toBe(422);
    expect(await other.json()).toEqual({
      detail: 'Idempotency-Key was already used with a different request',
    });
    expect(acted).toBe(1);
  });

  it('lets exactly one of two simultaneous requests with one key act', async () => {
    let open = () => {};
    gate = new Promise((resolve) => {
      open = resolve;
    });
    const both = [post('/transfer', '{}', 'key-3'), post('/transfer', '{}', 'key-3')];
    // Whichever came second answers while the first is still held in its handler.
    const second = await Promise.race(both);
    expect(second.status).toBe(409);
    open();
    const answers = await Promise.all(both);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(acted).toBe(1);
    gate = Promise.resolve();
  });

  it('forgets a server error so the client can retry', async () => {
    expect((await post('/fails', '{}', 'key-4')).status).toBe(500);
    expect((await post('/fails', '{}', 'key-4')).status).toBe(500);
    expect(acted).toBe(2);
  });

  it('refuses a malformed key', async () => {
    const res = await post('/transfer', '{}', 'bad key with spaces');
    expect(res.status).toBe(422);
    expect(acted).toBe(0);
  });

  it('maps domain errors through the one error mapping', () => {
    expect(toHttpError(new DomainError('transition_not_allowed', 'x')).status).toBe(409);
    expect(toHttpError(Object.assign(new Error('down'), { code: 'ECONNREFUSED' })).status).toBe(503);
    expect(toHttpError(new Error('bug'))).toMatchObject({ status: 500, unexpected: true });
  });
});
