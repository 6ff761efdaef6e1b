/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' } }],
    // The UMA SDK's CommonJS build loads node:crypto with import(), which jest's module sandbox cannot run: made a
    // require.
    '@uma-sdk/core/dist/.+\\.cjs$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!@uma-sdk/core/)'],
  testMatch: ['<rootDir>/{lib,services,gateway,test}/**/*.test.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  // The quiet budget; test/load-aware-timeouts.ts scales it by the machine's load and gives hooks that start a system
  // more.
  testTimeout: 30000,
  setupFilesAfterEnv: ['<rootDir>/test/load-aware-timeouts.ts'],
  // A missing ../shared/reference/grid-openapi.yaml stops the run with one line (test/shared-reference.cjs).
  globalSetup: '<rootDir>/test/jest-global-setup.cjs',
};
