// The folder rules of src/: which folder may import which. `npm run check:folders` checks them with
// dependency-cruiser, as part of `npm test` and so of CI; decision 0020 (docs/decisions/) says why this tool.
// Each rule below says what it forbids and why; the README's Architecture section draws the folders.
//
// What counts as an import: every `import` and `export ... from` in the service's code (src/), type-only imports too
// (they tie two folders together as much as any), tests left out (a test may reach into whatever it checks).
//
// A "folder" is a directory under src/: orders/, payments/, and src/payments/plugins/stripe/ too. The files right
// under src/ (main.ts, app.ts, cli.ts, runtime.ts) start and assemble the service, above every folder; config.ts, the
// typed environment, is read by any folder.
//
// Run `npx depcruise src --config .dependency-cruiser.cjs --output-type text --collapse '^src/[^/]+'` for the arrows
// between folders as they are.

/**
 * Pure code: data in, data out. Pricing, the decisions (*.decide.ts: what placement decides before anything is
 * written), shared/ (money, errors, state machines) and what the decisions read of the catalog's rules (and its
 * category tree and handles);
 * the conversion of a price into a market's currency, and which market a request is in.
 */
const PURE = [
  '^src/pricing/',
  '^src/shared/',
  '[.]decide[.]ts$',
  '^src/catalog/availability[.]ts$',
  '^src/catalog/category-tree[.]ts$',
  '^src/catalog/handles[.]ts$',
  '^src/markets/market-price[.]ts$',
  '^src/markets/market-resolution[.]ts$',
  '^src/media/media[.]values[.]ts$',
];

/** Packages that reach a database, the network or another process (jose and argon2: keys and secrets). */
const IO_PACKAGES = [
  'pg',
  'drizzle-orm',
  'drizzle-kit',
  '@electric-sql/pglite',
  'ioredis',
  'fastify',
  '@fastify/[^/]+',
  'nodemailer',
  'stripe',
  'prom-client',
  'argon2',
  'jose',
  'sharp',
  '@aws-sdk/[^/]+',
];

/** Node's modules for files, sockets, processes and threads. */
const IO_CORE_MODULES = [
  'fs',
  'fs/promises',
  'net',
  'http',
  'https',
  'http2',
  'tls',
  'dgram',
  'dns',
  'dns/promises',
  'child_process',
  'cluster',
  'worker_threads',
  'readline',
  'inspector',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      comment:
        'Arrows between folders go one way: when a folder imports another, nothing in that other folder, nor in any '
        + 'folder it imports, imports the first. A piece both need lives in the lower one; what needs both lives in a '
        + 'folder above both (src/checkout/: the order page and the payment return, above orders/ and payments/).',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'pure-code-stays-pure',
      comment:
        'Pricing, the decisions and shared/ do no I/O (no database, HTTP, job queue, file, socket or process), and '
        + 'at run time they import only pure code, so whatever they reach is pure too. Type-only imports are free: '
        + "a decision may name a table's row type.",
      severity: 'error',
      from: { path: PURE },
      to: {
        path: ['^src/', `node_modules/(${IO_PACKAGES.join('|')})/`, `^(node:)?(${IO_CORE_MODULES.join('|')})$`],
        pathNot: PURE,
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'pure-code-takes-no-database',
      comment:
        'Nor is pure code handed a database or a transaction to read from: not even as a type (src/db/client.ts).',
      severity: 'error',
      from: { path: PURE },
      to: { path: '^src/db/client[.]ts$' },
    },
    {
      name: 'orders-know-no-payments',
      comment:
        'payments/ builds on orders/ (a payment is for an order; its changes move the order), never the other way. '
        + 'What needs both lives in src/checkout/; a piece of payments an order needs is handed in (the cancel with a '
        + 'refund, by app.ts).',
      severity: 'error',
      from: { path: '^src/orders/' },
      to: { path: '^src/payments/' },
    },
    {
      name: 'events-know-no-subscriber',
      comment:
        'events/ records events and hands them to whoever subscribed (webhooks/, emails/, ...): they register with '
        + 'the outbox while the app is built. It imports only what it stands on: db/, jobs/, shared/, and http/ for '
        + 'its admin routes.',
      severity: 'error',
      from: { path: '^src/events/' },
      to: { path: '^src/', pathNot: '^src/(events|db|jobs|shared|http)/' },
    },
    {
      name: 'shared-imports-nothing-of-the-app',
      comment: 'shared/ is used by every folder, so it uses none of them.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'jobs-know-no-http-and-no-handler',
      comment:
        'jobs/ (the queue and its worker) runs outside any request and knows no job: it imports db/ and shared/ '
        + 'only, never http/; the folders register their handlers with the queue.',
      severity: 'error',
      from: { path: '^src/jobs/' },
      to: { path: '^src/', pathNot: '^src/(jobs|db|shared)/' },
    },
    {
      name: 'nothing-imports-the-assembly',
      comment:
        'main.ts, app.ts, cli.ts and runtime.ts put the folders together; a folder that imported them would '
        + 'import every other folder with them.',
      severity: 'error',
      from: { path: '^src/[^/]+/' },
      to: { path: '^src/(main|app|cli|runtime)[.]ts$' },
    },
    {
      name: 'no-unresolvable-imports',
      comment: 'An import that resolves to nothing: a typo, or a file moved without its importers.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    exclude: { path: ['[.]test[.]ts$', '^src/db/migrations/'] },
    doNotFollow: { path: 'node_modules' },
    // TypeScript as the compiler sees it: `.js` specifiers resolve to the `.ts` files, type-only imports count.
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
