import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The dashboard's front end: Preact with JSX compiled by Vite's own transformer (no plugin),
// built into dist/dashboard, which the gateway serves at /dashboard (gateway/dashboard/).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    // No inline scripts or styles: the page's CSP allows only files from the gateway.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
