import { builtinModules } from 'node:module';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * The domain code the web app runs in the browser too (it must not reach Node's built-ins, nor the rest of the
 * domain that does): money and addresses, display helpers, the event envelope and the transparency log's checks.
 */
const browserDomain = [
  'domain/money.ts',
  'domain/bitcoin-address.ts',
  'domain/shared/client-routes.ts',
  'domain/shared/display-time.ts',
  'domain/shared/errors.ts',
  'domain/chain-envelope.ts',
  'domain/stored-event.ts',
  'domain/transparency/**',
  'domain/review/verified-deal.ts',
  'domain/escrow/address-hold.ts',
  'domain/escrow/clock.ts',
];

export default tseslint.config(
  { ignores: ['node_modules', 'web/dist', 'dist', 'data', 'coverage', 'bench/out', 'reports', 'e2e/.artifacts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The lines between the layers: the domain is pure, the contract is what server and web share, the web reaches
    // the server only through the contract (and the few pure domain helpers it runs in the browser).
    files: ['**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': [
        { type: 'domain', partialMatch: false, pattern: 'domain/**' },
        { type: 'contract', partialMatch: false, pattern: 'contract/**' },
        { type: 'projections', partialMatch: false, pattern: 'projections/**' },
        { type: 'app-http', partialMatch: false, pattern: 'app-server/http/**' },
        { type: 'app-server', partialMatch: false, pattern: 'app-server/**' },
        { type: 'web-feature', partialMatch: false, pattern: 'web/src/features/*/**', capture: ['feature'] },
        { type: 'web', partialMatch: false, pattern: 'web/**' },
        // Everything else of ours (bench/, e2e/, migrations/, the root's files): outside every layer above.
        { type: 'elsewhere', partialMatch: false, pattern: '**' },
      ],
      // Re-exports and lazy imports cross the lines as much as imports do.
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      // A file takes the first category that matches: the domain's pure code the web app runs in the browser too,
      // then the rest of the domain, which stays on the server.
      'boundaries/files-single-match': true,
      'boundaries/files': [
        { category: 'runs-in-browser', pattern: browserDomain },
        { category: 'server-only', pattern: 'domain/**' },
        // What builds the HTTP app to run it or to test it: the server's entry, the CLI, the demo that seeds through
        // the API, tests and their helpers.
        ...[
          'app-server/main.ts',
          'app-server/cli/**',
          'app-server/demo/**',
          'app-server/testing/**',
          'app-server/**/*.test.ts',
        ].map((pattern) => ({ category: 'wiring', pattern })),
        // The write path's insides: routes reach them only through an area's commands.ts (or its queries).
        { category: 'write-path', pattern: ['app-server/commands/handle.ts', 'app-server/event-store/**'] },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              from: { element: { type: 'domain' } },
              disallow: { to: { element: { types: { noneOf: ['domain'] } } } },
              message:
                'domain/ holds the pure rules: it imports nothing of ours outside domain/ ({{ dependency.source }})',
            },
            {
              from: { element: { type: 'contract' } },
              disallow: { to: { element: { types: { noneOf: ['contract', 'domain'] } } } },
              message:
                'contract/ is shared by the server and the web app: it imports only contract/ and domain/ ({{ dependency.source }})',
            },
            {
              from: { element: { type: 'projections' } },
              disallow: { to: { element: { types: { anyOf: ['app-server', 'app-http', 'web', 'web-feature'] } } } },
              message:
                'projections/ are reducers over events: they import nothing of app-server/ or web/ ({{ dependency.source }})',
            },
            {
              from: { element: { types: { anyOf: ['web', 'web-feature'] } } },
              disallow: [
                { to: { element: { types: { noneOf: ['web', 'web-feature', 'contract', 'domain'] } } } },
                { to: { file: { categories: 'server-only' } } },
              ],
              message:
                'web/ reaches the rest only through contract/ and the pure domain helpers it runs in the browser (browserDomain in eslint.config.js) ({{ dependency.source }})',
            },
            {
              from: { element: { type: 'web-feature' } },
              disallow: {
                to: { element: { type: 'web-feature', captured: { feature: '!{{ from.captured.feature }}' } } },
              },
              message:
                'A feature of web/src/features/ does not import another ({{ from.captured.feature }} imports {{ to.captured.feature }}): what both need belongs in web/src/components or web/src/lib',
            },
            {
              from: { element: { type: 'app-server' } },
              disallow: { to: { element: { type: 'app-http' } } },
              message:
                'The application (commands, services, queries, jobs, the event store) does not reach up into http/: what a route and a service share lives outside it, e.g. app-server/app-deps.ts ({{ dependency.source }})',
            },
            {
              from: { element: { type: 'app-http' } },
              disallow: { to: { file: { categories: 'write-path' } } },
              message:
                "A route writes through its area's commands.ts and reads through its queries, never through handle() or the event store itself ({{ dependency.source }})",
            },
            // The one exception: the Idempotency-Key middleware puts its record into the scope of the request's
            // appends (an AsyncLocalStorage the store reads), which is neither a command nor a read of the log.
            {
              from: { element: { type: 'app-http' } },
              allow: { to: { file: { path: 'app-server/event-store/append-scope.ts' } } },
            },
            // ...except what builds the app to run or test it (a later policy that matches wins).
            {
              from: { file: { categories: 'wiring' } },
              allow: { to: { element: { types: { anyOf: ['app-http', 'app-server'] } } } },
            },
          ],
        },
      ],
    },
  },
  {
    // What the browser runs from domain/ has no Node-only import (tests beside it run in Node and may).
    files: browserDomain.map((pattern) => (pattern.endsWith('**') ? `${pattern}/*.ts` : pattern)),
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'Domain code the web app runs must stay browser-safe: no Node built-ins.' },
            // The rest of the domain that reaches Node (the chain hash by node:crypto): chain-envelope.ts is the half
            // the browser may use.
            {
              group: ['**/chain.ts'],
              message: 'domain/chain.ts hashes with node:crypto: import domain/chain-envelope.ts.',
            },
          ],
          paths: builtinModules.map((name) => ({
            name,
            message: 'Domain code the web app runs must stay browser-safe: no Node built-ins.',
          })),
        },
      ],
    },
  },
  {
    // Migrations are frozen in time and work on an untyped database.
    files: ['migrations/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
