/** The hosted verification page's HTML: no scripts, no external resources, one form. */
const STYLE = 'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}'
  + 'button{display:block;width:100%;margin:.5rem 0;padding:.75rem;font-size:1rem}';

function page(title: string, body: string): string {
  return '<!doctype html><html lang="en"><head><meta charset="utf-8">'
    + '<meta name="viewport" content="width=device-width,initial-scale=1">'
    + `<title>${title}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

export const OUTCOME_LABELS = {
  APPROVE: 'Approve',
  REJECT: 'Reject',
  MANUAL_REVIEW: 'Send to manual review',
  RESOLVE_ERRORS: 'Ask for more information',
} as const;

/** The open link: what is being verified and, in the sandbox, a button per simulated outcome. */
export function openPage(kind: 'KYC' | 'KYB', expiresAt: string): string {
  const buttons = Object.entries(OUTCOME_LABELS)
    .map(([value, label]) => `<button type="submit" name="outcome" value="${value}">${label}</button>`)
    .join('');
  return page(
    `Identity verification (${kind})`,
    `<h1>Identity verification (${kind})</h1>`
      + '<p>Sandbox: no documents are checked. Choose the outcome the verification provider will report.</p>'
      + `<form method="post">${buttons}</form>`
      + `<p><small>This link is single use and expires at <time>${expiresAt}</time>.</small></p>`,
  );
}

/**
 * The open link outside the sandbox: no simulator controls. The application is submitted for the
 * platform's review (no verification provider decides it yet; docs/operating.md).
 */
export function reviewPage(kind: 'KYC' | 'KYB', expiresAt: string): string {
  return page(
    `Identity verification (${kind})`,
    `<h1>Identity verification (${kind})</h1>`
      + '<p>Submit your application. It is reviewed before your account is verified; you will be told the outcome.</p>'
      + '<form method="post">'
      + `<button type="submit" name="action" value="${SUBMIT_ACTION}">Submit for review</button></form>`
      + `<p><small>This link is single use and expires at <time>${expiresAt}</time>.</small></p>`,
  );
}

export const SUBMIT_ACTION = 'submit';

export function closedPage(reason: string): string {
  return page('Verification link unavailable', `<h1>Verification link unavailable</h1><p>${reason}</p>`);
}

export function donePage(status: string): string {
  return page(
    'Verification submitted',
    '<h1>Verification submitted</h1>'
      + `<p>Thank you. Status: <strong id="status">${status}</strong>.</p><p>You can close this page.</p>`,
  );
}
