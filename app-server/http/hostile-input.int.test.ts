import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, sessionUser } from '../auth/sessions.ts';
import { readChainHead } from '../event-store/chain-head.ts';
import { form, json, multipart, signedInUser } from '../testing/accounts.ts';
import { freshAddress } from '../testing/bitcoin.ts';
import { openMarket } from '../testing/market.ts';
import { openTestApp } from '../testing/test-app.ts';

/**
 * Hostile input against every route the app has: random and boundary bodies, wrong content types, broken
 * multipart, hostile path parameters and query strings. Whatever arrives: never a 5xx, every refusal is JSON with a
 * `detail` and no stack, and a refused request leaves the event log's head where it was. Then mass assignment:
 * fields a client may not set are ignored or refused.
 */

/** Requests per route; the whole file stays near a minute on PGlite. */
const RUNS = Number(process.env.HOSTILE_RUNS ?? 24);
/** Set high so the fuzzer reaches the code behind the rate limits instead of a 429 after a dozen tries. */
const t = await openTestApp({
  RATE_LIMIT_LOGIN: '100000',
  RATE_LIMIT_REGISTER: '100000',
  RATE_LIMIT_REVIEWS: '100000',
  RATE_LIMIT_CONTACT: '100000',
});
const { db } = t.database;
afterAll(async () => t.close());

// ---------------------------------------------------------------------------------------------------------------
// The routes, from the app itself, and their fields, from its OpenAPI document.

interface FieldSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: FieldSchema[];
  minLength?: number;
  minimum?: number;
  format?: string;
}
interface MediaSchema {
  properties?: Record<string, FieldSchema>;
}
interface Operation {
  parameters?: { name: string; in: string; schema?: FieldSchema }[];
  requestBody?: { content?: Record<string, { schema?: MediaSchema }> };
}
interface Route {
  method: string;
  /** Hono's form: /api/escrows/:id */
  path: string;
  params: string[];
  query: Record<string, FieldSchema>;
  /** Declared media types of the body, and the fields of each. */
  bodies: Record<string, Record<string, FieldSchema>>;
}

const doc = t.app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'fuzz', version: '0' } }) as unknown as {
  paths: Record<string, Record<string, Operation>>;
};
const routes: Route[] = [];
for (const r of t.app.routes) {
  // 'ALL' entries are middleware and the /api/* not-found handler; the web app's fallback lives outside /api.
  if (r.method === 'ALL' || !r.path.startsWith('/api/') || r.path.includes('*')) continue;
  if (routes.some((known) => known.method === r.method && known.path === r.path)) continue;
  const op = doc.paths[r.path.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
  const bodies: Route['bodies'] = {};
  for (const [type, content] of Object.entries(op?.requestBody?.content ?? {}))
    bodies[type] = content.schema?.properties ?? {};
  routes.push({
    method: r.method,
    path: r.path,
    params: [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1]!),
    query: Object.fromEntries(
      (op?.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.schema ?? {}]),
    ),
    bodies,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Hostile values. JSON is written by hand so that '__proto__' keys, duplicate keys, -0 and 1e309 reach the wire.

/** A number written as it stands in the JSON text. */
class Raw {
  constructor(readonly text: string) {}
}
/** An object as a list of entries: duplicate and '__proto__' keys survive. */
class Obj {
  constructor(readonly entries: (readonly [string, J])[]) {}
}
type J = null | boolean | string | Raw | Obj | J[];

const toJson = (v: J): string => {
  if (v instanceof Raw) return v.text;
  if (v instanceof Obj) return `{${v.entries.map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`;
  return JSON.stringify(v);
};
/** What a form field holds when a JSON value is sent through a form: arrays become repeated fields. */
const toFormValues = (v: J): string[] => {
  if (typeof v === 'string') return [v];
  if (v instanceof Raw) return [v.text];
  if (Array.isArray(v)) return v.flatMap(toFormValues);
  return [toJson(v)];
};

const MAX_BODY_BYTES = 1024 * 1024;
const ONE_MB = 'a'.repeat(1_000_000);
const ONE_MB_UNICODE = '€😀'.repeat(140_000); // 980,000 bytes of UTF-8, under the limit
const OVER_LIMIT = 'x'.repeat(MAX_BODY_BYTES + 1);
const isHuge = (s: string) => s.length >= 100_000;

/** Strings by kind, each kind drawn as often as the others. */
const CONTROL = [
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(8),
  '\u0001\u001f\u007f',
  '\t\n\r',
  '\r\n\r\n',
  '\u0085\u2028\u2029',
];
const UNICODE = [
  '\uD800',
  '\uDFFF',
  'x\uD83D',
  '\uDE00y',
  '\uFEFF',
  '\u202Egnp.exe',
  '\u200B\u200C\u200D',
  'e\u0301\u0301\u0301',
  'Ω≈ç√∫˜µ≤≥÷',
  '😀👨‍👩‍👧‍👦🏳️‍🌈',
  'ﷺ'.repeat(50),
  '𝕏'.repeat(100),
  'ā'.repeat(5001),
];
const INJECTION = [
  "'; DROP TABLE events; --",
  "' OR '1'='1",
  '"; DELETE FROM users WHERE ""="',
  "admin'--",
  '\\',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}}${7*7}<%= 7*7 %>',
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  '%s%s%s%n',
  '{"__proto__":{"polluted":true}}',
];
const NUMBERS_AS_STRINGS = [
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0',
  '-1',
  '1e308',
  '1e309',
  '-1e308',
  '5e-324',
  '0x10',
  '0b101',
  '1_000',
  '+5',
  '.5',
  '5.',
  ' 5 ',
  '4.5',
  '٣',
  '9'.repeat(400),
  '9007199254740993',
  '123456789012345678901234567890.123456789',
];
const WORDS = [
  '',
  ' ',
  'null',
  'undefined',
  'true',
  'false',
  'admin',
  'released',
  'funded',
  'approved',
  'a@example.com',
  'not an e-mail',
  'a@b',
  `${'a'.repeat(250)}@example.com`,
  '00000000-0000-0000-0000-000000000000',
  'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
  'A'.repeat(64),
  '__proto__',
];
/** Inserted into an otherwise plausible value, so that it passes the type check and reaches what lies behind. */
const TAINTS = [
  '\u0000',
  '\uD800',
  '\uDC00',
  "'; DROP TABLE events; --",
  '<script>alert(1)</script>',
  '😀',
  '\u202E',
  '%00',
  ' ',
];
const NASTY_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'id',
  'status',
  'role',
  'is_admin',
  'fee_bps',
  'amount_sats',
  'created_by',
  'verified_deal',
  '',
  ' ',
  '\u0000',
  'a[]',
  'a[b]',
  'a.b',
  '$where',
  "'; DROP TABLE events; --",
];
const RAW_NUMBERS = [
  '-0',
  '0',
  '-1',
  '1e308',
  '-1e308',
  '1e309',
  '-1e309',
  '5e-324',
  '1e-400',
  '9007199254740993',
  '123456789012345678901234567890',
  '4.5',
  '2.5',
  '0.1',
  '1E2',
];

