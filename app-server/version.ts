import packageJson from '../package.json' with { type: 'json' };

/** The product's version, as package.json (and CHANGELOG.md) name it: in /api/health and the bundle alike. */
export const VERSION: string = packageJson.version;
