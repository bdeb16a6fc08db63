// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from './messages-api.ts';
import { ConversationPanel } from './conversation-panel.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ESCROW = '11111111-1111-4111-8111-111111111111';
const message = (
  n: number,
  side: Message['side'],
  text: string,
  author = side === 'buyer' ? 'ann' : side === 'seller' ? 'sam' : 'Admin',
): Message => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  side,
  author,
  text,
  created_at: `2026-11-25T10:0${n}:00.000Z`,
});

/** A scripted server: the conversation as it stands, and every POST it was sent. */
function serve(conversation: Message[]) {
  const posts: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      if (init.method === 'POST') {
        const sent =
          init.body instanceof FormData
            ? { text: String(init.body.get('text')), file: (init.body.get('file') as File).name }
            : (JSON.parse(String(init.body)) as { text: string });
        posts.push(sent);
        const written = message(conversation.length + 1, 'buyer', sent.text);
        conversation.push(written);
        return new Response(JSON.stringify(written), { status: 201, headers: { 'content-type': 'application/json' } });
      }
      expect(String(input)).toBe(`/api/escrows/${ESCROW}/messages`);
      return new Response(JSON.stringify(conversation), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return { posts, client };
}

const renderPanel = (client: QueryClient, props: Partial<Parameters<typeof ConversationPanel>[0]> = {}) =>
  render(
    <QueryClientProvider client={client}>
      <ConversationPanel escrowId={ESCROW} viewerSide="buyer" canPost {...props} />
    </QueryClientProvider>,
  );

describe('ConversationPanel', () => {
  it("shows the conversation oldest first, with who wrote each message and the viewer's own as theirs", async () => {
    const { client } = serve([
      message(1, 'buyer', 'Has it shipped?'),
      message(2, 'seller', 'Yes, today'),
      message(3, 'admin', 'Noted'),
    ]);
    renderPanel(client);
    const items = await screen.findAllByRole('listitem');
    expect(items.map((li) => li.querySelector('.message-text')!.textContent)).toEqual([
      'Has it shipped?',
      'Yes, today',
      'Noted',
    ]);
    expect(items[0]!.textContent).toContain('You');
    expect(items[1]!.textContent).toContain('sam');
    expect(items[2]!.textContent).toContain('Admin');
  });

  it('says when there is nothing yet, refuses an empty message, and sends one that clears the form', async () => {
    const { client, posts } = serve([]);
    renderPanel(client);
    expect(await screen.findByText(/No messages yet/)).toBeTruthy();
    const box = screen.getByLabelText('Your message');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(screen.getByText('Write a message first')).toBeTruthy();
    expect(posts).toEqual([]);
    await userEvent.type(box, '  Where is my parcel?  ');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    await waitFor(() => expect(posts).toEqual([{ text: 'Where is my parcel?' }]));
    await waitFor(() => expect((box as HTMLTextAreaElement).value).toBe(''));
    expect(await screen.findByText('Where is my parcel?')).toBeTruthy();
    expect(screen.getByRole('status', { name: '' }).textContent).toContain('Message sent');
  });

  it('checks an attached file when it is picked, and empties the picker once the message is sent', async () => {
    const { client, posts } = serve([]);
    renderPanel(client);
    await userEvent.type(await screen.findByLabelText('Your message'), 'The receipt');
    const picker = () => screen.getByLabelText('Attach a file (optional)') as HTMLInputElement;
    await userEvent.upload(picker(), new File([''], 'empty.txt', { type: 'text/plain' }));
    expect(screen.getByText('The file is empty')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(posts).toEqual([]);
    await userEvent.upload(picker(), new File(['paid 0.1 BTC'], 'receipt.txt', { type: 'text/plain' }));
    expect(screen.queryByText('The file is empty')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    await waitFor(() => expect(posts).toEqual([{ text: 'The receipt', file: 'receipt.txt' }]));
    await waitFor(() => expect(picker().files?.length ?? 0).toBe(0));
  });

  it('announces what the other side writes, and offers no form once the deal has ended', async () => {
    const conversation = [message(1, 'buyer', 'Hello')];
    const { client } = serve(conversation);
    renderPanel(client, { canPost: false });
    await screen.findByText('Hello');
    expect(screen.queryByLabelText('Your message')).toBeNull();
    expect(screen.getByText(/no more messages can be written/)).toBeTruthy();
    conversation.push(message(2, 'seller', 'Shipped with DHL'));
    await act(() => client.invalidateQueries());
    await screen.findByText('Shipped with DHL');
    const live = document.querySelector('[aria-live="polite"].visually-hidden')!;
    expect(live.textContent).toBe('New message from the seller: Shipped with DHL');
  });

  it('is a landmark on its own page, and a named part of the card it is embedded in', async () => {
    const { client } = serve([message(1, 'buyer', 'Hello')]);
    renderPanel(client);
    expect(screen.getByRole('region', { name: 'Messages' })).toBeTruthy();
    cleanup();
    // The console's dispute list embeds one per dispute: landmarks of one name there could not be told apart.
    renderPanel(serve([message(1, 'buyer', 'Hello')]).client, { viewerSide: 'admin', embedded: true });
    await screen.findByText('Hello');
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.getByRole('group', { name: 'Messages' })).toBeTruthy();
  });
});