const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...CONTROL) },
  { weight: 2, arbitrary: fc.constantFrom(...UNICODE) },
  { weight: 2, arbitrary: fc.constantFrom(...INJECTION) },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBERS_AS_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.bigInt().map(String) },
  { weight: 1, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.constantFrom(ONE_MB, ONE_MB_UNICODE, OVER_LIMIT) },
);
const hostileNumber: fc.Arbitrary<Raw> = fc.oneof(
  fc.constantFrom(...RAW_NUMBERS).map((n) => new Raw(n)),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => new Raw(Object.is(d, -0) ? '-0' : String(d))),
  fc.integer().map((n) => new Raw(String(n))),
);
const hostileKey = (fields: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    ...(fields.length ? [{ weight: 3, arbitrary: fc.constantFrom(...fields) }] : []),
    { weight: 3, arbitrary: fc.constantFrom(...NASTY_KEYS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
const hostileValue = (fields: string[]): fc.Arbitrary<J> =>
  fc.letrec<{ value: J }>((tie) => ({
    value: fc.oneof(
      { maxDepth: 3, depthSize: 'small' },
      { weight: 5, arbitrary: hostileString },
      { weight: 3, arbitrary: hostileNumber },
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.boolean() },
      { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 3 }) },
      {
        weight: 1,
        arbitrary: fc.array(fc.tuple(hostileKey(fields), tie('value')), { maxLength: 3 }).map((e) => new Obj(e)),
      },
    ),
  })).value;

