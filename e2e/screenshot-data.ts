/**
 * What the screenshots need in an empty store: a few published reviews (submitted and approved through the API,
 * as a visitor and a moderator would) and an admin session for the signed-in pages.
 */
import { client, expect, form, json } from './client.ts';

const sample = [
  [
    'Ana Souza',
    'Brazil',
    '5.0',
    'Smooth deal for a used camera. The admin confirmed my payment within the hour and released it the day the parcel arrived.',
  ],
  [
    'Tomasz Nowak',
    'Poland',
    '4.5',
    'Clear steps and a fair fee. I would have liked a text message when the funds were released, but the e-mail came quickly.',
  ],
  [
    'Grace Mensah',
    'Ghana',
    '5.0',
    'First time selling a domain name to a stranger. Knowing the BTC was held by someone neutral made all the difference.',
  ],
  [
    'Lukas Berger',
    'Germany',
    '4.0',
    'The dispute took two days to settle, but the split was fair and everything was explained.',
  ],
  ['Mei Lin', 'Singapore', '3.5', 'Works as described. The payment page could show the QR code larger on a phone.'],
] as const;

export async function prepareScreenshotData(
  base: string,
  admin: { username: string; password: string },
): Promise<string> {
  const { call } = client(base);
  const login = await call('/auth/login', json(admin));
  expect(login.status === 200, `admin login as ${admin.username}`);
  const token = login.body.access_token as string;
  const stats = await call('/reviews/stats');
  if ((stats.body.total as number) > 0) return token;
  for (const [name, country, rating, text] of sample) {
    const sent = await call('/reviews', json({ name, country, rating, text, terms_accepted: true }));
    expect(sent.status === 201 || sent.status === 200, `review by ${name} submitted`);
  }
  const pending = await call('/admin/reviews/pending', { token });
  for (const review of pending.body as unknown as { id: string }[]) {
    expect((await call(`/admin/reviews/${review.id}/approve`, form({}, token))).status === 200, 'review approved');
  }
  return token;
}
