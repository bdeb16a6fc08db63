import { describe, expect, it } from 'vitest';
import type { Row, TableSpec } from './projection.ts';
import { type SpillTarget, SpillingRowStore } from './spilling-row-store.ts';

const specs: TableSpec[] = [
  { name: 'users', key: ['id'] },
  { name: 'audit_log', key: ['id'], appendOnly: true },
];

/** A target that keeps its tables in maps and counts what it is asked. */
function memoryTarget() {
  const tables = new Map<string, Map<string, Row>>(specs.map((s) => [s.name, new Map()]));
  const calls = { inserted: 0, removed: 0, read: 0 };
  const target: SpillTarget = {
    async insert(table, rows) {
      for (const row of rows) {
        if (tables.get(table)!.has(String(row.id))) throw new Error(`duplicate key ${String(row.id)}`);
        tables.get(table)!.set(String(row.id), row);
      }
      calls.inserted += rows.length;
    },
    async remove(table, keys) {
      for (const key of keys) tables.get(table)!.delete(String(key.id));
      calls.removed += keys.length;
    },
    async read(spec, key) {
      calls.read++;
      return tables.get(spec.name)!.get(String(key[0]));
    },
  };
  return { tables, calls, target };
}

const user = (id: number, name = `u${id}`) => ({ id: String(id), username: name }) as never;

describe('SpillingRowStore', () => {
  it('holds at most its capacity, writes the rest out and reads it back by key', async () => {
    const { tables, calls, target } = memoryTarget();
    const store = new SpillingRowStore(specs, target, 8);
    for (let id = 1; id <= 40; id++) await store.put('users', user(id));
    expect(store.size).toBeLessThanOrEqual(8);
    // New rows cost no read: the filter knew none of them was written.
    expect(calls.read).toBe(0);
    expect(await store.get('users', ['1'])).toEqual({ id: '1', username: 'u1' });
    expect(calls.read).toBe(1);
    expect(await store.get('users', ['999'])).toBeUndefined();

    // A row changed after it was written out replaces the written one; a deleted one leaves the target.
    await store.put('users', user(1, 'renamed'));
    await store.delete('users', ['2']);
    await store.flush();
    expect(tables.get('users')!.get('1')).toEqual({ id: '1', username: 'renamed' });
    expect(tables.get('users')!.has('2')).toBe(false);
    expect(tables.get('users')!.size).toBe(39);
  });

  it('keeps a row in use in memory while new rows pass through', async () => {
    const { calls, target } = memoryTarget();
    const store = new SpillingRowStore(specs, target, 8);
    await store.put('users', user(1));
    for (let id = 2; id <= 40; id++) {
      await store.put('users', user(id));
      expect(await store.get('users', ['1'])).toEqual({ id: '1', username: 'u1' });
    }
    expect(store.size).toBeLessThanOrEqual(8);
    expect(calls.read).toBe(0); // never written out and read back
    expect(calls.inserted).toBeGreaterThan(0);
  });

  it('hands append-only rows to the target in batches, or drops them when told to', async () => {
    const { tables, target } = memoryTarget();
    const sink = { discard: false };
    const store = new SpillingRowStore(specs, target, 8, 3, sink);
    for (let id = 1; id <= 4; id++) await store.put('audit_log', { id } as never);
    expect(tables.get('audit_log')!.size).toBe(3);
    await store.flush();
    expect(tables.get('audit_log')!.size).toBe(4);
    sink.discard = true;
    await store.put('audit_log', { id: 5 } as never);
    await store.flush();
    expect(tables.get('audit_log')!.size).toBe(4);
    expect(store.size).toBe(0);
  });
});
