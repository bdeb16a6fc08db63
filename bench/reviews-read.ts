/**
 * Reads of the public reviews page with 100,000 reviews in the store: GET /api/reviews (several filters and
 * sorts) and GET /api/reviews/stats, 32 requests at a time through the real app (in process, no network).
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/reviews-read.ts [--reviews 100000]
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { DomainEvent } from '../domain/events.ts';
import { projections } from '../projections/registry.ts';
import { secretBox } from '../app-server/auth/secret-box.ts';
import { loadConfig } from '../app-server/config.ts';
import { createEventStore, type StreamAppend } from '../app-server/event-store/append.ts';
import { createApp } from '../app-server/http/app.ts';
import { createLogger } from '../app-server/logger.ts';
import { withBenchDatabase } from './bench-database.ts';

const { values } = parseArgs({ options: { reviews: { type: 'string', default: '100000' }, seconds: { type: 'string', default: '5' } } });
const total = Number(values.reviews);
const seconds = Number(values.seconds);
const ratings = [5, 4.5, 4, 3.5, 3] as const;
const countries = ['Germany', 'France', 'Brazil', 'Japan', 'Kenya', 'Canada'];

await withBenchDatabase(async (database) => {
  const store = createEventStore(database.db, projections);
  const started = performance.now();
  for (let done = 0; done < total; done += 500) {
    const appends: StreamAppend[] = [];
    for (let i = done; i < Math.min(done + 500, total); i++) {
      const id = randomUUID();
      const events: DomainEvent[] = [
        { type: 'ReviewSubmitted', data: { review_id: id, name: `Reviewer ${i}`, email: null, country: countries[i % countries.length]!, rating: ratings[i % 5]!, text: `Review number ${i}`, escrow_id: null, verified_deal: false } },
      ];
      if (i % 10 !== 0) events.push({ type: 'ReviewApproved', data: {} });
      appends.push({ streamId: `review:${id}`, streamType: 'review', expectedVersion: 0, events });
    }
    await store.append(appends, { actor: 'system', request_id: 'bench' });
  }
  console.log(`${database.backend}: seeded ${total} reviews (90% approved) in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const app = createApp({ config: loadConfig({}), database, store, logger: createLogger('silent'), secrets: secretBox(randomBytes(32)) });
  for (const path of ['/api/reviews', '/api/reviews?skip=5000', '/api/reviews?sort=highest&min_rating=4.5', '/api/reviews?country=Kenya&sort=oldest', '/api/reviews/stats', '/api/reviews/countries']) {
    const latencies: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (performance.now() < deadline) {
          const t0 = performance.now();
          const res = await app.request(path);
          if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
          await res.arrayBuffer();
          latencies.push(performance.now() - t0);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
    console.log(`${path}: ${Math.round(latencies.length / seconds)} req/s, p50 ${p(0.5)} ms, p99 ${p(0.99)} ms`);
  }
});
