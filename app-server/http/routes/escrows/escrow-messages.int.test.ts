import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messageListSchema, messageSchema } from '../../../../contract/messages.ts';
import { bearer, json, multipart, signedInAdmin, signedInUser } from '../../../testing/accounts.ts';
import { openFundedDeal } from '../../../testing/market.ts';
import { openTestApp, type TestApp } from '../../../testing/test-app.ts';
import { postMessage } from '../../../messages/post-message.ts';
import { sendDueMessageDigests } from '../../../messages/message-mail.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp();
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

type Message = {
  id: string;
  side: string;
  author: string;
  text: string;
  file?: { url: string; sha256: string; filename: string };
  created_at: string;
};
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0,
  0, 0, 0x90, 0x77, 0x53, 0xde,
]);
const detail = async (res: Response) => ((await res.json()) as { detail: string }).detail;
const messagesPath = (id: string) => `/api/escrows/${id}/messages`;
const say = (id: string, token: string, text: string) => t.app.request(messagesPath(id), json({ text }, token));
const read = async (id: string, token: string) => {
  const res = await t.app.request(messagesPath(id), bearer(token));
  expect(res.status).toBe(200);
  return messageListSchema.parse(await res.json()) as Message[];
};
const mailsTo = (to: string) =>
  t.database.db
    .selectFrom('mail_outbox')
    .select(['subject', 'body'])
    .where('to_address', '=', to)
    .orderBy('id')
    .execute();
const messageMails = async (to: string) => (await mailsTo(to)).filter((m) => /new messages?: escrow/i.test(m.subject));

