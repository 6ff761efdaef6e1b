import type { PeerClients } from '../../lib/runtime/peer-clients';
import {
  type CreateKycLinkRequest,
  type SubmitVerificationRequest,
  Verification_Status,
} from '../../gen/accounts/v1/verifications';
import { contractJson } from '../../lib/contract/contract-json';
import { KycLink, KycLinkByPlatformId, Verification } from '../contract/kyc-contract';
import { callContext } from '../http/call-context';
import { bodyMessage } from '../http/request-body';
import { listJson, RestRequestReader } from './rest-request';
import { OperationHandlers } from './operation-routes';

/** KYC links and verifications (the hosted page itself is hosted-kyc-routes). */
export function verificationRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();

  routes.on('createCustomerKycLink', async (req, res) => {
    const q = new RestRequestReader(req);
    const customerId = q.pathId('customerId', 'Customer');
    q.done();
    const body = bodyMessage<CreateKycLinkRequest>(req, 'accounts.v1.CreateKycLinkRequest');
    const { link } = await peers.kyc.createKycLink({ ...body, customerId }, callContext(res));
    res.status(201).json(contractJson(KycLink, link!));
  });

  routes.on('getCustomerKycLink', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = { platformCustomerId: q.query('platformCustomerId'), redirectUri: q.query('redirectUri') };
    q.done();
    const { link } = await peers.kyc.createKycLink(request, callContext(res));
    res.status(200).json(contractJson(KycLinkByPlatformId, link!));
  });

  routes.on('createVerification', async (req, res) => {
    const request = bodyMessage<SubmitVerificationRequest>(req, 'accounts.v1.SubmitVerificationRequest');
    const { verification } = await peers.kyc.submitVerification(request, callContext(res));
    res.status(200).json(contractJson(Verification, verification!));
  });

  routes.on('listVerifications', async (req, res) => {
    const q = new RestRequestReader(req);
    const request = {
      customerId: q.query('customerId'),
      verificationStatus: q.query('verificationStatus') as Verification_Status | undefined,
      limit: q.limit(),
      cursor: q.query('cursor'),
    };
    q.done();
    const page = await peers.kyc.listVerifications(request, callContext(res));
    res.status(200).json(listJson(page, page.verifications, (v) => contractJson(Verification, v)));
  });

  routes.on('getVerification', async (req, res) => {
    const q = new RestRequestReader(req);
    const id = q.pathId('verificationId', 'Verification');
    q.done();
    const { verification } = await peers.kyc.getVerification({ id }, callContext(res));
    res.status(200).json(contractJson(Verification, verification!));
  });

  return routes;
}
