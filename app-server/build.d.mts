/** The server's bundle. */
export const bundle: string;
/** The CLI's bundle. */
export const cliBundle: string;
/** A new PGlite store's files, as PGlite's initdb made them. */
export const pgliteStoreTemplate: string;
/** Brings the web app and both bundles up to date. */
export function buildIfStale(): Promise<void>;
/** Brings the server's and the CLI's bundles up to date. */
export function buildBundlesIfStale(): Promise<void>;
/** Makes the PGlite store template when it is missing or older than the installed packages. */
export function buildPgliteStoreTemplateIfStale(): void;
