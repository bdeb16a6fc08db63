import type { SignedInUser } from '../app-deps.ts';
import { AnswersAtPosition, bytesOf, type Computed } from './answers-at-position.ts';

/**
 * Each user's escrow list (the dashboard: the most read answer), kept until an escrow event is appended. The
 * position of the last escrow event is read by the session lookup that every signed-in request makes anyway (one
 * round trip: `escrows_position` in auth/sessions.ts); without it (no session position) the list is computed. What
 * each escrow allows also follows the clock (an address's hold ends): a list holds until the first such time.
 */
export class EscrowListAnswers {
  private readonly answers = new AnswersAtPosition();

  async answer(
    user: SignedInUser,
    position: number | undefined,
    compute: () => Promise<Computed>,
  ): Promise<Buffer<ArrayBuffer>> {
    if (position === undefined) return bytesOf(await compute());
    // Everything the list depends on besides the escrows read model: who asks, as what, by which verified e-mail.
    const key = [user.id, user.role, user.email_verified ? user.email.toLowerCase() : ''].join('\u0000');
    return this.answers.answer(position, key, compute);
  }
}
