import type { EscrowActor, EscrowCommand } from '../../../../domain/escrow/decide.ts';
import type { AppDeps, SignedInUser } from '../../../app-deps.ts';
import { actingOn } from '../../../escrows/allowed-actions.ts';
import { type EscrowAfter, onEscrow } from '../../../escrows/commands.ts';
import { findVisibleEscrow } from '../../../escrows/parties.ts';
import { withSide } from '../../../escrows/view.ts';
import { currentUser } from '../../middleware/authenticate.ts';

type RequestContext = Parameters<typeof currentUser>[0] & { get: (k: 'requestId') => string };

/**
 * What the parties' and the admins' escrow routes share: the escrow as the caller may see it (404 when they may
 * not), and a command given as the caller's side on it, run through the escrow commands and answered with the escrow
 * after it. Every rule is the escrow decider's. `answerAfter`: the answer from what a command returned (its state and
 * view), with nothing read again.
 */
export function escrowActing(deps: AppDeps) {
  const { db } = deps.database;
  const load = (id: string, user: SignedInUser) => findVisibleEscrow(db, id, user);
  const answer = async (id: string, user: SignedInUser) => (await load(id, user)).answer;
  const answerAfter = (after: EscrowAfter, side: EscrowActor) =>
    withSide(after.view, side, actingOn(after.state, side));
  const meta = (c: RequestContext) => ({ actor: currentUser(c).id, requestId: c.get('requestId') });
  const act = async (c: RequestContext, id: string, command: (side: EscrowActor) => EscrowCommand) => {
    const user = currentUser(c);
    const { side } = await load(id, user);
    await onEscrow(deps.store, id, command(side), meta(c));
    return answer(id, user);
  };
  return { load, answer, answerAfter, meta, act };
}