const BROKEN_JSON = [
  '',
  '{',
  '{"a":',
  'nul',
  '{"a":1}}',
  "{'a':1}",
  '{"a":1,}',
  '\u0000',
  '\uFEFF{}',
  '[',
  'NaN',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"a":"\\x00"}',
  '"just a string"',
  '123',
  'true',
  '[]',
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
  `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  `{${Array.from({ length: 30_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
  `{"a":"${'b'.repeat(MAX_BODY_BYTES)}"}`,
];

const BROKEN_MULTIPART: { contentType: string; text: string }[] = [
  { contentType: 'multipart/form-data', text: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n' },
  { contentType: 'multipart/form-data; boundary=', text: '--\r\n\r\n--' },
  {
    contentType: 'multipart/form-data; boundary=XYZ',
    text: '--XYZ\r\nContent-Disposition: form-data; name="notes"\r\n\r\nunterminated',
  },
  {
    contentType: 'multipart/form-data; boundary=XYZ',
    text: '--ABC\r\nContent-Disposition: form-data; name="notes"\r\n\r\nx\r\n--ABC--\r\n',
  },
  { contentType: 'multipart/form-data; boundary=XYZ', text: '--XYZ\r\n\r\nno headers\r\n--XYZ--\r\n' },
  {
    contentType: 'multipart/form-data; boundary=XYZ',
    text: '--XYZ\r\nContent-Disposition: form-data; name="a\r\nX-Evil: 1"\r\n\r\nv\r\n--XYZ--\r\n',
  },
  {
    contentType: 'multipart/form-data; boundary=XYZ',
    text: '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="../../etc/passwd"\r\nContent-Type: application/x-msdownload\r\n\r\nMZ\u0000\u0000\r\n--XYZ--\r\n',
  },
  { contentType: `multipart/form-data; boundary=${'b'.repeat(300)}`, text: `--${'b'.repeat(300)}\r\n\r\n` },
  { contentType: 'multipart/form-data; boundary="unclosed', text: '--unclosed--' },
  { contentType: 'multipart/form-data; boundary=XYZ', text: '' },
  {
    contentType: 'multipart/form-data; boundary=XYZ',
    text: `--XYZ\r\nContent-Disposition: form-data; name="notes"\r\n\r\n${ONE_MB}\r\n--XYZ`,
  },
];
const WRONG_TYPES = [
  'text/plain',
  'text/html',
  'application/xml',
  'application/octet-stream',
  'image/png',
  'application/json',
  'application/json; charset=utf-16',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=shift_jis',
  'multipart/form-data',
  'application/problem+json',
  'APPLICATION/JSON',
  ';;;',
  '*/*',
  'foo',
];
const WRONG_TEXTS = [
  '',
  '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>',
  '{"a":1}',
  'a=1&b=2',
  '%%%=&&=%ZZ',
  '\u0000\u0001\u0002',
  'not json at all',
  'role=admin&__proto__[polluted]=1',
];

interface FilePart {
  file: string;
  type: string;
  bytes: Uint8Array;
}
type Body =
  | { kind: 'none'; contentType?: string }
  | { kind: 'text'; contentType?: string; text: string }
  | { kind: 'form'; parts: (readonly [string, string | FilePart])[] };

const hostileFile: fc.Arbitrary<FilePart> = fc.record({
  file: fc.constantFrom(
    'proof.txt',
    '',
    '../../etc/passwd',
    'a\u0000.png',
    'évidence 😀.pdf',
    'x'.repeat(300),
    'shell.php.png',
  ),
  type: fc.constantFrom('text/plain', 'image/png', 'application/pdf', 'application/x-msdownload', '', 'text/html'),
  bytes: fc.oneof(
    fc.uint8Array({ maxLength: 64 }),
    fc.constantFrom(
      new TextEncoder().encode('plain proof'),
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]),
      new TextEncoder().encode('<script>alert(1)</script>'),
      new Uint8Array(0),
    ),
  ),
});

// ---------------------------------------------------------------------------------------------------------------
// The world the requests point into.

type Caller = 'admin' | 'buyer' | 'seller' | 'anonymous' | 'stranger-token';
const sessions = new Map<Caller, { userId: string; token: string }>();
const ids: Record<string, string[]> = {};
let allIds: string[] = [];
let mallory = '';

/** A caller's token; a session the fuzz ended (logout) is replaced, so later requests still get past sign-in. */
async function tokenFor(caller: Caller): Promise<string | undefined> {
  if (caller === 'stranger-token') return 'Z'.repeat(43);
  const session = sessions.get(caller);
  if (!session) return undefined;
  if (!(await sessionUser(db, session.token))) session.token = await openSession(db, session.userId);
  return session.token;
}

const chainHead = () => readChainHead(db);
/**
 * What a refusal may append: the lock a run of wrong 2FA codes sets off (the request that reaches the limit is still
 * answered "Invalid 2FA code"; the lock is the record of those refusals). Nothing else.
 */
const appendedByRefusal = async (after: number) =>
  (await db.selectFrom('events').select('type').where('position', '>', after).execute())
    .map((e) => e.type)
    .filter((type) => type !== 'TwoFactorLocked');

/** A plausible value for a field, to get past the first check and reach the code behind it. */
function plausible(name: string, schema: FieldSchema, asForm: boolean): fc.Arbitrary<J | FilePart> {
  if (schema.format === 'binary') return asForm ? hostileFile : fc.constant('');
  if (schema.enum?.length) return fc.constantFrom(...(schema.enum as J[]));
  const types = [schema.type, ...(schema.anyOf ?? []).map((s) => s.type)].flat().filter((x) => x && x !== 'null');
  if (types[0] === 'boolean') return fc.constant(asForm ? 'true' : true);
  if (types[0] === 'number' || types[0] === 'integer') {
    const n = String(schema.minimum ?? 5);
    return fc.constant(asForm ? n : new Raw(n));
  }
  if (/email/.test(name)) return fc.nat().map((n) => `hostile${n}@example.com`);
  if (/(^|_)id$/.test(name) || schema.format === 'uuid') {
    const kind = Object.keys(ids).find((k) => k.startsWith(name.replace(/_id$/, '')));
    return fc.constantFrom(...(kind ? ids[kind]! : allIds));
  }
  if (/address/.test(name)) return fc.constant(freshAddress());
  if (/txid/.test(name)) return fc.constant('ab'.repeat(32));
  if (/password/.test(name)) return fc.constant('hostile password 1');
  if (/username/.test(name)) return fc.nat().map((n) => `hostile_${n}`);
  if (/token/.test(name)) return fc.constant('t'.repeat(24));
  if (schema.format === 'date-time') return fc.constant(new Date().toISOString());
  return fc.constant('x'.repeat(Math.max(schema.minLength ?? 1, 12)));
}

const taint = (value: string, fragment: string, at: number) => {
  const i = at % (value.length + 1);
  return value.slice(0, i) + fragment + value.slice(i);
};
type Mutation =
  | { drop: string }
  | { set: string; to: J | FilePart }
  | { add: string; to: J | FilePart }
  | { taint: string; with: string; at: number };

/** Entries with the route's real field names: plausible values, then some replaced, dropped, repeated or added. */
function shapedEntries(
  fields: Record<string, FieldSchema>,
  asForm: boolean,
): fc.Arbitrary<(readonly [string, J | FilePart])[]> {
  const names = Object.keys(fields);
  const base = fc.tuple(...names.map((n) => plausible(n, fields[n]!, asForm).map((v) => [n, v] as const)));
  const value = asForm
    ? fc.oneof({ weight: 5, arbitrary: hostileValue(names) }, { weight: 1, arbitrary: hostileFile })
    : hostileValue(names);
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    ...(names.length
      ? [
          fc.record({ drop: fc.constantFrom(...names) }),
          fc.record({ set: fc.constantFrom(...names), to: value }),
          fc.record({ set: fc.constantFrom(...names), to: hostileString }),
          fc.record({ taint: fc.constantFrom(...names), with: fc.constantFrom(...TAINTS), at: fc.nat() }),
          fc.record({ taint: fc.constantFrom(...names), with: fc.constantFrom(...TAINTS), at: fc.nat() }),
        ]
      : []),
    fc.record({ add: hostileKey(names), to: value }),
  );
  return fc.tuple(base, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([entries, mutations]) => {
    let out: (readonly [string, J | FilePart])[] = entries;
    for (const m of mutations) {
      if ('drop' in m) out = out.filter(([k]) => k !== m.drop);
      else if ('set' in m) out = out.map(([k, v]) => [k, k === m.set ? m.to : v] as const);
      else if ('taint' in m)
        out = out.map(([k, v]) => [k, k === m.taint && typeof v === 'string' ? taint(v, m.with, m.at) : v] as const);
      else out = [...out, [m.add, m.to] as const];
    }
    return out;
  });
}

const isFile = (v: unknown): v is FilePart => typeof v === 'object' && v !== null && 'bytes' in v;
const jsonOf = (entries: (readonly [string, J | FilePart])[]) =>
  toJson(new Obj(entries.map(([k, v]) => [k, isFile(v) ? v.file : v] as const)));
type Part = readonly [string, string | FilePart];
const formParts = (entries: (readonly [string, J | FilePart])[]): Part[] =>
  entries.flatMap(([k, v]): Part[] => (isFile(v) ? [[k, v]] : toFormValues(v).map((s): Part => [k, s])));

/** Every kind of body, weighted towards what the route declares so that most requests reach its validation. */
function bodies(route: Route): fc.Arbitrary<Body> {
  const jsonFields = route.bodies['application/json'];
  const formFields = route.bodies['application/x-www-form-urlencoded'] ?? route.bodies['multipart/form-data'];
  const anyFields = Object.keys(jsonFields ?? formFields ?? {});
  const jsonType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/vnd.api+json',
    'Application/JSON',
  );
  const options: { weight: number; arbitrary: fc.Arbitrary<Body> }[] = [
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('none' as const),
        contentType: fc.option(fc.constantFrom(...WRONG_TYPES), { nil: undefined }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('text' as const),
        contentType: fc.option(fc.constantFrom(...WRONG_TYPES), { nil: undefined }),
        text: fc.constantFrom(...WRONG_TEXTS),
      }),
    },
    { weight: 1, arbitrary: fc.constantFrom(...BROKEN_MULTIPART).map((b) => ({ kind: 'text' as const, ...b })) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('text' as const),
        contentType: jsonType,
        text: fc.constantFrom(...BROKEN_JSON),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('text' as const),
        contentType: jsonType,
        text: hostileValue(anyFields).map(toJson),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('text' as const),
        contentType: jsonType,
        text: fc.jsonValue().map((v) => JSON.stringify(v)),
      }),
    },
  ];
  if (jsonFields)
    options.push({
      weight: 8,
      arbitrary: fc.record({
        kind: fc.constant('text' as const),
        contentType: jsonType,
        text: shapedEntries(jsonFields, false).map(jsonOf),
      }),
    });
  if (formFields) {
    const shaped = shapedEntries(formFields, true).map(formParts);
    options.push(
      { weight: 4, arbitrary: shaped.map((parts) => ({ kind: 'form' as const, parts })) },
      {
        weight: 4,
        arbitrary: shaped.map((parts) => ({
          kind: 'text' as const,
          contentType: 'application/x-www-form-urlencoded',
          text: new URLSearchParams(parts.map(([k, v]) => [k, typeof v === 'string' ? v : v.file])).toString(),
        })),
      },
    );
  }
  if (!jsonFields && !formFields) {
    // No declared body: one of each shape is still sent, with the names of a few real fields of other calls.
    options.push({
      weight: 2,
      arbitrary: shapedEntries({}, true).map((entries) => ({ kind: 'form' as const, parts: formParts(entries) })),
    });
  }
  return fc.oneof(...options);
}

