import { createHash } from 'node:crypto';

/** The card reveal page's HTML: no script, no external resource; its one style block is allowed by hash. */
const STYLE =
  'body{font-family:system-ui,sans-serif;margin:1rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}'
  + 'dt{color:#555}dd{margin:0;font-family:ui-monospace,monospace;font-size:1.2rem;user-select:all}';
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** CSP of every answer at /card-reveal: nothing loads but the hashed style; framed only by the configured origins. */
export function revealPagePolicy(frameAncestors: readonly string[]): string {
  const ancestors = frameAncestors.length ? frameAncestors.join(' ') : "'none'";
  return `default-src 'none'; style-src ${STYLE_HASH}; `
    + `base-uri 'none'; form-action 'none'; frame-ancestors ${ancestors}`;
}

function page(title: string, body: string): string {
  return '<!doctype html><html lang="en"><head><meta charset="utf-8">'
    + '<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">'
    + `<title>${title}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

const digitsOnly = (value: string) => value.replace(/[^0-9]/g, '');

/** The card's details; the values are digits only, so nothing in them can be markup. */
export function cardPage(card: { pan: string; cvv: string; expMonth: number; expYear: number }): string {
  const pan = digitsOnly(card.pan).replace(/(\d{4})(?=\d)/g, '$1 ');
  const expiry = `${String(Math.trunc(card.expMonth)).padStart(2, '0')}/${Math.trunc(card.expYear)}`;
  return page(
    'Card details',
    '<dl>'
      + `<dt>Card number</dt><dd id="pan">${pan}</dd>`
      + `<dt>Expiry</dt><dd id="expiry">${expiry}</dd>`
      + `<dt>CVV</dt><dd id="cvv">${digitsOnly(card.cvv)}</dd></dl>`,
  );
}

export function refusedPage(): string {
  return page(
    'Card details unavailable',
    '<h1>Card details unavailable</h1><p>This link is unknown, already used or expired. Request a new reveal.</p>',
  );
}
