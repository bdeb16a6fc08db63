/**
 * Single-event appends per second through the event store (version check, chain-head lock, hash, insert, inline
 * projections) with 1 and 16 concurrent writers, each on its own stream. Run:
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/append-throughput.ts
 * Without BENCH_DATABASE_URL it runs on an in-memory PGlite.
 */
import { randomUUID } from 'node:crypto';
import { createEventStore } from '../app-server/event-store/append.ts';
import { projections } from '../projections/registry.ts';
import { withBenchDatabase } from './bench-database.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

await withBenchDatabase(async (handle) => {
  const store = createEventStore(handle.db, projections);
  for (const writers of [1, 16]) {
    const deadline = performance.now() + SECONDS * 1000;
    let appended = 0;
    await Promise.all(
      Array.from({ length: writers }, async () => {
        const id = randomUUID();
        let version = 0;
        while (performance.now() < deadline) {
          const events =
            version === 0
              ? [
                  {
                    type: 'AddressAdded' as const,
                    data: { address_id: id, address: `bc1q${id}`, network: 'mainnet' },
                  },
                ]
              : [
                  {
                    type: version % 2 ? ('AddressAssigned' as const) : ('AddressFreed' as const),
                    data: { escrow_id: id },
                  },
                ];
          await store.append(
            [{ streamId: `address:${id}`, streamType: 'address', expectedVersion: version, events }],
            {
              actor: 'system',
              request_id: 'bench',
            },
          );
          version += 1;
          appended += 1;
        }
      }),
    );
    console.log(
      `${handle.backend}: ${writers} writer(s): ${Math.round(appended / SECONDS)} appends/s (${appended} in ${SECONDS}s)`,
    );
  }
});
