/** The server's bundle. */
export const bundle: string;
/** The CLI's bundle. */
export const cliBundle: string;
/** Brings the web app and both bundles up to date. */
export function buildIfStale(): Promise<void>;
/** Brings the server's and the CLI's bundles up to date. */
export function buildBundlesIfStale(): Promise<void>;
