import { randomBytes } from 'node:crypto';
import { createEmbeddedDocumentStore } from '../../../../lib/store/embedded-document-store';
import { createAesGcmSealer } from '../../../../lib/sealing/aes-gcm-sealer';
import { createSandboxStablecoinProvider } from '../adapters/sandbox-stablecoin-provider';
import type { IssuanceStatus } from '../domain/stablecoin-operation';
import { createStablecoinDocumentStore } from '../store/stablecoin-document-store';
import { createProviderAccounts } from './provider-accounts';
import { ProviderUnavailable, type StablecoinProvider } from './stablecoin-ports';
import { createStablecoins } from './stablecoins';

const caller = { platformId: 'Platform:1' };

describe('Grid operations status of a registered stablecoin', () => {
  test('follows the provider: in review PENDING_APPROVAL, then ENABLED with a currency; down: no change', async () => {
    const documents = createEmbeddedDocumentStore();
    const clock = () => new Date('2026-05-20T16:40:00Z');
    const sandbox = createSandboxStablecoinProvider({ store: documents, clock, stepMs: 1000 });
    let issuance: IssuanceStatus | 'down' = 'PENDING_REVIEW';
    const provider: StablecoinProvider = {
      ...sandbox,
      async token() {
        if (issuance === 'down') throw new ProviderUnavailable('down');
        return { name: 'Acme Dollar', symbol: 'ACME', decimals: 6, baseCurrency: 'USD', issuanceStatus: issuance };
      },
    };
    const store = createStablecoinDocumentStore(documents);
    await store.ensureIndexes();
    const accounts = createProviderAccounts({
      store,
      provider,
      sealer: createAesGcmSealer(randomBytes(32)),
      environment: 'SANDBOX',
      clock,
      reverifyAfterMs: 60_000,
    });
    const stablecoins = createStablecoins({ store, provider, accounts, clock });
    await accounts.link(caller, { provider: 'BRALE', apiClientId: 'client', apiClientSecret: 's' });
    const coin = await stablecoins.register(caller, {
      providerTokenIdentifier: 'ACME',
      networkTokenIdentifier: 'btkn1acme',
      network: 'SPARK',
    });
    expect(coin).toMatchObject({ issuanceStatus: 'PENDING_REVIEW', gridOperationsStatus: 'PENDING_APPROVAL' });
    expect(coin.currency).toBeUndefined();
    issuance = 'down';
    expect(await stablecoins.get(caller, coin.id)).toMatchObject({
      issuanceStatus: 'PENDING_REVIEW',
      gridOperationsStatus: 'PENDING_APPROVAL',
    });
    issuance = 'PROVISIONED';
    expect(await stablecoins.get(caller, coin.id)).toMatchObject({
      issuanceStatus: 'PROVISIONED',
      gridOperationsStatus: 'ENABLED',
      currency: 'ACME',
    });
    expect(await store.stablecoin(caller.platformId, coin.id)).toMatchObject({
      gridOperationsStatus: 'ENABLED',
      currency: 'ACME',
    });
    issuance = 'REJECTED'; // settled: not asked again
    expect((await stablecoins.get(caller, coin.id)).gridOperationsStatus).toBe('ENABLED');
  });
});
