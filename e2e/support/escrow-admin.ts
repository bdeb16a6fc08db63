/**
 * The admin's part of a deal, through the API, until the admin console does it in the browser (the journeys then
 * switch these steps to the console).
 */
import { adminToken, call } from './api.ts';
import type { E2eServer } from './server-info.ts';

let token: Promise<string> | undefined;
const admin = (server: E2eServer) => (token ??= adminToken(server));

/** An admin power on an escrow (verify-payment, release, refund, freeze, ...), as a form. */
export async function adminAct(server: E2eServer, path: string, form: Record<string, string>) {
  return call(server, path, { token: await admin(server), form });
}

/** The escrow's latest dispute as the admins see it. */
export async function disputeOf(server: E2eServer, escrowId: string) {
  const disputes = await call<Array<{ escrow_id: string; status: string; reason: string }>>(server, '/admin/disputes', { token: await admin(server) });
  return disputes.find((d) => d.escrow_id === escrowId);
}
