import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, json } from '../testing/accounts.ts';
import { openMarket } from '../testing/market.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';
import { checkpointLine } from './checkpoint-line.ts';

const ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ PUBLIC_URL: 'https://escrow.example' });
});
afterAll(async () => t.close());

const mails = async () =>
  t.database.db.selectFrom('mail_outbox').select(['to_address', 'subject', 'body']).orderBy('id').execute();
const lastLine = (body: string) => body.trimEnd().split('\n').at(-1);

describe('the checkpoint line of escrow mails', () => {
  it('ends each mail about an escrow with the latest signed checkpoint of the log', async () => {
    const people = await openMarket(t, [ADDRESS]);
    await t.deps.transparency!.introduceKey(t.deps.store);
    const first = (await t.deps.transparency!.signIfGrown())!;
    expect(first).not.toBeNull();
    const opened = await t.app.request(
      '/api/escrows',
      json(
        {
          product_service: 'Camera',
          description: 'Mirrorless body',
          amount_usd: '2000.00',
          deadline_days: 7,
          seller_email: 'sam@example.com',
        },
        people.buyer.token,
      ),
    );
    expect(opened.status).toBe(201);
    const { id } = (await opened.json()) as { id: string };
    const invitation = (await mails()).find((m) => m.subject === 'You are invited to an escrow')!;
    expect(lastLine(invitation.body)).toBe(checkpointLine(first));
    expect(lastLine(invitation.body)).toMatch(
      /^Transparency log escrow\.example\/log: checkpoint \d+, root [0-9a-f]{16}$/,
    );

    const second = (await t.deps.transparency!.signIfGrown())!;
    expect(second.size).toBeGreaterThan(first.size);
    const marked = await t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent' }, people.buyer.token));
    expect(marked.status).toBeLessThan(300);
    const about = (await mails()).filter((m) => m.subject.startsWith('Payment marked'));
    expect(about.length).toBeGreaterThan(0);
    for (const mail of about) expect(lastLine(mail.body)).toBe(checkpointLine(second));
  });
});
