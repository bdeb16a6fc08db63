import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { type ContactMessage, contactSchema } from '../../../../../contract/support-requests.ts';
import { api, messageOf } from '../../../api/client.ts';
import { useSiteInfo } from '../../../api/site.ts';
import { usePageMeta } from '../../../components/page-meta.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Message } from '../../../components/ui/message.tsx';

const THANKS = "Thank you! We'll get back to you soon.";

export function ContactPage() {
  usePageMeta(
    'Contact us',
    'Write to our support team about an escrow, your account or anything else.',
    'contact bitcoin escrow support',
  );
  const site = useSiteInfo();
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, reset, formState } = useForm<ContactMessage>({
    resolver: zodResolver(contactSchema),
    defaultValues: { name: '', email: '', message: '' },
  });
  const { errors, isSubmitting } = formState;
  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(() => setSent(false), 3000);
    return () => clearTimeout(timer);
  }, [sent]);

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await api('/contact', { json: values, fallback: 'Your message could not be sent' });
      reset();
      setSent(true);
    } catch (error) {
      setFailure(messageOf(error, 'Your message could not be sent'));
    }
  });

  return (
    <article className="split">
      <div>
        <p className="eyebrow">Contact</p>
        <h1>Talk to a person</h1>
        <p className="lead">Questions about an escrow, your account or a dispute? We read every message.</p>
        {site.data && (
          <dl className="facts">
            <dt>E-mail</dt>
            <dd>
              <a href={`mailto:${site.data.support_email}`}>{site.data.support_email}</a>
            </dd>
            <dt>Hours</dt>
            <dd>{site.data.support_hours}</dd>
          </dl>
        )}
        <p>
          Sending something sensitive? Encrypt it with our <Link to="/pgp-key">PGP key</Link>.
        </p>
      </div>
      <form className="card form" onSubmit={submit} noValidate aria-labelledby="contact-form-title">
        <h2 id="contact-form-title">Send us a message</h2>
        {sent && <Message tone="success">{THANKS}</Message>}
        {failure && <Message tone="error">{failure}</Message>}
        <Field label="Name" required error={errors.name?.message}>
          <input type="text" autoComplete="name" {...register('name')} />
        </Field>
        <Field label="Email" required error={errors.email?.message}>
          <input type="email" autoComplete="email" {...register('email')} />
        </Field>
        <Field label="Message" required error={errors.message?.message}>
          <textarea rows={6} {...register('message')} />
        </Field>
        <Button type="submit" busy={isSubmitting}>
          Send message
        </Button>
      </form>
    </article>
  );
}
