// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp, resetApp } from '../../../testing/render-app.tsx';

afterEach(resetApp);

describe('Contact', () => {
  it('checks the e-mail address before sending', async () => {
    const app = renderApp('/contact');
    await userEvent.type(await screen.findByLabelText(/Name/), 'Ana');
    await userEvent.type(screen.getByLabelText(/Email/), 'not-an-address');
    await userEvent.type(screen.getByLabelText(/Message/), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Email must be a valid e-mail address')).toBeTruthy();
    expect(app.calls('POST')).toHaveLength(0);
  });

  it('sends the message, thanks the visitor and clears the form', async () => {
    const app = renderApp('/contact', ({ method, path }) =>
      method === 'POST' && path === '/api/contact'
        ? { status: 202, body: { detail: "Thank you! We'll get back to you soon." } }
        : undefined,
    );
    await userEvent.type(await screen.findByLabelText(/Name/), 'Ana');
    await userEvent.type(screen.getByLabelText(/Email/), 'ana@example.com');
    await userEvent.type(screen.getByLabelText(/Message/), 'Where is my refund?');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText("Thank you! We'll get back to you soon.")).toBeTruthy();
    expect(app.calls('POST', '/api/contact')[0]?.body).toEqual({
      name: 'Ana',
      email: 'ana@example.com',
      message: 'Where is my refund?',
    });
    expect((screen.getByLabelText(/Message/) as HTMLTextAreaElement).value).toBe('');
    await waitFor(() => expect(screen.queryByText("Thank you! We'll get back to you soon.")).toBeNull(), {
      timeout: 3500,
    });
  });

  it('keeps what was typed when the server refuses it', async () => {
    renderApp('/contact', ({ path }) =>
      path === '/api/contact' ? { status: 429, body: { detail: 'Too many messages. Try again later.' } } : undefined,
    );
    await userEvent.type(await screen.findByLabelText(/Name/), 'Ana');
    await userEvent.type(screen.getByLabelText(/Email/), 'ana@example.com');
    await userEvent.type(screen.getByLabelText(/Message/), 'Second try');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Too many messages. Try again later.')).toBeTruthy();
    expect((screen.getByLabelText(/Message/) as HTMLTextAreaElement).value).toBe('Second try');
  });
});
