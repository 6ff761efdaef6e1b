import { createHash } from 'node:crypto';
import type { DocumentStore } from '../../../../lib/store/document-store';
import { DuplicateKeyError } from '../../../../lib/store/document-store';
import type { IssuanceStatus } from '../domain/stablecoin-operation';
import {
  ProviderCredentialsRevoked,
  ProviderRejected,
  type ProviderCredentials,
  type ProviderTransfer,
  type ProviderTransferRequest,
  type StablecoinProvider,
} from '../app/stablecoin-ports';

/**
 * The embedded sandbox provider: deterministic, kept in the service's store (so a transfer
 * created before a restart is the same transfer after it), moving one stage per `stepMs`.
 * Triggers (docs/api/stablecoins.md):
 * - an apiClientSecret starting with `invalid` is refused; an apiClientId containing `multi` reaches two accounts;
 * - a token identifier starting with `PENDING` is PENDING_REVIEW, one starting with `UNKNOWN` does not exist;
 * - by the amount's cents (amount in cents mod 100): 02 fails late (after processing), 03 is never funded
 *   (a wire or deposit that never arrives: the operation expires), 04 is refused when created, 05 revokes
 *   the client credentials (answered invalid_client, as is every later call with them).
 */
export function createSandboxStablecoinProvider(
  deps: { store: DocumentStore; clock: () => Date; stepMs: number },
): StablecoinProvider {
  const transfers = deps.store.collection('sandbox_stablecoin_transfers');
  const revocations = deps.store.collection('sandbox_stablecoin_revoked_clients');

  /** The cents-05 trigger: the client credentials are revoked from then on. */
  const revoked = async (credentials: ProviderCredentials) =>
    !!(await revocations.findOne({ _id: credentials.clientId }));
  async function refuseRevoked(credentials: ProviderCredentials): Promise<void> {
    if (await revoked(credentials)) {
      throw new ProviderCredentialsRevoked(
        'invalid_client (sandbox trigger: the credentials were revoked by a transfer of cents 05)',
      );
    }
  }

  const accountOf = (clientId: string, n = 0) =>
    `sandbox-${createHash('sha256').update(`${clientId}#${n}`).digest('hex').slice(0, 20)}`;

  function statusAt(doc: { createdAt: string; trigger: number; awaitsDeposit: boolean }): string {
    const stages = Math.floor((deps.clock().getTime() - Date.parse(doc.createdAt)) / Math.max(deps.stepMs, 1));
    if (doc.trigger === 3 && doc.awaitsDeposit) return 'pending';
    if (stages < 1) return 'pending';
    if (stages < 2) return 'processing';
    return doc.trigger === 2 ? 'failed' : 'complete';
  }

  function instructionsOf(
    request: ProviderTransferRequest,
    transferId: string,
    awaitsDeposit: boolean,
  ): Record<string, string> | undefined {
    if (!awaitsDeposit) return undefined;
    if (request.source.transferType === 'wire') {
      return {
        rail: 'WIRE',
        bankName: 'Sandbox Provider Bank',
        beneficiaryName: 'Sandbox Provider Trust',
        accountNumber: '000123456789',
        routingNumber: '021000021',
        reference: transferId,
        amount: String(request.amountCents),
        currency: request.currency,
      };
    }
    return {
      rail: 'SPARK',
      network: 'SPARK',
      address: `spark1sandbox${transferId.replace(/[^a-z0-9]/g, '').slice(0, 30)}`,
      valueType: request.source.valueType,
    };
  }

  return {
    async verifyCredentials(credentials: ProviderCredentials) {
      if (credentials.clientSecret.startsWith('invalid')) {
        return { valid: false, reason: 'invalid_client (sandbox trigger: the secret starts with "invalid")' };
      }
      if (await revoked(credentials)) {
        return {
          valid: false,
          reason: 'invalid_client (sandbox trigger: the credentials were revoked by a transfer of cents 05)',
          revoked: true,
        };
      }
      const ids = credentials.clientId.includes('multi')
        ? [accountOf(credentials.clientId), accountOf(credentials.clientId, 1)]
        : [accountOf(credentials.clientId)];
      return { valid: true, accountIds: ids };
    },

    async token(credentials, _accountId, valueType) {
      await refuseRevoked(credentials);
      if (valueType.startsWith('UNKNOWN')) return undefined;
      const issuanceStatus: IssuanceStatus = valueType.startsWith('PENDING') ? 'PENDING_REVIEW' : 'PROVISIONED';
      return {
        name: `${valueType} Sandbox Dollar`,
        symbol: valueType,
        decimals: 6,
        baseCurrency: 'USD',
        issuanceStatus,
      };
    },

    async createTransfer(credentials, accountId, request, idempotencyKey): Promise<ProviderTransfer> {
      await refuseRevoked(credentials);
      const trigger = request.amountCents % 100;
      if (trigger === 5) {
        await revocations.updateOne({ _id: credentials.clientId }, { $set: { at: deps.clock().toISOString() } }, {
          upsert: true,
        });
        await refuseRevoked(credentials);
      }
      if (trigger === 4) throw new ProviderRejected('transfer refused (sandbox trigger: cents 04)', 422);
      const existing = await transfers.findOne({ _id: `${accountId}/${idempotencyKey}` });
      if (existing) return view(existing as never);
      const id = `sbx_${createHash('sha256').update(`${accountId}/${idempotencyKey}`).digest('hex').slice(0, 24)}`;
      const { awaitsDeposit } = request;
      const doc = {
        _id: `${accountId}/${idempotencyKey}`,
        transferId: id,
        accountId,
        createdAt: deps.clock().toISOString(),
        trigger,
        awaitsDeposit,
        request,
        instructions: instructionsOf(request, id, awaitsDeposit) ?? null,
      };
      try {
        await transfers.insertOne(doc);
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
        return view((await transfers.findOne({ _id: doc._id })) as never);
      }
      return view(doc);
    },

    async getTransfer(credentials, accountId, transferId) {
      await refuseRevoked(credentials);
      const doc = await transfers.findOne({ transferId, accountId });
      if (!doc) throw new ProviderRejected(`transfer ${transferId} not found`, 404);
      return view(doc as never);
    },
  };

  function view(
    doc: {
      transferId: string;
      createdAt: string;
      trigger: number;
      awaitsDeposit: boolean;
      instructions: Record<string, string> | null;
    },
  ): ProviderTransfer {
    return {
      id: doc.transferId,
      status: statusAt(doc),
      ...(doc.instructions ? { fundingInstructions: doc.instructions } : {}),
    };
  }
}
