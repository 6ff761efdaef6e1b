import { ContactChannel, type ConfirmContactCodeRequest } from '../../gen/accounts/v1/contact_verification';
import type { PeerClients } from '../../lib/runtime/peer-clients';
import { callContext } from '../http/call-context';
import { bodyMessage } from '../http/request-body';
import { customerJson } from '../../lib/contract/customer-json';
import { businessOwners } from './customer-owners';
import { RestRequestReader } from './rest-request';
import { OperationHandlers } from './operation-routes';

const CHANNELS = { Email: ContactChannel.EMAIL, Phone: ContactChannel.PHONE } as const;

/** POST /customers/{id}/verify-email|verify-phone (send a code) and …/confirm (check it). */
export function contactVerificationRoutes(peers: PeerClients): OperationHandlers {
  const routes = new OperationHandlers();
  for (const [Channel, channel] of Object.entries(CHANNELS)) {
    routes.on(`sendCustomer${Channel}Verification`, async (req, res) => {
      const q = new RestRequestReader(req);
      const customerId = q.pathId('customerId', 'Customer');
      q.done();
      await peers.contactVerification.sendContactCode({ customerId, channel }, callContext(res));
      res.status(204).end();
    });
    routes.on(`confirmCustomer${Channel}Verification`, async (req, res) => {
      const q = new RestRequestReader(req);
      const customerId = q.pathId('customerId', 'Customer');
      q.done();
      const body = bodyMessage<ConfirmContactCodeRequest>(req, 'accounts.v1.ConfirmContactCodeRequest');
      const { customer } = await peers.contactVerification.confirmContactCode(
        { ...body, customerId, channel },
        callContext(res),
      );
      res.status(200).json(
        customerJson(customer!, (await businessOwners(peers, callContext(res), [customer!])).get(customer!.id)),
      );
    });
  }
  return routes;
}
