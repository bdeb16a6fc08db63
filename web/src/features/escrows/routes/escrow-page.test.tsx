// @vitest-environment happy-dom
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, resetApp, type Answer, type SentRequest } from '../../../testing/render-app.tsx';
import type { Escrow } from '../api/types.ts';
import { escrowFixture } from '../../../testing/escrow-fixture.ts';

afterEach(resetApp);
// A page's first render also loads its lazy chunk, which takes longer than the default second on a busy machine.
configure({ asyncUtilTimeout: 5000 });

const ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const ann = {
  id: 'user-ann',
  username: 'ann',
  email: 'ann@example.com',
  full_name: 'Ann',
  role: 'buyer',
  email_verified: true,
  totp_enabled: false,
  country: null,
  phone: null,
};
const sam = { ...ann, id: 'user-sam', username: 'sam', email: 'sam@example.com', role: 'seller' };

/** The escrow's page for `me`; an escrow a POST answers is the one the page reads from then on, as on the server. */
function open(
  escrow: Escrow,
  me: object,
  post: (request: SentRequest) => Answer | undefined = () => undefined,
  history: object[] = [],
) {
  localStorage.setItem('escrow.session', 'token');
  let current = escrow;
  return renderApp(`/escrow/${escrow.id}`, (request) => {
    if (request.path === '/api/auth/me') return { status: 200, body: me };
    if (request.method === 'POST') {
      const answer = post(request);
      if (answer?.status === 200 && (answer.body as Escrow | null)?.id === escrow.id) current = answer.body as Escrow;
      return answer;
    }
    if (request.path === '/api/site')
      return {
        status: 200,
        body: {
          support_email: 's@example.com',
          support_hours: 'always',
          pgp_key_configured: false,
          bitcoin_network: 'mainnet',
        },
      };
    if (request.path === `/api/escrows/${escrow.id}` && request.method === 'GET') return { status: 200, body: current };
    if (request.path === `/api/escrows/${escrow.id}/history`) return { status: 200, body: history };
    if (request.path === `/api/escrows/${escrow.id}/messages`) return { status: 200, body: [] };
    if (request.path.startsWith(`/api/escrows/${escrow.id}/address-message`))
      return {
        status: 200,
        body: { message: `escrow ${escrow.id}: I control ${ADDRESS}`, side: 'seller', address: ADDRESS },
      };
    if (request.path === '/api/escrows') return { status: 200, body: [current] };
    return undefined;
  });
}

const offered = async () => {
  const next = await screen.findByRole('region', { name: 'Next step' });
  return within(next)
    .queryAllByRole('button')
    .map((b) => b.textContent);
};

