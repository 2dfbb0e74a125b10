// ESLint: typescript-eslint's recommended rules, Prettier's formatting left to Prettier, and the
// architecture as one boundaries rule: the core imports no feature; a feature imports the core
// and other features only through their index.ts; a service (a feature's state machine, the
// core's domain and clock) imports no Hono, no SQLite and no node:http.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The files that hold a state machine or the domain's rules: they know no HTTP and no SQL. */
const services = [
  'src/core/domain/**',
  'src/core/clock/{clock,scheduler,timed-work}.ts',
  'src/features/accounts/{accounts,merchant-accounts}.ts',
  'src/features/buyers/{buyers,buyer-records}.ts',
  'src/features/forwarder/listeners.ts',
  'src/features/go-live/go-live{,-canary,-findings,-observations,-tracker}.ts',
  'src/features/payment-methods/{card,customer-step,payment-methods}.ts',
  'src/features/subscriptions/{subscriptions,subscription-terms,subscription-calendar,billing-schedule}.ts',
  'src/features/transactions/{transactions,transaction-input,refunds}.ts',
  'src/features/shadow/{shadow,compare,id-map,from-recording,shadow-report}.ts',
  'src/features/sandbox/sandbox-control.ts',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // `let value = fallback; try { value = parse(...) } catch {}` is how the code reads input it may not parse.
      'no-useless-assignment': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['public/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: true, node: true },
      'boundaries/include': ['src/**/*.ts'],
      'boundaries/elements': [
        { type: 'core', pattern: 'src/core' },
        { type: 'feature', pattern: 'src/features/*', capture: ['name'] },
        { type: 'app', pattern: 'src' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          message: '{{from.type}} {{from.captured.name}} may not import {{to.type}} {{to.captured.name}} {{to.internalPath}}',
          policies: [
            // Anything may import the core, and the core imports only itself.
            { allow: { to: { element: { type: 'core' } } } },
            // A file of a feature imports any file of its own feature.
            {
              from: { element: { type: 'feature' } },
              dependency: { relationship: { to: 'internal' } },
              allow: { to: { element: { type: 'feature' } } },
            },
            // Another feature, and the application around them, only through its index.ts.
            {
              from: { element: { types: ['feature', 'app'] } },
              allow: { to: { element: { type: 'feature', fileInternalPath: 'index.ts' } } },
            },
            { from: { element: { type: 'app' } }, allow: { to: { element: { type: 'app' } } } },
          ],
        },
      ],
    },
  },
  {
    files: services,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['hono', 'hono/*', '@hono/*'], message: 'A service knows no Hono: the routes call it.' },
            { group: ['better-sqlite3'], message: 'A service knows no SQL: it is handed its ports.' },
            { group: ['node:http', 'node:https', 'http', 'https'], message: 'A service knows no HTTP.' },
          ],
        },
      ],
    },
  },
  prettier,
);