describe('GET and POST /api/escrows/{id}/messages', () => {
  it('lets both parties and an admin write, and answers the conversation oldest first', async () => {
    const { id, buyer, seller, admin } = await openFundedDeal(t);
    const first = await say(id, buyer.token, '  Has it shipped?  ');
    expect(first.status).toBe(201);
    const written = messageSchema.parse(await first.json());
    expect(written).toMatchObject({ side: 'buyer', author: 'ann', text: 'Has it shipped?' });
    expect(written).not.toHaveProperty('file');
    expect((await say(id, seller.token, 'Yes, this morning')).status).toBe(201);
    expect((await say(id, admin.token, 'Noted')).status).toBe(201);

    const asBuyer = await read(id, buyer.token);
    expect(asBuyer.map((m) => [m.side, m.author, m.text])).toEqual([
      ['buyer', 'ann', 'Has it shipped?'],
      ['seller', 'sam', 'Yes, this morning'],
      ['admin', 'Admin', 'Noted'],
    ]);
    expect(asBuyer[0]!.id).toBe(written.id);
    // The admins see who of them wrote; the parties see "Admin", never an admin's sign-in name.
    expect((await read(id, admin.token)).map((m) => m.author)).toEqual(['ann', 'sam', 'root']);
    expect(await read(id, seller.token)).toEqual(asBuyer);
  });

  it('records each message as a MessagePosted event on the escrow stream, by its author', async () => {
    const { id, seller } = await openFundedDeal(t);
    await say(id, seller.token, 'Tracking 1Z999');
    const events = await t.database.db
      .selectFrom('events')
      .select(['type', 'data', 'metadata'])
      .where('stream_id', '=', `escrow:${id}`)
      .where('type', '=', 'MessagePosted')
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ side: 'seller', text: 'Tracking 1Z999' });
    expect(events[0]!.metadata).toMatchObject({ actor: seller.id });
  });

  it('answers 404 to anyone who is not a party or an admin, and 401 without a session', async () => {
    const { id, buyer } = await openFundedDeal(t);
    await say(id, buyer.token, 'Private');
    const stranger = await signedInUser(t, 'zoe');
    expect((await t.app.request(messagesPath(id), bearer(stranger.token))).status).toBe(404);
    const refused = await say(id, stranger.token, 'Let me in');
    expect(refused.status).toBe(404);
    expect(await detail(refused)).toBe('Escrow not found');
    expect((await t.app.request(messagesPath(id))).status).toBe(401);
    expect((await t.app.request(messagesPath(id), json({ text: 'hi' }))).status).toBe(401);
    expect(
      (await t.app.request(messagesPath('00000000-0000-4000-8000-000000000999'), bearer(buyer.token))).status,
    ).toBe(404);
    expect((await read(id, buyer.token)).map((m) => m.text)).toEqual(['Private']);
  });

  it('refuses empty, missing and too long text with a detail naming text, and stores nothing', async () => {
    const { id, buyer } = await openFundedDeal(t);
    for (const body of [{ text: '' }, { text: '   ' }, {}, { text: 'x'.repeat(4001) }, { text: 42 }]) {
      const res = await t.app.request(messagesPath(id), json(body, buyer.token));
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(422);
      expect(await detail(res)).toMatch(/^text /);
    }
    const noText = await t.app.request(
      messagesPath(id),
      multipart({ file: new File([PNG], 'a.png', { type: 'image/png' }) }, buyer.token),
    );
    expect(noText.status).toBe(422);
    expect(await detail(noText)).toMatch(/^text /);
    expect(
      (await t.app.request(messagesPath(id), { method: 'POST', headers: { authorization: `Bearer ${buyer.token}` } }))
        .status,
    ).toBe(422);
    expect(await read(id, buyer.token)).toEqual([]);
    expect((await say(id, buyer.token, 'x'.repeat(4000))).status).toBe(201);
  });

  it('takes a file under the evidence rules: its bytes beside the log, its SHA-256 in it, served to the parties only', async () => {
    const { id, buyer, seller, admin } = await openFundedDeal(t);
    const res = await t.app.request(
      messagesPath(id),
      multipart({ text: 'The parcel', file: new File([PNG], 'parcel.png', { type: 'image/png' }) }, buyer.token),
    );
    expect(res.status).toBe(201);
    const message = messageSchema.parse(await res.json());
    const sha256 = createHash('sha256').update(PNG).digest('hex');
    expect(message.file).toMatchObject({
      filename: 'parcel.png',
      content_type: 'image/png',
      size_bytes: PNG.byteLength,
      sha256,
    });
    const [event] = await t.database.db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'MessagePosted')
      .execute();
    expect(event!.data).toMatchObject({ file: { sha256, size_bytes: PNG.byteLength } });
    expect(JSON.stringify(event!.data)).not.toContain('iVBOR'); // no bytes, not even base64
    for (const who of [buyer, seller, admin]) {
      const file = await t.app.request(message.file!.url, bearer(who.token));
      expect(file.status).toBe(200);
      expect(file.headers.get('content-disposition')).toBe('attachment; filename="parcel.png"');
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
    }
    const stranger = await signedInUser(t, 'zoe');
    expect((await t.app.request(message.file!.url, bearer(stranger.token))).status).toBe(404);
  });

  it('refuses a file the evidence rules refuse (415, 413), writing neither the message nor the file', async () => {
    const { id, buyer } = await openFundedDeal(t);
    const html = new File(['<html><script>alert(1)</script></html>'], 'note.txt', { type: 'text/plain' });
    const asHtml = await t.app.request(messagesPath(id), multipart({ text: 'see', file: html }, buyer.token));
    expect(asHtml.status).toBe(415);
    expect(await detail(asHtml)).toMatch(/^file /);
    const lying = await t.app.request(
      messagesPath(id),
      multipart({ text: 'see', file: new File([PNG], 'photo.pdf', { type: 'application/pdf' }) }, buyer.token),
    );
    expect(lying.status).toBe(415);
    const huge = new Uint8Array(10 * 1024 * 1024 + 1);
    huge.set(PNG);
    const tooBig = await t.app.request(
      messagesPath(id),
      multipart({ text: 'big', file: new File([huge], 'big.png', { type: 'image/png' }) }, buyer.token),
    );
    expect(tooBig.status).toBe(413);
    expect(await read(id, buyer.token)).toEqual([]);
    expect(await t.database.db.selectFrom('evidence_files').select('evidence_id').execute()).toEqual([]);
  });

  it('refuses a message once the deal has ended (409 naming the status); the conversation stays readable', async () => {
    const market = await openFundedDeal(t);
    await say(market.id, market.buyer.token, 'Before the end');
    const res = await t.app.request(
      '/api/escrows',
      json(
        { product_service: 'Lamp', description: 'Desk lamp', amount_usd: '100.00', seller_email: 'sam@example.com' },
        market.buyer.token,
      ),
    );
    const { id } = (await res.json()) as { id: string };
    expect((await t.app.request(`/api/escrows/${id}/cancel`, bearer(market.buyer.token, 'POST'))).status).toBe(200);
    const late = await say(id, market.seller.token, 'Why cancel?');
    expect(late.status).toBe(409);
    expect(await detail(late)).toMatch(/cancelled/);
    expect(await read(id, market.buyer.token)).toEqual([]);
  });
});