describe('the escrow page', () => {
  it("says how a funded escrow's payment was checked: proven on the chain, or by an admin", async () => {
    const proof = {
      block_hash: '00000000000000000001' + 'a'.repeat(44),
      confirmations: 6,
      received_sats: 2_030_000,
      proof_sha256: 'f'.repeat(64),
      work_judged: true,
    };
    open(
      escrowFixture({
        status: 'funded',
        assigned_address: ADDRESS,
        funded_at: '2026-11-25T10:00:00.000Z',
        payment_proof: proof,
      }),
      ann,
    );
    // The first test also loads the page's lazy chunk, slow on a loaded machine.
    expect(
      await screen.findByText(
        `Proven on the chain: 6 confirmations, block ${proof.block_hash}`,
        {},
        { timeout: 15_000 },
      ),
    ).toBeTruthy();
    resetApp();
    open(escrowFixture({ status: 'funded', assigned_address: ADDRESS, funded_at: '2026-11-25T10:00:00.000Z' }), ann);
    expect(await screen.findByText('Checked by an admin')).toBeTruthy();
  });

  it('stops saying a replaced payout address is held once its hold is over, on a page left open', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const heldUntil = new Date(Date.now() + 60_000).toISOString();
    open(
      escrowFixture({
        side: 'seller',
        status: 'funded',
        assigned_address: ADDRESS,
        funded_at: '2026-11-25T10:00:00.000Z',
        payout_address: ADDRESS,
        payout_address_held_until: heldUntil,
        allowed_actions: ['set_payout_address', 'open_dispute', 'post_message'],
      }),
      sam,
    );
    expect(
      await screen.findByText(/Replaced recently: no money goes to it before/, {}, { timeout: 15_000 }),
    ).toBeTruthy();
    await vi.advanceTimersByTimeAsync(62_000);
    await waitFor(() => expect(screen.queryByText(/Replaced recently/)).toBeNull());
  });

  it.each([
    [
      'buyer, no address',
      ann,
      { allowed_actions: ['request_payment', 'set_refund_address', 'open_dispute', 'cancel', 'post_message'] },
      ['Make Payment', 'Set refund address', 'Open Dispute', 'Cancel escrow'],
    ],
    [
      'buyer, address given',
      ann,
      { assigned_address: ADDRESS, allowed_actions: ['mark_paid', 'set_refund_address', 'open_dispute', 'cancel'] },
      ['Mark as Paid', 'Payment information', 'Set refund address', 'Open Dispute', 'Cancel escrow'],
    ],
    [
      'buyer asked to agree',
      ann,
      { creator_side: 'seller', allowed_actions: ['agree', 'decline'] },
      ['Agree and pay', 'Decline'],
    ],
    [
      'seller asked to agree',
      sam,
      { side: 'seller', allowed_actions: ['agree', 'decline', 'set_payout_address'] },
      ['Agree to the terms', 'Set payout address', 'Decline'],
    ],
    [
      'seller, funded and agreed',
      sam,
      {
        side: 'seller',
        status: 'funded',
        payout_address: ADDRESS,
        allowed_actions: ['ship', 'set_payout_address', 'propose', 'open_dispute'],
      },
      ['Record shipment', 'Change payout address', 'Propose a settlement', 'Open Dispute'],
    ],
    [
      'buyer, shipped',
      ann,
      {
        status: 'funded',
        shipped_at: '2026-11-25T10:00:00.000Z',
        allowed_actions: ['receive', 'set_refund_address', 'propose', 'open_dispute'],
      },
      ['Mark as received', 'Set refund address', 'Propose a settlement', 'Open Dispute'],
    ],
    [
      'buyer, inspecting',
      ann,
      { status: 'funded', allowed_actions: ['confirm_receipt', 'set_refund_address', 'propose', 'open_dispute'] },
      ['Confirm Receipt', 'Set refund address', 'Propose a settlement', 'Open Dispute'],
    ],
    [
      'buyer, receipt confirmed',
      ann,
      {
        status: 'funded',
        buyer_confirmed_at: '2026-11-25T10:00:00.000Z',
        allowed_actions: ['set_refund_address', 'post_message'],
      },
      ['Set refund address'],
    ],
    ['seller, released', sam, { side: 'seller', status: 'released', allowed_actions: ['post_message'] }, []],
    ['buyer, frozen', ann, { status: 'frozen', allowed_actions: [] }, []],
  ] as const)('offers exactly the allowed actions for the %s', async (_what, me, state, buttons) => {
    open(escrowFixture(state as unknown as Partial<Escrow>), me);
    expect(await offered()).toEqual(buttons);
    expect(screen.getByRole('heading', { level: 1, name: 'Mirrorless camera' })).toBeTruthy();
  });

  it("shows the server's detail when an action is refused", async () => {
    const answer: Answer = {
      status: 409,
      body: { detail: 'Cannot confirm receipt of an escrow that is frozen', code: 'transition_not_allowed' },
    };
    open(
      escrowFixture({ status: 'funded', assigned_address: ADDRESS, allowed_actions: ['confirm_receipt'] }),
      ann,
      () => answer,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm Receipt' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Receipt' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm Receipt' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Cannot confirm receipt of an escrow that is frozen',
    );
  });

  it("uses the spec's fallback when the server gives no detail (Make Payment)", async () => {
    open(escrowFixture(), ann, () => ({ status: 502, body: {} }));
    await userEvent.click(await screen.findByRole('button', { name: 'Make Payment' }));
    // In the next-step box: the page's other cards (the log proof, loaded later) have alerts of their own.
    const next = screen.getByRole('region', { name: 'Next step' });
    expect((await within(next).findByRole('alert')).textContent).toBe('Failed to request payment address');
  });

  it('checks the evidence file before uploading it, then marks the payment with it', async () => {
    const escrow = escrowFixture({ assigned_address: ADDRESS, allowed_actions: ['mark_paid'] });
    const app = open(escrow, ann, (request) =>
      request.path.endsWith('/mark-paid')
        ? { status: 200, body: { ...escrow, payment_marked_at: '2026-11-25T10:00:00.000Z' } }
        : undefined,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Mark as Paid' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark as Paid' });
    const picker = within(dialog).getByLabelText(/Proof of payment/);
    const huge = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'huge.png', { type: 'image/png' });
    fireEvent.change(picker, { target: { files: [huge] } });
    expect(within(dialog).getByText('The file must be at most 10 MB')).toBeTruthy();
    const program = new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' });
    fireEvent.change(picker, { target: { files: [program] } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark as Paid' }));
    expect(within(dialog).getByText('The file must be a PNG, JPEG, WebP, GIF, PDF or plain text file')).toBeTruthy();
    expect(app.calls('POST')).toHaveLength(0);

    const receipt = new File(['sent 0.0203 BTC'], 'receipt.txt', { type: 'text/plain' });
    fireEvent.change(picker, { target: { files: [receipt] } });
    await userEvent.type(within(dialog).getByLabelText('Notes'), 'From my hardware wallet');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark as Paid' }));
    expect(await screen.findByText('Payment marked! Awaiting admin verification.')).toBeTruthy();
    const sent = app.calls('POST')[0]!;
    expect(sent.path).toBe(`/api/escrows/${escrow.id}/mark-paid`);
    expect((sent.body as FormData).get('notes')).toBe('From my hardware wallet');
    expect(((sent.body as FormData).get('file') as File).name).toBe('receipt.txt');
  });

  it("checks a payout address for the server's network in the browser before sending it", async () => {
    const escrow = escrowFixture({ side: 'seller', status: 'funded', allowed_actions: ['set_payout_address'] });
    const app = open(escrow, sam, () => ({ status: 200, body: { ...escrow, payout_address: ADDRESS } }));
    await userEvent.click(await screen.findByRole('button', { name: 'Set payout address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Payout address' });
    const field = within(dialog).getByLabelText(/Your payout address/);
    await userEvent.type(field, 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save address' }));
    expect(
      await within(dialog).findByText('This address is a testnet or signet address, but this service runs on mainnet'),
    ).toBeTruthy();
    expect(app.calls('POST')).toHaveLength(0);
    await userEvent.clear(field);
    await userEvent.type(field, ADDRESS.toUpperCase());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save address' }));
    await waitFor(() => expect(app.calls('POST')).toHaveLength(1));
    expect(app.calls('POST')[0]!.body).toEqual({ address: ADDRESS });
    expect(await screen.findByText('Payout address saved.')).toBeTruthy();
  });

  it('asks a party with 2FA for the code to replace an address before funding too', async () => {
    const escrow = escrowFixture({
      side: 'seller',
      status: 'pending_payment',
      payout_address: ADDRESS,
      allowed_actions: ['set_payout_address'],
    });
    const other = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
    const app = open(escrow, { ...sam, totp_enabled: true }, () => ({
      status: 200,
      body: { ...escrow, payout_address: other },
    }));
    await userEvent.click(await screen.findByRole('button', { name: 'Change payout address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Payout address' });
    expect(within(dialog).getByText(/Replacing an address is mailed to both parties and the admins/)).toBeTruthy();
    const field = within(dialog).getByLabelText(/Your payout address/);
    await userEvent.clear(field);
    await userEvent.type(field, other);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save address' }));
    expect(await within(dialog).findByText(/Enter the 6-digit code/)).toBeTruthy();
    expect(app.calls('POST')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText(/code/i), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save address' }));
    await waitFor(() => expect(app.calls('POST')).toHaveLength(1));
    expect(app.calls('POST')[0]!.body).toEqual({ address: other, totp_code: '123456' });
  });

  it('shows the message to sign for the address, sends the signature with it, and marks a proven address', async () => {
    const escrow = escrowFixture({ side: 'seller', status: 'funded', allowed_actions: ['set_payout_address'] });
    const app = open(escrow, sam, () => ({
      status: 200,
      body: { ...escrow, payout_address: ADDRESS, payout_address_proven: true },
    }));
    await userEvent.click(await screen.findByRole('button', { name: 'Set payout address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Payout address' });
    expect(within(dialog).getByText('Enter a valid address to see the message to sign.')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/Your payout address/), ADDRESS);
    expect((await within(dialog).findByLabelText('Message to sign')).textContent).toBe(
      `escrow ${escrow.id}: I control ${ADDRESS}`,
    );
    expect(within(dialog).getByRole('button', { name: 'Copy message' })).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('Signature (base64)'), 'AkcwRAIg');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save address' }));
    await waitFor(() => expect(app.calls('POST')).toHaveLength(1));
    expect(app.calls('POST')[0]!.body).toEqual({ address: ADDRESS, signature: 'AkcwRAIg' });
    resetApp();
    open(escrowFixture({ side: 'buyer', status: 'funded', payout_address: ADDRESS, payout_address_proven: true }), ann);
    expect(await screen.findByText('(proven by its signature)')).toBeTruthy();
  });

  it('asks for a reason before opening a dispute', async () => {
    const escrow = escrowFixture({ status: 'funded', allowed_actions: ['open_dispute'] });
    const app = open(escrow, ann, () => ({ status: 200, body: { ...escrow, status: 'disputed' } }));
    await userEvent.click(await screen.findByRole('button', { name: 'Open Dispute' }));
    const dialog = await screen.findByRole('dialog', { name: 'Open Dispute' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Open Dispute' }));
    expect(within(dialog).getByText('Please give the reason for the dispute')).toBeTruthy();
    expect(app.calls('POST')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText(/Reason/), 'Never arrived');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Open Dispute' }));
    await waitFor(() => expect(app.calls('POST')[0]?.body).toEqual({ reason: 'Never arrived' }));
  });

  it('no longer shows the payment address of a cancelled escrow as one to pay to', async () => {
    open(escrowFixture({ status: 'cancelled', assigned_address: ADDRESS, allowed_actions: [] }), ann);
    expect(
      await screen.findByText('Given back to the pool when the escrow was cancelled: do not pay to it.'),
    ).toBeTruthy();
    expect(screen.queryByText(ADDRESS)).toBeNull();
    expect(screen.getByText('This escrow was cancelled; do not send money to its address.')).toBeTruthy();
  });

  it('shows what happened when, newest first, saying who acted unless the words already do', async () => {
    const entry = (version: number, type: string, summary: string, actor_side: string, extra: object = {}) => ({
      version,
      occurred_at: `2026-11-2${version}T10:00:00.000Z`,
      type,
      summary,
      actor_side,
      reason: null,
      outcome: null,
      address: null,
      txid: null,
      seller_percent: null,
      seller_sats: null,
      buyer_sats: null,
      evidence_files: null,
      ...extra,
    });
    open(escrowFixture({ status: 'disputed' }), ann, undefined, [
      entry(1, 'EscrowCreated', 'Escrow opened by the buyer', 'buyer'),
      entry(2, 'PaymentVerified', 'Payment verified: the money is held in escrow', 'admin', { txid: 'ab'.repeat(32) }),
      entry(3, 'DisputeOpened', 'Dispute opened by the seller', 'seller', { reason: 'Not paid in full' }),
    ]);
    const history = await screen.findByRole('region', { name: 'History' });
    const items = await within(history).findAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.history-what')!.textContent)).toEqual([
      'Dispute opened by the seller ',
      'Payment verified: the money is held in escrow (the admin)',
      'Escrow opened by the buyer (you)',
    ]);
    expect(within(items[0]!).getByText('Reason: Not paid in full')).toBeTruthy();
    expect(within(items[0]!).getByText('23 Nov 2026, 10:00 UTC')).toBeTruthy();
    expect(within(items[1]!).getByText(`Transaction ${'ab'.repeat(32)}`)).toBeTruthy();
  });

  it('shows the buyer the notes and file they sent with their payment, and downloads the file', async () => {
    const file = {
      id: 'ev-1',
      evidence_id: 'ev-1',
      notes: 'Sent from my hardware wallet',
      file_path: '/api/evidence/ev-1',
      url: '/api/evidence/ev-1',
      marked_at: '2026-11-25T10:00:00.000Z',
      mark_status: 'pending',
      filename: 'receipt.png',
      content_type: 'image/png',
      size_bytes: 2048,
      sha256: 'a'.repeat(64),
    };
    const app = open(
      {
        ...escrowFixture({ assigned_address: ADDRESS, payment_marked_at: file.marked_at }),
        evidence: [file],
      } as Escrow,
      ann,
    );
    const marks = await screen.findByRole('region', { name: 'What you sent with your payment' });
    expect(within(marks).getByText('Sent from my hardware wallet')).toBeTruthy();
    expect(within(marks).getByText('Marked 25 Nov 2026, 10:00 UTC: being checked by an admin')).toBeTruthy();
    URL.createObjectURL = () => 'blob:receipt';
    URL.revokeObjectURL = () => undefined;
    await userEvent.click(within(marks).getByRole('button', { name: 'Download receipt.png' }));
    await waitFor(() => expect(app.calls('GET', '/api/evidence/ev-1')).toHaveLength(1));
  });

  it('drops "No payment address is free" once an admin has given the buyer an address', async () => {
    const refused: Answer = {
      status: 409,
      body: { detail: 'No payment address is free right now; the admins have been told', code: 'conflict' },
    };
    let current = escrowFixture();
    localStorage.setItem('escrow.session', 'token');
    renderApp(`/escrow/${current.id}`, (request) => {
      if (request.path === '/api/auth/me') return { status: 200, body: ann };
      if (request.path === `/api/escrows/${current.id}` && request.method === 'GET')
        return { status: 200, body: current };
      if (request.path === `/api/escrows/${current.id}/history`) return { status: 200, body: [] };
      return request.method === 'POST' ? refused : undefined;
    });
    const next = await screen.findByRole('region', { name: 'Next step' });
    await userEvent.click(within(next).getByRole('button', { name: 'Make Payment' }));
    expect((await within(next).findByRole('alert')).textContent).toBe(
      'No payment address is free right now; the admins have been told',
    );
    current = escrowFixture({ assigned_address: ADDRESS, allowed_actions: ['mark_paid', 'cancel'] });
    // The page follows the escrow by itself (every 4 s): the admin's assignment arrives without a reload.
    await within(next).findByRole('button', { name: 'Mark as Paid' }, { timeout: 15_000 });
    expect(within(next).queryByRole('alert')).toBeNull();
  });

  it('shows a dispute as where the deal halts, not its next step as next, and a split as Split', async () => {
    open(escrowFixture({ status: 'disputed', funded_at: '2026-11-25T10:00:00.000Z' }), ann);
    const tracker = await screen.findByRole('list', { name: 'Progress' });
    expect(within(tracker).getByText('Disputed').closest('li')!.getAttribute('class')).toContain('tracker-halted');
    expect(within(tracker).queryByText('(next)')).toBeNull();
    resetApp();
    const dispute = {
      id: 'd1',
      reason: 'Broken',
      opened_by_side: 'buyer',
      opened_at: '2026-11-25T10:00:00.000Z',
      status: 'resolved',
      outcome: 'Half each',
      resolution: 'split',
      seller_percent: 50,
      resolved_at: '2026-11-25T11:00:00.000Z',
    } as const;
    open(escrowFixture({ status: 'released', dispute }), ann);
    expect((await screen.findAllByText('Split')).some((el) => el.classList.contains('badge'))).toBe(true);
  });

  it('invites the parties of a completed deal to review it, with the escrow named', async () => {
    const app = open(escrowFixture({ status: 'released', funded_at: '2026-11-25T10:00:00.000Z' }), ann);
    await userEvent.click(await screen.findByRole('link', { name: 'Write a review' }));
    const dialog = await screen.findByRole('dialog', { name: 'Write a Review' });
    expect((within(dialog).getByLabelText(/Escrow ID/) as HTMLInputElement).value).toBe(
      '0b8a3c1e-5f7d-4c2a-9e61-2d4f8a7b9c10',
    );
    expect(app.router.state.location.pathname).toBe('/reviews');
  });

  it('agrees and asks for the payment address in one click, then shows where to pay', async () => {
    const escrow = escrowFixture({
      creator_side: 'seller',
      created_by: 'user-sam',
      allowed_actions: ['agree', 'decline'],
    });
    const agreed = {
      ...escrow,
      agreed_at: '2026-11-25T10:00:00.000Z',
      allowed_actions: ['request_payment', 'decline'],
    };
    const app = open(escrow, ann, (request) =>
      request.path.endsWith('/agree')
        ? { status: 200, body: agreed }
        : { status: 200, body: { ...agreed, assigned_address: ADDRESS, allowed_actions: ['mark_paid'] } },
    );
    expect(screen.queryByText(/Agree to them/)).toBeNull();
    expect(await screen.findByText(/Click Agree and pay to accept them/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Agree and pay' }));
    const payment = await screen.findByRole('dialog', { name: 'Payment information' });
    expect(within(payment).getByText(ADDRESS)).toBeTruthy();
    expect(app.calls('POST').map((c) => c.path)).toEqual([
      `/api/escrows/${escrow.id}/agree`,
      `/api/escrows/${escrow.id}/request-payment`,
    ]);
  });

  it('tells the buyer of their own escrow, on the page and in the payment dialog, that the seller has not agreed yet', async () => {
    const NOT_YET =
      /The seller has not agreed to the terms yet: if they decline after you paid, an admin sends the money back to you/;
    const waiting = escrowFixture({
      assigned_address: ADDRESS,
      agreed_at: null,
      allowed_actions: ['mark_paid', 'cancel'],
    });
    open(waiting, ann);
    const next = await screen.findByRole('region', { name: 'Next step' });
    expect(within(next).getByText(NOT_YET)).toBeTruthy();
    await userEvent.click(within(next).getByRole('button', { name: 'Payment information' }));
    expect(within(await screen.findByRole('dialog', { name: 'Payment information' })).getByText(NOT_YET)).toBeTruthy();
    resetApp();
    open({ ...waiting, agreed_at: '2026-11-25T10:00:00.000Z' }, ann);
    await userEvent.click(
      within(await screen.findByRole('region', { name: 'Next step' })).getByRole('button', {
        name: 'Payment information',
      }),
    );
    await screen.findByRole('dialog', { name: 'Payment information' });
    expect(screen.queryByText(NOT_YET)).toBeNull();
  });

  it('declines only with a reason, and says a paid escrow then goes back to the buyer', async () => {
    const escrow = escrowFixture({
      side: 'seller',
      status: 'funded',
      funded_at: '2026-11-25T10:00:00.000Z',
      allowed_actions: ['agree', 'decline'],
    });
    const app = open(escrow, sam, () => ({ status: 200, body: { ...escrow, allowed_actions: [] } }));
    await userEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    const dialog = await screen.findByRole('dialog', { name: 'Decline the terms' });
    expect(within(dialog).getByText(/declining asks the admins to refund the money to the buyer/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Decline' }));
    expect(within(dialog).getByText('Please give the reason for declining')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/Reason/), 'Out of stock');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Decline' }));
    await waitFor(() =>
      expect(app.calls('POST')).toEqual([
        { method: 'POST', path: `/api/escrows/${escrow.id}/decline`, body: { reason: 'Out of stock' } },
      ]),
    );
    // The decline leaves the seller no action: the page still says it was done.
    expect(await screen.findByText('You declined the terms.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("forgets a refused dispute's error when the dialog is closed and opened again", async () => {
    const escrow = escrowFixture({
      status: 'funded',
      funded_at: '2026-11-25T10:00:00.000Z',
      allowed_actions: ['open_dispute'],
    });
    open(escrow, ann, () => ({ status: 409, body: { detail: 'The escrow is frozen', code: 'conflict' } }));
    await userEvent.click(await screen.findByRole('button', { name: 'Open Dispute' }));
    let dialog = await screen.findByRole('dialog', { name: 'Open Dispute' });
    await userEvent.type(within(dialog).getByLabelText(/Reason/), 'Never arrived');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Open Dispute' }));
    expect(await within(dialog).findByText('The escrow is frozen')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Open Dispute' }));
    dialog = await screen.findByRole('dialog', { name: 'Open Dispute' });
    expect(within(dialog).queryByText('The escrow is frozen')).toBeNull();
  });

  it("forgets a refused confirmation's error when its dialog is closed and opened again", async () => {
    const escrow = escrowFixture({
      status: 'funded',
      funded_at: '2026-11-25T10:00:00.000Z',
      allowed_actions: ['confirm_receipt'],
    });
    open(escrow, ann, () => ({ status: 409, body: { detail: 'The escrow is frozen', code: 'conflict' } }));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm Receipt' }));
    let dialog = await screen.findByRole('dialog', { name: 'Confirm Receipt' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm Receipt' }));
    expect(await within(dialog).findByText('The escrow is frozen')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm Receipt' }));
    dialog = await screen.findByRole('dialog', { name: 'Confirm Receipt' });
    expect(within(dialog).queryByText('The escrow is frozen')).toBeNull();
  });

  it('records a shipment: a carrier is required for a parcel, not for a digital delivery', async () => {
    const escrow = escrowFixture({ side: 'seller', status: 'funded', allowed_actions: ['ship', 'open_dispute'] });
    const app = open(escrow, sam, () => ({
      status: 200,
      body: { ...escrow, shipped_at: '2026-11-25T10:00:00.000Z', allowed_actions: ['open_dispute'] },
    }));
    await userEvent.click(await screen.findByRole('button', { name: 'Record shipment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record the shipment' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record shipment' }));
    expect(within(dialog).getByText('The carrier is required for a shipment')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/Carrier/), 'DHL');
    expect(within(dialog).queryByText('The carrier is required for a shipment')).toBeNull();
    await userEvent.type(within(dialog).getByLabelText(/Tracking number/), 'JD0146000033');
    await userEvent.type(within(dialog).getByLabelText(/Note for the buyer/), 'Insured, two days');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record shipment' }));
    expect(await screen.findByText('Shipment recorded. The buyer has been told.')).toBeTruthy();
    expect(app.calls('POST')[0]!.body).toEqual({
      method: 'shipping',
      carrier: 'DHL',
      tracking: 'JD0146000033',
      note: 'Insured, two days',
    });
  });

  it('says how long the inspection will be before the buyer marks the goods received', async () => {
    const escrow = escrowFixture({
      status: 'funded',
      inspection_days: 5,
      shipped_at: '2026-11-25T10:00:00.000Z',
      allowed_actions: ['receive'],
    });
    const app = open(escrow, ann, () => ({
      status: 200,
      body: { ...escrow, inspection_ends_at: '2026-11-30T10:00:00.000Z', allowed_actions: ['confirm_receipt'] },
    }));
    await userEvent.click(await screen.findByRole('button', { name: 'Mark as received' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark as received' });
    expect(within(dialog).getByText(/You then have 5 days to inspect it/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark as received' }));
    expect(await screen.findByText(/Confirm Receipt, or open a dispute, by 30 Nov 2026, 10:00 UTC/)).toBeTruthy();
    expect(app.calls('POST').map((c) => c.path)).toEqual([`/api/escrows/${escrow.id}/receive`]);
  });

  it('proposes a split showing both shares in BTC and USD, and answers a proposal with one click', async () => {
    const escrow = escrowFixture({ status: 'funded', allowed_actions: ['propose', 'open_dispute'] });
    const app = open(escrow, ann, () => ({ status: 200, body: escrow }));
    await userEvent.click(await screen.findByRole('button', { name: 'Propose a settlement' }));
    const dialog = await screen.findByRole('dialog', { name: 'Propose a settlement' });
    await userEvent.clear(within(dialog).getByLabelText(/Seller's share/));
    await userEvent.type(within(dialog).getByLabelText(/Seller's share/), '60');
    // $1,015 at $50,000/BTC is 2,030,000 sats; the fee's 30,000 are kept and 2,000,000 divided.
    expect(within(dialog).getByText(/The seller gets/).textContent).toBe(
      'The seller gets 0.01200000 BTC ($600.00), the buyer gets back 0.00800000 BTC ($400.00). The escrow fee is kept.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send proposal' }));
    await waitFor(() => expect(app.calls('POST')[0]?.body).toEqual({ kind: 'split', seller_percent: 60 }));
    resetApp();
    const proposal = {
      id: 'p1',
      kind: 'split',
      status: 'open',
      proposed_by: 'seller',
      seller_percent: 60,
      days: null,
      note: 'Scratched',
      seller_sats: 1_200_000,
      buyer_sats: 800_000,
      created_at: '2026-11-25T10:00:00.000Z',
    } as const;
    const asked = escrowFixture({
      status: 'funded',
      proposals: [proposal],
      allowed_actions: ['accept_proposal', 'decline_proposal', 'open_dispute'],
    });
    const answered = open(asked, ann, () => ({
      status: 200,
      body: { ...asked, proposals: [{ ...proposal, status: 'accepted' }], allowed_actions: [] },
    }));
    expect(
      await screen.findByText('The other party proposes a settlement: accept or decline it under Proposals.'),
    ).toBeTruthy();
    const proposals = screen.getByRole('region', { name: 'Proposals' });
    expect(
      within(proposals).getByText(
        '60% to the seller: 0.01200000 BTC ($600.00); 40% back to the buyer: 0.00800000 BTC ($400.00)',
      ),
    ).toBeTruthy();
    await userEvent.click(within(proposals).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('Proposal accepted.')).toBeTruthy();
    expect(answered.calls('POST').map((c) => c.path)).toEqual([`/api/escrows/${asked.id}/proposals/p1/accept`]);
  });

  it('answers a stranger as if the escrow did not exist', async () => {
    localStorage.setItem('escrow.session', 'token');
    renderApp('/escrow/0b8a3c1e-5f7d-4c2a-9e61-2d4f8a7b9c10', (request) =>
      request.path === '/api/auth/me'
        ? { status: 200, body: ann }
        : request.path.startsWith('/api/escrows/')
          ? { status: 404, body: { detail: 'Escrow not found', code: 'not_found' } }
          : undefined,
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Escrow not found' })).toBeTruthy();
  });
});
