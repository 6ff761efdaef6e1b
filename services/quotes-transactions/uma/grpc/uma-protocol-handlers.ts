import { UmaError } from '@uma-sdk/core';
import {
  AnswerRequest_Endpoint,
  UmaProtocolServiceService,
  type AnswerResponse,
} from '../../../../gen/quotes_transactions/v1/uma';
import { bindService } from '../../../../lib/grpc/service-binding';
import type { Logger } from '../../../../lib/log';

export interface UmaProtocolAnswers {
  publicKeys(): Promise<string>;
  lnurlp(pathAndQuery: string): Promise<string>;
  payRequest(pathAndQuery: string, body: string): Promise<string>;
  postTransaction(pathAndQuery: string, body: string): Promise<string>;
}

const refused = (err: UmaError): AnswerResponse => ({ httpStatus: err.toHttpStatusCode(), jsonBody: err.toJSON() });

/** Each endpoint's answer, its refusals (the SDK's UmaError) as the protocol's error object and status. */
export function bindUmaProtocolService(answers: UmaProtocolAnswers, logger: Logger) {
  async function answer(endpoint: AnswerRequest_Endpoint, pathAndQuery: string, body: string): Promise<string> {
    switch (endpoint) {
      case AnswerRequest_Endpoint.LNURLPUBKEY:
        return answers.publicKeys();
      case AnswerRequest_Endpoint.LNURLP:
        return answers.lnurlp(pathAndQuery);
      case AnswerRequest_Endpoint.PAY_REQUEST:
        return answers.payRequest(pathAndQuery, body);
      case AnswerRequest_Endpoint.POST_TRANSACTION:
        return answers.postTransaction(pathAndQuery, body);
      default:
        throw new Error(`unknown UMA endpoint ${endpoint}`);
    }
  }
  return bindService(UmaProtocolServiceService, {
    async answer(request) {
      try {
        return { httpStatus: 200, jsonBody: await answer(request.endpoint, request.pathAndQuery, request.body) };
      } catch (err) {
        if (!(err instanceof UmaError)) throw err;
        logger.info('UMA request refused', { endpoint: request.endpoint, code: err.code, reason: err.message });
        return refused(err);
      }
    },
  });
}
