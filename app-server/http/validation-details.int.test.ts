import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, form, json, multipart, PASSWORD, signedInUser } from '../testing/accounts.ts';
import { openTestApp, type TestApp } from '../testing/test-app.ts';

// contract.md section 4: a 422's detail names the field, however the input came.

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await openTestApp();
  ({ token } = await signedInUser(t, 'fields'));
});
afterAll(async () => t.close());

const refusal = async (res: Response) => [res.status, ((await res.json()) as { detail: string }).detail];
const registration = {
  full_name: 'Ann Buyer',
  email: 'ann@example.com',
  username: 'ann',
  password: PASSWORD,
  confirm_password: PASSWORD,
};

describe('validation details name the field', () => {
  it('JSON: a missing field reads "field: required"', async () => {
    const { full_name: _omitted, ...withoutName } = registration;
    expect(await refusal(await t.app.request('/api/auth/register', json(withoutName)))).toEqual([
      422,
      'full_name: required',
    ]);
    expect(await refusal(await t.app.request('/api/contact', json({ name: 'A', email: 'a@example.com' })))).toEqual([
      422,
      'message is required',
    ]);
  });

  it("JSON: zod's own wording and a schema's sentence get the field in front", async () => {
    expect(await refusal(await t.app.request('/api/auth/register', json({ ...registration, full_name: 42 })))).toEqual([
      422,
      'full_name: Invalid input: expected string, received number',
    ]);
    expect(
      await refusal(
        await t.app.request('/api/auth/register', json({ ...registration, confirm_password: 'something else' })),
      ),
    ).toEqual([422, 'confirm_password: Passwords do not match']);
    expect(await refusal(await t.app.request('/api/auth/register', json({ ...registration, role: 'admin' })))).toEqual([
      422,
      'role: Registration cannot create an admin',
    ]);
    expect(
      await refusal(await t.app.request('/api/auth/register', json({ ...registration, full_name: 'x'.repeat(121) }))),
    ).toEqual([422, 'full_name: Too big: expected string to have <=120 characters']);
  });

  it('a body that is not an object names the body', async () => {
    expect(await refusal(await t.app.request('/api/auth/login', json([1, 2])))).toEqual([
      422,
      'body: Invalid input: expected object, received array',
    ]);
  });

  it('forms, urlencoded and multipart alike', async () => {
    expect(await refusal(await t.app.request('/api/profile/switch-role', form({}, token)))).toEqual([
      422,
      'new_role must be buyer or seller',
    ]);
    expect(
      await refusal(await t.app.request('/api/profile/switch-role', multipart({ new_role: 'pirate' }, token))),
    ).toEqual([422, 'new_role must be buyer or seller']);
    const escrow = '00000000-0000-4000-8000-000000000000';
    const longNotes = 'n'.repeat(5001);
    expect(
      await refusal(await t.app.request(`/api/escrows/${escrow}/mark-paid`, multipart({ notes: longNotes }, token))),
    ).toEqual([422, 'notes must be at most 5000 characters']);
    expect(
      await refusal(
        await t.app.request(`/api/escrows/${escrow}/mark-paid`, multipart({ notes: 'x', file: 'not a file' }, token)),
      ),
    ).toEqual([422, 'file must be a file upload']);
    expect(await refusal(await t.app.request('/api/auth/verify-2fa', form({}, token)))).toEqual([
      422,
      'totp_code: required',
    ]);
    expect(await refusal(await t.app.request('/api/auth/verify-2fa', multipart({}, token)))).toEqual([
      422,
      'totp_code: required',
    ]);
  });

  it('query parameters', async () => {
    expect(await refusal(await t.app.request('/api/reviews?limit=many', bearer(token)))).toEqual([
      422,
      'limit must be a whole number written in decimal digits',
    ]);
    expect(await refusal(await t.app.request('/api/reviews?sort=sideways', bearer(token)))).toEqual([
      422,
      'sort: Invalid option: expected one of "newest"|"oldest"|"highest"',
    ]);
  });
});
