import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { REVIEW_RATINGS, REVIEW_TEXT_MAX, reviewSubmissionSchema } from '../../../../../contract/review-requests.ts';
import { api, messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { Modal } from '../../../components/ui/modal.tsx';

type ReviewInput = z.input<typeof reviewSubmissionSchema>;
const blank: ReviewInput = {
  name: '',
  email: '',
  country: '',
  rating: '5',
  text: '',
  escrow_id: '',
  terms_accepted: false as unknown as true,
};

/** 'Write a Review': the spec's rules, the server's schema; closes 2 s after it was received. */
export function WriteReviewDialog({
  open,
  onOpenChange,
  escrowId = '',
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  escrowId?: string;
}) {
  const queryClient = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState, control } = useForm<ReviewInput>({
    resolver: zodResolver(reviewSubmissionSchema),
    defaultValues: { ...blank, escrow_id: escrowId },
  });
  const { errors, isSubmitting } = formState;
  const length = (useWatch({ control, name: 'text' }) ?? '').length;

  useEffect(() => {
    if (!done) return;
    // The page unmounts the dialog when it closes, so the next one starts blank.
    const timer = setTimeout(() => onOpenChange(false), 2000);
    return () => clearTimeout(timer);
  }, [done, onOpenChange]);

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await api<{ detail: string }>('/reviews', { json: values, fallback: 'Failed to submit review' });
      setDone(answer.detail);
      await queryClient.invalidateQueries({ queryKey: ['reviews'] });
    } catch (error) {
      setFailure(messageOf(error, 'Failed to submit review'));
    }
  });

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Write a Review"
      description="Reviews are read by a moderator before they appear, usually within 24-48 hours."
    >
      {done ? (
        <Message tone="success">{done}</Message>
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          {failure && <Message tone="error">{failure}</Message>}
          <div className="form-row">
            <Field label="Name" required error={errors.name?.message}>
              <input type="text" autoComplete="name" {...register('name')} />
            </Field>
            <Field label="Country" required error={errors.country?.message}>
              <input type="text" autoComplete="country-name" {...register('country')} />
            </Field>
          </div>
          <div className="form-row">
            <Field label="Email" error={errors.email?.message} hint="Optional; never shown.">
              <input type="email" autoComplete="email" {...register('email')} />
            </Field>
            <Field label="Rating" required error={errors.rating?.message}>
              <select {...register('rating')}>
                {REVIEW_RATINGS.map((r) => (
                  <option key={r} value={String(r)}>
                    {r.toFixed(1)} {'★'.repeat(Math.floor(r))}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <Field
            label="Escrow ID"
            error={errors.escrow_id?.message}
            hint="Optional: the escrow this review is about; it is then marked as a verified deal."
          >
            <input type="text" autoComplete="off" {...register('escrow_id')} />
          </Field>
          <Field
            label="Your review"
            required
            error={errors.text?.message}
            hint={`${length}/${REVIEW_TEXT_MAX} characters`}
          >
            <textarea rows={5} maxLength={REVIEW_TEXT_MAX} {...register('text')} />
          </Field>
          <label className="choice">
            <input
              type="checkbox"
              {...register('terms_accepted')}
              aria-invalid={errors.terms_accepted ? true : undefined}
            />{' '}
            I confirm this review is honest and about my own experience, and I accept that it is moderated before
            publication.
          </label>
          {errors.terms_accepted && <p className="field-error">{errors.terms_accepted.message}</p>}
          <div className="actions">
            <Button type="submit" busy={isSubmitting}>
              Submit review
            </Button>
            <Button variant="ghost" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}
