'use strict';
// Jest's global setup (jest.config.js): `npx jest <file>` stops as `npm test` does when the reference is missing.
const { requireReference } = require('./shared-reference.cjs');

module.exports = async () => requireReference();
