import { z } from 'zod';

/** POST /api/contact, shared by the server and the contact form. */
export const contactSchema = z.object({
  name: z.string('name is required').trim().min(1, 'name is required').max(200, 'name must be at most 200 characters'),
  email: z.string().trim().pipe(z.email('email must be a valid e-mail address').max(254)),
  message: z
    .string('message is required')
    .trim()
    .min(1, 'message is required')
    .max(5000, 'message must be at most 5000 characters'),
});
export type ContactMessage = z.infer<typeof contactSchema>;
