import { Type } from '@sinclair/typebox';
import { operation } from './operation';

const TAGS = ['UMA protocol'];

/** An UMA protocol message (the UMA SDK's JSON, signed); its fields are the protocol's, not ours. */
const UmaMessage = (description: string) => Type.Object({}, { additionalProperties: true, description });
/** The protocol's error object: `{status: "ERROR", reason, code}` with the SDK's HTTP status for the code. */
const UmaRefusal = Type.Object({
  status: Type.Literal('ERROR'),
  reason: Type.String(),
  code: Type.Optional(Type.String()),
}, { additionalProperties: true });
const refusals = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, UmaRefusal]));

/** The UMA protocol's endpoints (docs/uma.md): served at the root for other VASPs, without credentials. */
export const umaProtocolOperations = [
  operation({
    operationId: 'getUmaPublicKeys',
    method: 'get',
    path: '/.well-known/lnurlpubkey',
    root: true,
    authenticated: false,
    tags: TAGS,
    summary: 'Our UMA signing and encryption keys with their certificate chains',
    success: { 200: UmaMessage('PubKeyResponse'), ...refusals(501) },
  }),
  operation({
    operationId: 'answerUmaLnurlp',
    method: 'get',
    path: '/.well-known/lnurlp/{username}',
    root: true,
    authenticated: false,
    tags: TAGS,
    summary: "A sending VASP's signed lnurlp request: the signed answer (currencies, bounds, payer data asked for)",
    pathParams: { username: Type.String() },
    success: { 200: UmaMessage('LnurlpResponse'), ...refusals(400, 401, 403, 404, 412, 424, 501) },
  }),
  operation({
    operationId: 'answerUmaPayRequest',
    method: 'post',
    path: '/uma/payreq/{username}',
    root: true,
    authenticated: false,
    tags: TAGS,
    summary: "A sending VASP's signed pay request: asks the receiving platform, answers with a signed invoice",
    pathParams: { username: Type.String() },
    body: UmaMessage('PayRequest'),
    success: { 200: UmaMessage('PayReqResponse'), ...refusals(400, 401, 403, 404, 413, 424, 501) },
  }),
  operation({
    operationId: 'answerUmaPostTransaction',
    method: 'post',
    path: '/uma/post-transaction/{transactionId}',
    root: true,
    authenticated: false,
    tags: TAGS,
    summary: "The paying VASP's signed post-transaction callback (in the sandbox, the proof of payment)",
    pathParams: { transactionId: Type.String() },
    body: UmaMessage('PostTransactionCallback'),
    success: { 200: UmaMessage('Acknowledgement'), ...refusals(400, 401, 403, 404, 413, 424, 501) },
  }),
];
