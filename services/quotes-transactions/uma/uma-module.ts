import type { ServiceEnvironment } from '../../../lib/runtime/service-module';
import type { RateSource } from '../adapters/rate-source';
import type { UmaAddressDirectory } from '../app/same-server-payments';
import { createDocumentNonceValidator } from './adapters/document-nonce-validator';
import { readUmaIdentity } from './adapters/uma-identity';
import { createVaspPublicKeys, type VaspPublicKeys } from './adapters/vasp-public-keys';
import { createAnswerLnurlp } from './app/answer-lnurlp';
import { DEFAULT_REPLAY_WINDOW } from './domain/replay-window';
import { bindUmaProtocolService } from './grpc/uma-protocol-handlers';

export interface UmaModuleDeps {
  directory: UmaAddressDirectory;
  rates: RateSource;
  clock: () => Date;
  /** Other VASPs' keys, when a test gives its own fetcher. */
  keys?: VaspPublicKeys;
}

/** UMA between servers: our identity as a VASP and the protocol's endpoints on the receiving side. */
export function createUmaModule(environment: ServiceEnvironment, deps: UmaModuleDeps) {
  const identity = readUmaIdentity(environment.env);
  const nonces = createDocumentNonceValidator(environment.store, { window: DEFAULT_REPLAY_WINDOW, clock: deps.clock });
  const keys = deps.keys ?? createVaspPublicKeys({ sandbox: identity.sandbox, clock: deps.clock });
  const receiver = { identity, directory: deps.directory, keys, nonces: nonces.validator, rates: deps.rates };
  const answerLnurlp = createAnswerLnurlp(receiver);
  const notYet = async (): Promise<string> => { throw new Error('not served'); };

  return {
    identity,
    binding: bindUmaProtocolService({
      publicKeys: () => identity.publicKeysJson,
      lnurlp: answerLnurlp,
      payRequest: notYet,
      postTransaction: notYet,
    }, environment.logger),
    async start() {
      await nonces.ensureIndexes();
    },
  };
}
