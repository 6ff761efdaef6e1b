import { type Request } from 'express';
import type { ScaProof } from '../../gen/accounts/v1/sca';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { contractJson } from '../../lib/contract/contract-json';
import { scaChallengeJson } from '../../lib/contract/sca-challenge';
import * as sca from '../contract/sca-contract';
import { callContext } from '../http/call-context';
import { jsonBodyOf } from '../http/request-body';
import { RestBody } from './rest-body';
import { RestRequestReader } from './rest-request';
import { enrollmentStartJson, loginStartJson } from './sca-json';
import { OperationHandlers } from './operation-routes';

function customerOf(req: Request): string {
  const q = new RestRequestReader(req);
  const customerId = q.query('customerId') ?? '';
  q.done();
  return customerId;
}

const opaque = (body: RestBody, key: string) => {
  const value = body.map(key);
  return value === undefined ? undefined : JSON.stringify(value);
};

/** The proof members every confirm shares (ScaAuthorization). */
export function scaProofOf(body: RestBody): ScaProof {
  return {
    code: body.string('code'),
    passkeyAssertionJson: opaque(body, 'passkeyAssertion'),
    origin: body.string('origin'),
    endUserIpAddress: body.string('endUserIpAddress'),
    challengeId: body.string('challengeId'),
  };
}

/** The Strong Customer Authentication routes of customers (factors, login, events, resets, trusted beneficiaries). */
export function scaRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('listScaFactors', async (req, res) => {
    const { factors } = await peers.sca.listScaFactors({ customerId: customerOf(req) }, callContext(res));
    res.status(200).json(contractJson(sca.ScaFactorList, { factors }));
  });
  routes.on('startScaFactorEnrollment', async (req, res) => {
    const customerId = customerOf(req);
    const body = RestBody.of(jsonBodyOf(req));
    const type = body.string('type') ?? '';
    body.done();
    res.status(200).json(
      enrollmentStartJson(await peers.sca.startScaEnrollment({ customerId, type }, callContext(res))),
    );
  });
  routes.on('confirmScaFactorEnrollment', async (req, res) => {
    const customerId = customerOf(req);
    const body = RestBody.of(jsonBodyOf(req));
    const request = {
      customerId,
      type: body.string('type') ?? '',
      secret: body.string('secret'),
      code: body.string('code'),
      origin: body.string('origin'),
      credentialJson: opaque(body, 'credential'),
    };
    body.done();
    const r = await peers.sca.confirmScaEnrollment(request, callContext(res));
    res.status(200).json(contractJson(r.type === 'TOTP' ? sca.TotpEnrollmentConfirm : sca.PasskeyEnrollmentConfirm, r));
  });
  routes.on('startTwoFactorReset', async (req, res) => {
    const customerId = customerOf(req);
    const body = RestBody.of(jsonBodyOf(req));
    const factor = body.string('factor') ?? '';
    body.done();
    const r = await peers.sca.startTwoFactorReset({ customerId, factor }, callContext(res));
    res.status(201).json(contractJson(sca.ResetStart, r));
  });
  routes.on('getTwoFactorResetStatus', async (req, res) => {
    const r = await peers.sca.getTwoFactorReset(
      { customerId: customerOf(req), resetId: req.params.resetId },
      callContext(res),
    );
    res.status(200).json(contractJson(sca.ResetStatus, r, { nullWhenAbsent: ['enrollmentStatus', 'completedAt'] }));
  });
  routes.on('completeTwoFactorReset', async (req, res) => {
    const customerId = customerOf(req);
    const raw = jsonBodyOf(req);
    const body = RestBody.of(raw ?? {});
    const mobile = body.map('mobile') as { countryCode?: unknown; number?: unknown } | undefined;
    body.done();
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    await peers.sca.completeTwoFactorReset({
      customerId,
      resetId: req.params.resetId,
      mobileCountryCode: text(mobile?.countryCode),
      mobileNumber: text(mobile?.number),
    }, callContext(res));
    res.status(204).end();
  });
  routes.on('deleteScaFactor', async (req, res) => {
    await peers.sca.deleteScaFactor(
      { customerId: customerOf(req), credentialId: req.params.credentialId },
      callContext(res),
    );
    res.status(204).end();
  });
  routes.on('startScaLogin', async (req, res) => {
    const customerId = customerOf(req);
    const body = RestBody.of(jsonBodyOf(req));
    const factor = body.string('factor') ?? '';
    body.done();
    res.status(200).json(loginStartJson(await peers.sca.startScaLogin({ customerId, factor }, callContext(res))));
  });
  routes.on('completeScaLogin', async (req, res) => {
    const customerId = customerOf(req);
    const body = RestBody.of(jsonBodyOf(req));
    const request = { customerId, factor: body.string('factor') ?? '', proof: scaProofOf(body) };
    body.done();
    res.status(200).json(contractJson(sca.LoginComplete, await peers.sca.completeScaLogin(request, callContext(res))));
  });
  routes.on('recordSecurityEvent', async (req, res) => {
    const customerId = customerOf(req);
    const body = RestBody.of(jsonBodyOf(req));
    const eventType = body.string('eventType') ?? '';
    body.done();
    const r = await peers.sca.recordSecurityEvent({ customerId, eventType }, callContext(res));
    res.status(200).json(contractJson(sca.RecordEventResponse, r, { nullWhenAbsent: ['lockedUntil'] }));
  });
  for (const [trust, Verb] of [[true, 'Trust'], [false, 'Untrust']] as const) {
    routes.on(`startBeneficiary${Verb}`, async (req, res) => {
      const { challenge } = await peers.sca.startBeneficiaryTrust({
        externalAccountId: req.params.externalAccountId,
        trust,
      }, callContext(res));
      res.status(200).json(contractJson(sca.TrustStart, { scaChallenge: challenge && scaChallengeJson(challenge) }));
    });
    routes.on(`confirmBeneficiary${Verb}`, async (req, res) => {
      const body = RestBody.of(jsonBodyOf(req));
      const proof = scaProofOf(body);
      body.done();
      const r = await peers.sca.confirmBeneficiaryTrust({
        externalAccountId: req.params.externalAccountId,
        trust,
        proof,
      }, callContext(res));
      res.status(200).json(contractJson(sca.TrustConfirm, r));
    });
  }
  return routes;
}