const wellFormed = (s: string) =>
  s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
const BAD_PARAMS = [
  'not-a-uuid',
  '%',
  '%ZZ',
  '%00',
  '%E0%A4%A',
  '%C0%AF',
  '..',
  '%2e%2e',
  '..%2F..%2Fetc%2Fpasswd',
  'a'.repeat(10_000),
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  "1'%20OR%20'1'%3D'1",
  '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  '%F0%9F%98%80',
  '%uD800',
  '-1',
  '1e308',
];
const paramValue = (route: Route): fc.Arbitrary<string> => {
  const resource = /\/([a-z-]+)\/:\w+/.exec(route.path)?.[1] ?? '';
  const real = ids[resource] ?? allIds;
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...real) },
    { weight: 1, arbitrary: fc.constantFrom(...allIds) },
    { weight: 1, arbitrary: fc.constantFrom(...real).map((id) => id.toUpperCase()) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 3, arbitrary: fc.constantFrom(...BAD_PARAMS) },
    { weight: 2, arbitrary: hostileString.filter((s) => !isHuge(s)).map((s) => encodeURIComponent(wellFormed(s))) },
  );
};
const queryString = (route: Route): fc.Arbitrary<string> => {
  const names = Object.keys(route.query);
  const search = (entries: (readonly [string, string])[]) =>
    `?${new URLSearchParams(entries.map(([k, v]) => [wellFormed(k), wellFormed(v)])).toString()}`;
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    ...(names.length
      ? [
          {
            weight: 6,
            arbitrary: shapedEntries(route.query, true).map((entries) =>
              search(formParts(entries).map(([k, v]) => [k, typeof v === 'string' ? v : v.file] as const)),
            ),
          },
        ]
      : []),
    {
      weight: 4,
      arbitrary: fc
        .array(
          fc.tuple(
            hostileKey(names),
            hostileString.filter((s) => s !== OVER_LIMIT),
          ),
          { minLength: 1, maxLength: 4 },
        )
        .map(search),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '?%',
        '?a=%ZZ',
        '?&&&==',
        '?limit=1e308',
        '?before=99999999999',
        '?after=-1',
        '?skip=9007199254740993',
        '?from=2024-13-45T99:99:99Z',
        '?limit[]=1&limit[]=2',
        '?__proto__[x]=1',
        '?country=%ED%A0%80',
        '?actor=%00',
        '?q=%C0%AF',
      ),
    },
  );
};

