// @ts-check
const { configUmiAlias, createConfig } = require('@umijs/max/test');

/**
 * Two projects: `node` for schemas, generators and the server (real database, real TCP, real
 * browser driven from node), `console` for React code under jsdom with Umi's aliases.
 */
module.exports = async () => {
  const node = createConfig({ target: 'node', jsTransformer: 'esbuild' });
  const browser = await configUmiAlias({
    // The automatic JSX runtime, as Umi compiles the console (no `import React` needed).
    ...createConfig({ target: 'browser', jsTransformer: 'esbuild', jsTransformerOpts: { jsx: 'automatic' } }),
    setupFiles: ['<rootDir>/tests/setup/jsdom.ts'],
  });
  // testTimeout is a global option; createConfig puts it on the project, where jest warns.
  delete node.testTimeout;
  delete browser.testTimeout;
  return {
    testTimeout: 60000,
    reporters: ['default', '<rootDir>/tests/setup/summaryReporter.js'],
    projects: [
      {
        ...node,
        displayName: 'node',
        // PGlite loads Node built-ins with import(), which jest's module sandbox cannot run.
        transform: { ...node.transform, '\\.cjs$': '<rootDir>/tests/setup/cjsDynamicImport.js' },
        testMatch: ['<rootDir>/tests/{schemas,generators,server,mock,e2e,docs}/**/*.test.ts'],
      },
      {
        ...browser,
        displayName: 'console',
        testMatch: ['<rootDir>/tests/src/**/*.test.{ts,tsx}'],
      },
    ],
  };
};
