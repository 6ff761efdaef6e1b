import express, { type Response } from 'express';
import { CompleteHostedKycRequest_Outcome, GetHostedKycResponse_State } from '../../gen/accounts/v1/verifications';
import { isAbsent, toAppError } from '../../lib/errors';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { closedPage, donePage, openPage, OUTCOME_LABELS, reviewPage, SUBMIT_ACTION } from './hosted-kyc-page';
import { OperationHandlers } from './operation-routes';

const CLOSED_REASONS: Partial<Record<GetHostedKycResponse_State, string>> = {
  [GetHostedKycResponse_State.USED]: 'This link has already been used. Ask for a new one.',
  [GetHostedKycResponse_State.EXPIRED]: 'This link has expired. Ask for a new one.',
};

/** The hosted page's calls carry no platform: the link token names it. */
const anonymous = (res: Response) => ({ correlationId: res.locals.correlationId as string | undefined });

function html(res: Response, status: number, body: string): void {
  res.status(status)
    .set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
    .set('Cache-Control', 'no-store')
    .set('Referrer-Policy', 'no-referrer')
    .type('text/html')
    .send(body);
}

/**
 * The hosted verification page a KYC link points to, served at the root without credentials:
 * the single-use token in the path is the only credential. In the sandbox the page offers the
 * provider's outcomes; choosing one uses the link up and starts the verification. Outside the
 * sandbox (`sandbox: false`) there are no outcomes to choose: the page submits the application for
 * review, and a posted outcome is refused (403) without touching the link.
 */
export function hostedKycRoutes(
  peers: PeerClients,
  options: { sandbox: boolean } = { sandbox: true },
): OperationHandlers {
  const routes = new OperationHandlers();
  const form = express.urlencoded({ extended: false, limit: '2kb', parameterLimit: 5 });

  routes.on('getHostedKycPage', async (req, res) => {
    const hosted = await peers.kyc.getHostedKyc({ linkToken: req.params.linkToken }, anonymous(res));
    if (hosted.state !== GetHostedKycResponse_State.OPEN) {
      return html(res, 404, closedPage(CLOSED_REASONS[hosted.state] ?? 'This link is not valid.'));
    }
    const kind = hosted.customerType === 'BUSINESS' ? 'KYB' : 'KYC';
    html(res, 200, options.sandbox ? openPage(kind, hosted.expiresAt ?? '') : reviewPage(kind, hosted.expiresAt ?? ''));
  });

  routes.on('completeHostedKyc', form, async (req, res) => {
    const fields = (req.body as Record<string, unknown> | undefined) ?? {};
    let outcome: CompleteHostedKycRequest_Outcome;
    if (options.sandbox) {
      const chosen = fields.outcome;
      if (typeof chosen !== 'string' || !(chosen in OUTCOME_LABELS)) {
        return html(res, 400, closedPage('Choose one of the outcomes.'));
      }
      outcome = chosen as CompleteHostedKycRequest_Outcome;
    } else {
      if (fields.outcome !== undefined) {
        return html(res, 403, closedPage('Choosing a verification outcome is only possible in the sandbox.'));
      }
      if (fields.action !== SUBMIT_ACTION) {
        return html(res, 400, closedPage('Submit the application from the verification page.'));
      }
      // Outside the sandbox the accounts service lets no outcome decide: the application waits for review.
      outcome = CompleteHostedKycRequest_Outcome.MANUAL_REVIEW;
    }
    try {
      const done = await peers.kyc.completeHostedKyc({ linkToken: req.params.linkToken, outcome }, anonymous(res));
      if (done.redirectUri) return void res.redirect(303, done.redirectUri);
      html(res, 200, donePage(done.verification?.verificationStatus ?? ''));
    } catch (err) {
      if (!isAbsent(toAppError(err))) throw err;
      html(res, 404, closedPage('This link is unknown, already used or expired. Ask for a new one.'));
    }
  });

  return routes;
}
