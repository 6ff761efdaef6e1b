import { randomBytes } from 'node:crypto';
import { DuplicateKeyError, type Doc, type DocumentStore } from '../../../../lib/store/document-store';
import type { ProviderAnswer, WalletOperation, WalletProvider } from '../../app/wallet-auth/wallet-provider';
import { createSessionKeyBundle } from '../../domain/wallet-crypto/session-key-bundle';
import { openFromStorage, sealForStorage } from '../../domain/wallet-crypto/seal-for-storage';
import { sealWalletExport } from './wallet-export-bundle';

type OperationDoc = Doc & {
  kind: string;
  accountId: string;
  settleAt: string;
  result?: Record<string, string>;
  failure?: string;
};
type WalletSecretDoc = Doc & { sealedSecret: string; createdAt: string };

/** Email updates to this domain fail at the embedded provider: the sandbox trigger for 424. */
export const FAILING_EMAIL_DOMAIN = 'sync-fail.invalid';

export interface EmbeddedWalletProviderOptions {
  store: DocumentStore;
  /** Delay between submission and settlement (WALLET_PROVIDER_SETTLE_MS). */
  settleMs: number;
  storageKey: Uint8Array;
  enclavePrivateKey: string;
  now?: () => Date;
}

/**
 * The embedded wallet provider: keeps each wallet's secret sealed with the storage key and
 * settles operations `settleMs` after their first submission.
 */
export function createEmbeddedWalletProvider(options: EmbeddedWalletProviderOptions): WalletProvider {
  const operations = options.store.collection<OperationDoc>('wallet_provider_operations');
  const secrets = options.store.collection<WalletSecretDoc>('wallet_provider_secrets');
  const now = options.now ?? (() => new Date());
  const seal = (accountId: string, secret: Buffer) =>
    sealForStorage({ plaintext: secret.toString('hex'), storageKey: options.storageKey, associatedData: accountId });

  async function walletSecret(accountId: string): Promise<Buffer> {
    let doc = await secrets.findOne({ _id: accountId });
    if (!doc) {
      const fresh = randomBytes(32);
      await secrets.updateOne({ _id: accountId }, {
        $setOnInsert: { sealedSecret: seal(accountId, fresh), createdAt: now().toISOString() },
      }, { upsert: true });
      fresh.fill(0);
      doc = (await secrets.findOne({ _id: accountId }))!;
    }
    return Buffer.from(
      openFromStorage({ sealed: doc.sealedSecret, storageKey: options.storageKey, associatedData: accountId }),
      'hex',
    );
  }

  async function firstSubmission(operation: WalletOperation): Promise<Pick<OperationDoc, 'result' | 'failure'>> {
    const { params } = operation;
    switch (operation.kind) {
      case 'CREATE_WALLET':
        (await walletSecret(operation.accountId)).fill(0);
        return { result: {} };
      case 'CREATE_SESSION':
        if (typeof params.clientPublicKey === 'string') {
          const bundle = await createSessionKeyBundle(params.clientPublicKey);
          return {
            result: {
              sessionPublicKey: bundle.sessionPublicKey,
              encryptedSessionSigningKey: bundle.encryptedSessionSigningKey,
            },
          };
        }
        return { result: { sessionPublicKey: String(params.sessionPublicKey) } };
      case 'UPDATE_USER_EMAIL':
        return String(params.email).toLowerCase().endsWith(`@${FAILING_EMAIL_DOMAIN}`)
          ? { failure: 'EMAIL_UPDATE_REJECTED' }
          : { result: {} };
      default:
        return { result: {} };
    }
  }

  async function answer(doc: OperationDoc, operation: WalletOperation): Promise<ProviderAnswer> {
    if (Date.parse(doc.settleAt) > now().getTime()) return { status: 'PENDING' };
    if (doc.failure) return { status: 'FAILED', reason: doc.failure };
    if (operation.kind !== 'EXPORT_WALLET') return { status: 'SETTLED', result: doc.result ?? {} };
    // Sealed afresh on every answer: the export exists only in the response.
    const secret = await walletSecret(operation.accountId);
    try {
      const encryptedWalletCredentials = await sealWalletExport({
        secret,
        clientPublicKey: String(operation.params.clientPublicKey),
        accountId: operation.accountId,
        enclavePrivateKey: options.enclavePrivateKey,
      });
      return { status: 'SETTLED', result: { encryptedWalletCredentials } };
    } finally {
      secret.fill(0);
    }
  }

  return {
    async submit(operation) {
      let doc = await operations.findOne({ _id: operation.id });
      if (!doc) {
        const submittedAt = now();
        const fresh: OperationDoc = {
          _id: operation.id,
          kind: operation.kind,
          accountId: operation.accountId,
          settleAt: new Date(submittedAt.getTime() + options.settleMs).toISOString(),
          ...(await firstSubmission(operation)),
        };
        try {
          await operations.insertOne(fresh);
          doc = fresh;
        } catch (err) {
          if (!(err instanceof DuplicateKeyError)) throw err;
          doc = (await operations.findOne({ _id: operation.id }))!;
        }
      }
      return answer(doc, operation);
    },
  };
}