interface Attempt {
  caller: Caller;
  method: string;
  params: string[];
  query: string;
  body: Body;
  headers: Record<string, string>;
}
const callers = (route: Route): fc.Arbitrary<Caller> =>
  route.path.startsWith('/api/admin/')
    ? fc.oneof(
        { weight: 8, arbitrary: fc.constant<Caller>('admin') },
        { weight: 1, arbitrary: fc.constantFrom<Caller>('buyer', 'anonymous', 'stranger-token') },
      )
    : fc.oneof(
        { weight: 4, arbitrary: fc.constant<Caller>('buyer') },
        { weight: 2, arbitrary: fc.constantFrom<Caller>('admin', 'seller') },
        { weight: 1, arbitrary: fc.constantFrom<Caller>('anonymous', 'stranger-token') },
      );
const extraHeaders = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('key with spaces', 'x'.repeat(300), '', 'ok-key').map((k) => ({ 'idempotency-key': k })),
  },
  { weight: 1, arbitrary: fc.uuid().map((k) => ({ 'idempotency-key': k })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('bad id\twith tab', '../../x', 'x'.repeat(500)).map((id) => ({ 'x-request-id': id })),
  },
);

function attempts(route: Route): fc.Arbitrary<Attempt> {
  const sendsBody = route.method !== 'GET';
  return fc
    .record({
      caller: callers(route),
      // Now and then the route's path with a method it does not have.
      method: fc.oneof(
        { weight: 19, arbitrary: fc.constant(route.method) },
        { weight: 1, arbitrary: fc.constantFrom('PATCH', 'OPTIONS', 'PUT', 'DELETE', 'POST') },
      ),
      params: fc.tuple(...route.params.map(() => paramValue(route))),
      query: queryString(route),
      body: sendsBody ? bodies(route) : fc.constant<Body>({ kind: 'none' }),
      headers: extraHeaders,
    })
    .map((a) => Object.assign(a, { [fc.toStringMethod]: () => describeAttempt(route, a) }));
}

const preview = (s: string, n = 160) => JSON.stringify(s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);
function describeAttempt(route: Route, a: Attempt): string {
  const body =
    a.body.kind === 'none'
      ? `no body (${a.body.contentType ?? 'no content type'})`
      : a.body.kind === 'text'
        ? `${a.body.contentType ?? 'no content type'} ${preview(a.body.text)}`
        : `multipart ${a.body.parts.map(([k, v]) => `${preview(k, 30)}=${typeof v === 'string' ? preview(v, 60) : `<file ${preview(v.file, 30)} ${v.bytes.length} bytes>`}`).join(' ')}`;
  return `${a.caller} ${a.method} ${urlOf(route, a).slice(0, 200)} ${JSON.stringify(a.headers)} ${body}`;
}
const urlOf = (route: Route, a: Attempt) => {
  let i = 0;
  return route.path.replace(/:(\w+)/g, () => a.params[i++] ?? '') + a.query;
};

