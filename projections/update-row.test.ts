import { describe, expect, it } from 'vitest';
import { BufferedRowStore } from './buffered-row-store.ts';
import { MemoryRowStore } from './memory-row-store.ts';
import type { Row, TableSpec } from './projection.ts';
import { updateRow } from './update-row.ts';

const specs: TableSpec[] = [{ name: 'users', key: ['id'] }];
const CAUSE = { projection: 'users', noun: 'user' };
const renamed = { type: 'UserRenamed' };

describe('updateRow', () => {
  it('leaves a row it was handed from outside as it was: a command may share it with a cache of live rows', async () => {
    const live: Row = { id: 'u1', username: 'alice', status: 'active' };
    const store = new BufferedRowStore(specs, async () => live);
    await updateRow(store, 'users', ['u1'], () => ({ username: 'bob' }) as never, renamed, CAUSE);
    expect(live).toEqual({ id: 'u1', username: 'alice', status: 'active' });
    expect(await store.get('users', ['u1'])).toEqual({ id: 'u1', username: 'bob', status: 'active' });
  });

  it('merges the change into a store that owns its rows, the change computed from the row before it', async () => {
    const store = new MemoryRowStore(specs);
    await store.put('users', { id: 'u1', username: 'alice', status: 'active' } as never);
    await updateRow(
      store,
      'users',
      ['u1'],
      (row) => ({ username: `${String(row.username)}2`, status: 'suspended' }) as never,
      renamed,
      CAUSE,
    );
    expect(await store.get('users', ['u1'])).toEqual({ id: 'u1', username: 'alice2', status: 'suspended' });
  });

  it('names the projection and the missing row instead of writing half a row', async () => {
    const store = new MemoryRowStore(specs);
    await expect(updateRow(store, 'users', ['nobody'], () => ({}) as never, renamed, CAUSE)).rejects.toThrow(
      'users projection: UserRenamed for unknown user nobody',
    );
    expect(store.tables.get('users')!.size).toBe(0);
  });
});
