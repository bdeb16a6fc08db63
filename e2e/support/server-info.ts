/** Where the suite's server runs and who its admin is; set by the global setup, read by the fixtures. */
export interface E2eServer {
  baseURL: string;
  /** The mail outbox file: each mail the server sends is one JSON line. */
  outbox: string;
  dataDir: string;
  admin: { username: string; email: string; password: string };
}

export function serverInfo(): E2eServer {
  const raw = process.env.E2E_SERVER;
  if (!raw) throw new Error('E2E_SERVER is not set: run the suite with `npm run test:e2e`');
  return JSON.parse(raw) as E2eServer;
}