let fuzzed = 0;
const statuses = new Map<number, number>();
const STACK = /\n\s+at\s|\bat\s+\S+\s+\(|node_modules|\/work\/|[\w-]+\.(ts|js|mjs|cjs):\d+/;

/** Sends one attempt and checks the three promises; throws with the attempt's description when one is broken. */
async function check(route: Route, a: Attempt) {
  const token = await tokenFor(a.caller);
  const headers: Record<string, string> = { ...a.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) };
  let body: BodyInit | undefined;
  if (a.body.kind !== 'none' && a.method !== 'GET') {
    if (a.body.kind === 'text') body = a.body.text;
    else {
      const data = new FormData();
      for (const [k, v] of a.body.parts)
        data.append(
          k,
          typeof v === 'string' ? v : new File([v.bytes as Uint8Array<ArrayBuffer>], v.file, { type: v.type }),
        );
      body = data;
    }
  }
  if (a.body.kind !== 'form' && a.body.contentType !== undefined) headers['content-type'] = a.body.contentType;

  const before = await chainHead();
  const res = await t.app.request(urlOf(route, a), { method: a.method, headers, body });
  const text = await res.text();
  const after = await chainHead();
  fuzzed += 1;
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);

  const what = `${describeAttempt(route, a)}\n  -> ${res.status} ${preview(text, 400)}`;
  expect(res.status, `5xx for ${what}`).toBeLessThan(500);
  expect(Object.keys(Object.prototype), `Object.prototype polluted by ${what}`).toEqual([]);
  if (res.status < 400) return;
  expect(res.headers.get('content-type') ?? '', `not JSON: ${what}`).toContain('application/json');
  let detail: unknown;
  try {
    detail = (JSON.parse(text) as { detail?: unknown }).detail;
  } catch {
    detail = undefined;
  }
  expect(typeof detail === 'string' && detail.trim().length > 0, `no detail in ${what}`).toBe(true);
  expect(STACK.test(text), `a stack or a file path in ${what}`).toBe(false);
  if (after.position !== before.position)
    expect(await appendedByRefusal(before.position), `refused, yet the event log moved: ${what}`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------------------------

let market: Awaited<ReturnType<typeof openMarket>>;

beforeAll(async () => {
  market = await openMarket(
    t,
    Array.from({ length: 8 }, () => freshAddress()),
  );
  const { admin, buyer, seller } = market;
  const ok = async (res: Response | Promise<Response>, status = 200) => {
    const r = await res;
    if (r.status !== status) throw new Error(`fixture: ${r.status} ${await r.text()}`);
    return (await r.json()) as Record<string, unknown> & { id: string };
  };
  const target = await signedInUser(t, 'tim');
  const deal = {
    product_service: 'Camera',
    description: 'Mirrorless',
    amount_usd: '1000.00',
    seller_email: 'sam@example.com',
  };
  const open = await ok(t.app.request('/api/escrows', json(deal, buyer.token)), 201);
  const disputed = await ok(t.app.request('/api/escrows', json(deal, buyer.token)), 201);
  const proof = new File(['sent 0.02 BTC'], 'proof.txt', { type: 'text/plain' });
  await ok(
    t.app.request(`/api/escrows/${disputed.id}/mark-paid`, multipart({ notes: 'sent', file: proof }, buyer.token)),
  );
  await ok(
    t.app.request(
      `/api/admin/escrows/${disputed.id}/verify-payment`,
      form({ verified: 'true', notes: 'seen', txid: 'b'.repeat(64) }, admin.token),
    ),
  );
  // Opened with fields the client may not choose; the mass-assignment tests look at what was kept.
  mallory = randomUUID();
  await ok(
    t.app.request(
      `/api/escrows/${disputed.id}/open-dispute`,
      json(
        { reason: 'Not delivered', dispute_id: mallory, by: 'admin', opened_by_side: 'seller', status: 'resolved' },
        buyer.token,
      ),
    ),
  );
  const evidence = await db.selectFrom('payment_evidence').select('evidence_id').executeTakeFirstOrThrow();
  const dispute = await db.selectFrom('disputes').select('id').executeTakeFirstOrThrow();
  const review = await ok(
    t.app.request(
      '/api/reviews',
      json({ name: 'Ann', country: 'Norway', rating: 5, text: 'Smooth deal', terms_accepted: true }),
    ),
    201,
  );
  const address = await ok(
    t.app.request('/api/admin/addresses', form({ address_string: freshAddress() }, admin.token)),
    201,
  );

  Object.assign(ids, {
    escrows: [open.id, disputed.id],
    users: [target.id],
    disputes: [dispute.id],
    evidence: [evidence.evidence_id],
    reviews: [review.id],
    addresses: [address.id],
  });
  allIds = Object.values(ids).flat();
  sessions.set('admin', { userId: admin.id, token: admin.token });
  sessions.set('buyer', { userId: buyer.id, token: buyer.token });
  sessions.set('seller', { userId: seller.id, token: seller.token });
});

describe('mass assignment: fields a client may not set are ignored or refused', () => {
  const registration = (username: string, extra: Record<string, unknown> = {}) => ({
    full_name: `${username} Example`,
    email: `${username}@example.com`,
    username,
    password: 'a long enough password',
    confirm_password: 'a long enough password',
    ...extra,
  });
  const userNamed = (username: string) =>
    db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();

  it('registration never creates an admin, however the role is smuggled in', async () => {
    const before = await chainHead();
    const asAdmin = await t.app.request('/api/auth/register', json(registration('mal1', { role: 'admin' })));
    expect([asAdmin.status, await asAdmin.json()]).toEqual([
      422,
      { detail: 'role: Registration cannot create an admin', code: 'invalid_input' },
    ]);
    // Duplicate keys: the last one wins in JSON.parse, and it says admin.
    const dup = `{${toJson(new Obj(Object.entries(registration('mal2')) as [string, J][])).slice(1, -1)},"role":"buyer","role":"admin"}`;
    const duplicated = await t.app.request('/api/auth/register', {
      method: 'POST',
      body: dup,
      headers: { 'content-type': 'application/json' },
    });
    expect(duplicated.status).toBe(422);
    expect(await chainHead()).toEqual(before);
    expect(await userNamed('mal1')).toBeUndefined();
    expect(await userNamed('mal2')).toBeUndefined();

    const polluting = toJson(
      new Obj([
        ...(Object.entries(registration('mal3')) as [string, J][]),
        ['__proto__', new Obj([['role', 'admin']])],
        ['constructor', new Obj([['prototype', new Obj([['role', 'admin']])]])],
      ]),
    );
    const proto = await t.app.request('/api/auth/register', {
      method: 'POST',
      body: polluting,
      headers: { 'content-type': 'application/json' },
    });
    expect(proto.status).toBe(201);
    expect((await userNamed('mal3'))?.role).toBe('buyer');
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });

  it('registration ignores ids, verification, 2FA and suspension sent by the client', async () => {
    const smuggledId = randomUUID();
    const res = await t.app.request(
      '/api/auth/register',
      json(
        registration('mal4', {
          role: 'seller',
          id: smuggledId,
          user_id: smuggledId,
          is_admin: true,
          email_verified: true,
          totp_enabled: true,
          is_frozen: true,
          suspension_reason: 'x',
          created_at: '2000-01-01T00:00:00Z',
        }),
      ),
    );
    expect(res.status).toBe(201);
    const { user_id } = (await res.json()) as { user_id: string };
    expect(user_id).not.toBe(smuggledId);
    expect(await userNamed('mal4')).toMatchObject({
      id: user_id,
      role: 'seller',
      email_verified: false,
      totp_enabled: false,
      is_frozen: false,
      suspension_reason: null,
    });
    expect((await userNamed('mal4'))?.created_at.getFullYear()).not.toBe(2000);
    const event = await db
      .selectFrom('events')
      .select('data')
      .where('stream_id', '=', `user:${user_id}`)
      .executeTakeFirstOrThrow();
    const stored = JSON.stringify(event.data);
    for (const smuggled of [smuggledId, 'is_admin', 'email_verified', 'totp_enabled', 'is_frozen', '2000-01-01'])
      expect(stored).not.toContain(smuggled);
  });

  it('a new escrow takes its price, fee, status and parties from the server, never from the client', async () => {
    const { buyer, seller } = market;
    const deal = {
      product_service: 'Lens',
      description: '50 mm',
      amount_usd: '250.00',
      seller_email: 'sam@example.com',
      deadline_days: 10,
    };
    const control = (await (await t.app.request('/api/escrows', json(deal, buyer.token))).json()) as { id: string };
    const smuggledId = randomUUID();
    const smuggled = {
      id: smuggledId,
      escrow_id: smuggledId,
      status: 'released',
      fee_bps: 0,
      fee_cents: 0,
      fee_percentage: 0,
      amount_cents: 1,
      total_cents: 1,
      rate_cents: 1,
      amount_sats: 1,
      amount_btc: '0.00000001',
      fee_sats: 0,
      seller_sats: 1,
      buyer_sats: 1,
      created_by: seller.id,
      buyer_id: seller.id,
      creator_side: 'seller',
      buyer_email: 'mallory@example.com',
      assigned_address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      payout_address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      refund_address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      payment_txid: 'c'.repeat(64),
      payment_marked_at: '2000-01-01T00:00:00Z',
      funded_at: '2000-01-01T00:00:00Z',
      open_dispute_id: smuggledId,
      role: 'admin',
      is_admin: true,
    };
    const res = await t.app.request('/api/escrows', json({ ...deal, ...smuggled }, buyer.token));
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string };
    expect(created.id).not.toBe(smuggledId);
    const row = async (id: string) => {
      const {
        id: _id,
        created_at: _c,
        updated_at: _u,
        payment_due_at: _d,
        assigned_address: _a,
        assigned_address_id: _ai,
        ...rest
      } = await db.selectFrom('escrows').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return rest;
    };
    // Everything the client could not choose is exactly what the same deal without the extra fields got.
    expect(await row(created.id)).toEqual(await row(control.id));
    expect(await row(created.id)).toMatchObject({
      status: 'pending_payment',
      created_by: buyer.id,
      creator_side: 'buyer',
      buyer_email: 'ann@example.com',
      payment_txid: null,
      payout_address: null,
    });
    const event = await db
      .selectFrom('events')
      .select('data')
      .where('stream_id', '=', `escrow:${created.id}`)
      .where('type', '=', 'EscrowCreated')
      .executeTakeFirstOrThrow();
    const stored = JSON.stringify(event.data);
    for (const value of [smuggledId, 'mallory', 'released', seller.id, 'c'.repeat(64), '2000-01-01'])
      expect(stored).not.toContain(value);
  });

  it('a dispute gets a server-drawn id and the side of whoever opened it', async () => {
    const dispute = await db.selectFrom('disputes').selectAll().executeTakeFirstOrThrow();
    expect(dispute.id).not.toBe(mallory);
    expect(dispute).toMatchObject({ status: 'open', opened_by_side: 'buyer', opened_by: market.buyer.id });
  });

  it('switching roles never yields an admin, and extra fields change nothing else', async () => {
    const rita = await signedInUser(t, 'rita');
    const before = await chainHead();
    const toAdmin = await t.app.request('/api/profile/switch-role', form({ new_role: 'admin' }, rita.token));
    expect(toAdmin.status).toBe(403);
    expect(await chainHead()).toEqual(before);
    const sneaky = await t.app.request(
      '/api/profile/switch-role',
      form(
        {
          new_role: 'seller',
          role: 'admin',
          is_admin: 'true',
          id: market.admin.id,
          user_id: market.admin.id,
          email_verified: 'true',
        },
        rita.token,
      ),
    );
    expect(sneaky.status).toBe(200);
    expect(await userNamed('rita')).toMatchObject({ id: rita.id, role: 'seller', email_verified: false });
    expect((await userNamed('root'))?.role).toBe('admin');
  });

  it('an admin editing a user changes only name, e-mail and role', async () => {
    const vic = await signedInUser(t, 'vic');
    const res = await t.app.request(
      `/api/admin/users/${vic.id}`,
      form(
        {
          full_name: 'Vic Renamed',
          username: 'hijacked',
          id: randomUUID(),
          is_frozen: 'true',
          email_verified: 'true',
          totp_enabled: 'true',
          suspension_reason: 'x',
        },
        market.admin.token,
        'PUT',
      ),
    );
    expect(res.status).toBe(200);
    expect(await userNamed('vic')).toMatchObject({
      id: vic.id,
      full_name: 'Vic Renamed',
      is_frozen: false,
      email_verified: false,
      totp_enabled: false,
      suspension_reason: null,
    });
  });

  it('a submitted review waits for moderation, unverified, whatever it claims', async () => {
    const smuggledId = randomUUID();
    const res = await t.app.request(
      '/api/reviews',
      json({
        name: 'Mallory',
        country: 'Nowhere',
        rating: 5,
        text: 'Best ever',
        terms_accepted: true,
        id: smuggledId,
        status: 'approved',
        published: true,
        verified_deal: true,
        edited_by_admin: true,
        admin_edit_note: 'ok',
        created_at: '2000-01-01T00:00:00Z',
      }),
    );
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(id).not.toBe(smuggledId);
    const review = await db.selectFrom('reviews').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(review).toMatchObject({
      status: 'pending',
      published: false,
      verified_deal: false,
      edited_by_admin: false,
      admin_edit_note: null,
    });
    expect(review.created_at.getFullYear()).not.toBe(2000);
    // Claiming a verified deal on an escrow the (anonymous) reviewer is no party to changes nothing either.
    const claimed = await t.app.request(
      '/api/reviews',
      json({
        name: 'M',
        country: 'N',
        rating: 5,
        text: 'T',
        terms_accepted: true,
        escrow_id: ids.escrows![0],
        verified_deal: true,
      }),
    );
    const claimedId = ((await claimed.json()) as { id: string }).id;
    expect(
      (await db.selectFrom('reviews').select('verified_deal').where('id', '=', claimedId).executeTakeFirstOrThrow())
        .verified_deal,
    ).toBe(false);
  });

  it('a pool address starts available, on the configured network, assigned to nothing', async () => {
    const smuggledId = randomUUID();
    const res = await t.app.request(
      '/api/admin/addresses',
      form(
        {
          address_string: freshAddress(),
          id: smuggledId,
          status: 'assigned',
          network: 'testnet',
          assigned_to_escrow_id: ids.escrows![0]!,
        },
        market.admin.token,
      ),
    );
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(id).not.toBe(smuggledId);
    expect(await db.selectFrom('addresses').selectAll().where('id', '=', id).executeTakeFirstOrThrow()).toMatchObject({
      status: 'available',
      network: 'mainnet',
      assigned_to_escrow_id: null,
    });
  });
});

describe('hostile input to every route', () => {
  afterAll(() => {
    const byStatus = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
    console.log(`hostile input: ${fuzzed} requests over ${routes.length} routes (${byStatus.join(', ')})`);
  });

  it('found the routes in the app', () => {
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['POST /api/escrows', 'POST /api/escrows/:id/mark-paid', 'PUT /api/admin/users/:id']),
    );
  });

  for (const route of routes) {
    it(`${route.method} ${route.path}`, { timeout: 120_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(attempts(route), (a) => check(route, a)),
        { numRuns: RUNS },
      );
    });
  }

  it('sent every route its share of requests', () => {
    expect(fuzzed).toBeGreaterThanOrEqual(routes.length * RUNS);
  });
});
