import type { SignedInUser } from '../app-deps.ts';
import type { Context } from 'hono';

/** Hono's typed context variables. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** The signed-in user's id, once authentication has run. */
    actor?: string;
    user?: SignedInUser;
    /** The API token of this request (never set with `token`), with its scopes. */
    apiToken?: { id: string; scopes: ('read' | 'write')[] };
    /** The bearer token of this request, when it opened a live session. */
    token?: string;
    /** The session's user signed in with a temporary password (an admin's reset) and must change it. */
    mustChangePassword?: boolean;
    /** The position of the last escrow event, read with the session: where the escrow read model stood. */
    escrowsPosition?: number;
    /** The second-factor check an admin power's route runs (see middleware/admin-step-up.ts). */
    stepUp?: (c: Context<AppEnv>) => Promise<void>;
  };
}
