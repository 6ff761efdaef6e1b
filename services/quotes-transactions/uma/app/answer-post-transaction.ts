import {
  ErrorCode,
  parsePostTransactionCallback,
  UmaError,
  verifyPostTransactionCallbackSignature,
  type NonceValidator,
  type PostTransactionCallback,
} from '@uma-sdk/core';
import type { UmaIdentity } from '../adapters/uma-identity';
import type { VaspPublicKeys } from '../adapters/vasp-public-keys';
import { pathSegment, requestUrl } from '../domain/uma-receiver';
import type { LightningNode } from './lightning-node';
import type { IncomingUmaRecord, UmaRecords } from './uma-records';

export interface AnswerPostTransactionDeps {
  identity: UmaIdentity;
  keys: VaspPublicKeys;
  nonces: NonceValidator;
  lightning: LightningNode;
  records: UmaRecords;
}

function parse(body: string): PostTransactionCallback {
  try {
    return parsePostTransactionCallback(body);
  } catch (err) {
    if (err instanceof UmaError) throw err;
    throw new UmaError('not a post-transaction callback (JSON expected)', ErrorCode.PARSE_UTXO_CALLBACK_ERROR);
  }
}

/** The sender names the invoice it paid (`<payment hash>:<index>`) with at least its amount. */
const provesPayment = (callback: PostTransactionCallback, record: IncomingUmaRecord) =>
  callback.utxos.some((u) => u.utxo.split(':')[0] === record.paymentHash && u.amountMsats >= record.amountMsats);

/**
 * The post-transaction callback of an incoming payment: the paying VASP, signing, reports the
 * UTXOs its payment used. In the sandbox, where no Lightning network carries the payment, this
 * signed report is the proof that the invoice was paid; a real node learns of payments itself.
 */
export function createAnswerPostTransaction(deps: AnswerPostTransactionDeps) {
  return async function answerPostTransaction(pathAndQuery: string, body: string): Promise<string> {
    const callback = parse(body);
    const transactionId = pathSegment(requestUrl(deps.identity, pathAndQuery), 3) ?? '';
    const record = await deps.records.incoming(transactionId);
    if (!record) {
      throw new UmaError(`no incoming UMA payment ${transactionId.slice(0, 80)}`, ErrorCode.REQUEST_NOT_FOUND);
    }
    if (callback.vaspDomain !== record.senderVaspDomain) {
      throw new UmaError('only the paying VASP reports on this payment', ErrorCode.FORBIDDEN);
    }
    const keys = await deps.keys.keysOf(record.senderVaspDomain);
    if (!(await verifyPostTransactionCallbackSignature(callback, keys, deps.nonces))) {
      deps.keys.forget(record.senderVaspDomain);
      throw new UmaError(
        `the callback's signature does not verify against ${record.senderVaspDomain}'s published key`,
        ErrorCode.INVALID_SIGNATURE,
      );
    }
    if (deps.lightning.acceptPaymentProof) {
      if (!provesPayment(callback, record)) {
        throw new UmaError('the callback does not name the invoice with its amount', ErrorCode.INVALID_INPUT);
      }
      await deps.lightning.acceptPaymentProof(record.paymentHash);
    }
    return JSON.stringify({ status: 'OK' });
  };
}