describe('mail about new messages', () => {
  const later = (from: Date, minutes: number) => new Date(from.getTime() + minutes * 60_000).toISOString();
  const base = () => `http://localhost`;

  it('mails the other side at once, then at most once per escrow per 10 minutes: a digest of what waited', async () => {
    const { id, buyer, seller } = await openFundedDeal(t);
    const start = new Date();
    const as = (user: { id: string }, minutes: number) => ({
      actor: user.id,
      requestId: 'test',
      now: later(start, minutes),
    });
    await postMessage(t.deps.store, { escrowId: id, by: 'buyer', text: 'First question', file: null }, as(buyer, 0));
    const [first] = await messageMails('sam@example.com');
    expect(first!.subject).toBe(`New message: escrow ${id.slice(0, 8)}`);
    expect(first!.body).toContain('> First question');
    expect(first!.body).toContain(`/escrow/${id}`);
    expect(await messageMails('ann@example.com')).toEqual([]); // the writer is not mailed about their own words

    await postMessage(t.deps.store, { escrowId: id, by: 'buyer', text: 'Second question', file: null }, as(buyer, 3));
    await postMessage(t.deps.store, { escrowId: id, by: 'buyer', text: 'Third question', file: null }, as(buyer, 9));
    expect(await messageMails('sam@example.com')).toHaveLength(1);
    // The job before the window has passed sends nothing; after it, one digest of both.
    expect(await sendDueMessageDigests(t.deps, base(), new Date(later(start, 9.5)))).toBe(0);
    expect(await sendDueMessageDigests(t.deps, base(), new Date(later(start, 10)))).toBe(1);
    const mails = await messageMails('sam@example.com');
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe(`2 new messages: escrow ${id.slice(0, 8)}`);
    expect(mails[1]!.body).toContain('> Second question');
    expect(mails[1]!.body).toContain('> Third question');
    expect(mails[1]!.body).not.toContain('> First question');
    expect(await sendDueMessageDigests(t.deps, base(), new Date(later(start, 30)))).toBe(0);

    // The seller's answer goes to the buyer at once: the window is per recipient.
    await postMessage(t.deps.store, { escrowId: id, by: 'seller', text: 'Answers below', file: null }, as(seller, 11));
    expect((await messageMails('ann@example.com')).map((m) => m.subject)).toEqual([
      `New message: escrow ${id.slice(0, 8)}`,
    ]);
    // Past the window, a new message goes out at once again.
    await postMessage(t.deps.store, { escrowId: id, by: 'buyer', text: 'Thanks', file: null }, as(buyer, 21));
    const last = (await messageMails('sam@example.com')).at(-1)!;
    expect(last.body).toContain('> Thanks');
    expect(await messageMails('sam@example.com')).toHaveLength(3);
  });

  it("mails the admins about the parties' messages while disputed, and both parties about an admin's", async () => {
    const { id, buyer, seller, admin } = await openFundedDeal(t);
    const second = await signedInAdmin(t, 'root2');
    await say(id, buyer.token, 'Before any dispute');
    expect(await messageMails('root@example.com')).toEqual([]);
    expect(
      (await t.app.request(`/api/escrows/${id}/open-dispute`, json({ reason: 'Not as described' }, buyer.token)))
        .status,
    ).toBe(200);
    await t.app.request(
      `/api/escrows/${id}/messages`,
      multipart({ text: 'Photo attached', file: new File([PNG], 'dent.png', { type: 'image/png' }) }, seller.token),
    );
    for (const to of ['root@example.com', 'root2@example.com']) {
      const [mail] = await messageMails(to);
      expect(mail!.body).toContain('> Photo attached');
      expect(mail!.body).toContain('(with a file: dent.png)');
      expect(mail!.body).toContain('/admin?tab=disputes');
    }
    expect((await messageMails('ann@example.com')).at(-1)!.body).toContain('> Photo attached');
    // Past both parties' windows, an admin writes: both parties hear of it, the other admins do not.
    const afterWindow = new Date(Date.now() + 11 * 60_000).toISOString();
    await postMessage(
      t.deps.store,
      { escrowId: id, by: 'admin', text: 'Both of you: send photos of the box', file: null },
      { actor: admin.id, requestId: 'test', now: afterWindow },
    );
    for (const to of ['sam@example.com', 'ann@example.com']) {
      const body = (await messageMails(to)).at(-1)!.body;
      expect(body).toContain('An admin wrote at');
      expect(body).toContain('> Both of you: send photos of the box');
    }
    expect(await messageMails('root2@example.com')).toHaveLength(1);
    expect(second.id).not.toBe(admin.id);
  });
});
