import { z } from 'zod';
import { emailAddress, totpCodeField } from './input-fields.ts';

/** Request bodies of the account calls, shared by the server (validation) and the web app (forms). */

export const usernameSchema = z
  .string()
  .trim()
  .min(3, 'username must be at least 3 characters')
  .max(32, 'username must be at most 32 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'username may contain letters, digits, dot, dash and underscore');

export const passwordSchema = z
  .string()
  .min(8, 'password must be at least 8 characters')
  .max(256, 'password must be at most 256 characters');

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

export const registerSchema = z
  .object({
    full_name: z.string().trim().min(1, 'full_name is required').max(120),
    email: emailAddress('email'),
    username: usernameSchema,
    password: passwordSchema,
    confirm_password: z.string(),
    role: z
      .enum(['buyer', 'seller', 'admin'])
      .default('buyer')
      .refine((r) => r !== 'admin', 'Registration cannot create an admin')
      .transform((r) => r as 'buyer' | 'seller'),
    country: optionalText(80),
    phone: optionalText(40),
  })
  .refine((v) => v.password === v.confirm_password, { message: 'Passwords do not match', path: ['confirm_password'] });

/** The first admin, created through the one-time setup link a fresh server prints. */
export const firstAdminSchema = z
  .object({
    token: z.string().min(1, 'token is required').max(200),
    full_name: z.string().trim().min(1, 'full_name is required').max(120),
    email: emailAddress('email'),
    username: usernameSchema,
    password: passwordSchema,
    confirm_password: z.string(),
  })
  .refine((v) => v.password === v.confirm_password, { message: 'Passwords do not match', path: ['confirm_password'] });

export const loginSchema = z.object({
  username: z.string().trim().min(1, 'username is required').max(254),
  password: z.string().min(1, 'password is required').max(256),
  totp_code: totpCodeField,
});

export const changePasswordSchema = z.object({
  current_password: z.string().min(1).max(256),
  new_password: passwordSchema,
});
