import { WalletAuthServiceService } from '../../../gen/auth/v1/wallet_auth';
import { LedgerServiceService } from '../../../gen/quotes_transactions/v1/ledger';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { AppError, type ErrorCode } from '../../../lib/errors';
import { bindService, type UnaryHandlers } from '../../../lib/grpc/service-binding';
import { silentLogger } from '../../../lib/log';
import { createFakeSignedRetry } from './fake-signed-retry';

type ProvisionWalletRequest = Parameters<typeof WalletAuthServiceService.provisionWallet.requestSerialize>[0];

function onlyThese<D extends object>(definition: D, implemented: Partial<UnaryHandlers<D>>): UnaryHandlers<D> {
  const notImplemented = async () => {
    throw new AppError('INTERNAL_ERROR', 'not implemented by the fake');
  };
  return {
    ...Object.fromEntries(Object.keys(definition).map((m) => [m, notImplemented])),
    ...implemented,
  } as UnaryHandlers<D>;
}

/**
 * The auth service's wallet calls. ProvisionWallet records calls (`failing`: UNAVAILABLE); the
 * EMAIL_OTP email of each wallet is in `emails`; `syncFailures` lists the codes the next
 * SyncEmailOtpEmail calls answer, one per call; `privateEnabled` the wallets with privacy on.
 */
export function createFakeWalletAuth() {
  const state = {
    calls: [] as ProvisionWalletRequest[],
    provisioned: new Set<string>(),
    failing: false,
    emails: new Map<string, string>(),
    syncCalls: [] as Array<{ accountIds: string[]; newEmail: string }>,
    syncFailures: [] as ErrorCode[],
    privateEnabled: new Set<string>(),
  };
  const binding = bindService(
    WalletAuthServiceService,
    onlyThese(WalletAuthServiceService, {
      async provisionWallet(req) {
        state.calls.push(req);
        if (state.failing) throw new AppError('UNAVAILABLE', 'wallet provider down');
        const created = !state.provisioned.has(req.accountId);
        state.provisioned.add(req.accountId);
        if (created && req.customerEmail) state.emails.set(req.accountId, req.customerEmail);
        return { created };
      },
      async listEmailOtpAccounts(req) {
        return { accountIds: req.accountIds.filter((id) => state.emails.has(id)) };
      },
      async syncEmailOtpEmail(req) {
        state.syncCalls.push({ accountIds: req.accountIds, newEmail: req.newEmail });
        const failure = state.syncFailures.shift();
        if (failure) throw new AppError(failure, 'sync refused by the fake');
        for (const id of req.accountIds) state.emails.set(id, req.newEmail);
        return { credentialIds: req.accountIds.map((id) => `AuthMethod:${id.slice(-12)}`) };
      },
      async getWalletPrivacy(req) {
        return { privateEnabled: state.privateEnabled.has(req.accountId) };
      },
    }),
  );
  return Object.assign(state, { binding });
}

/** LedgerService.GetBalances over a settable map; unknown accounts answer 0 with no currency. */
export function createFakeLedger() {
  const state = {
    balances: new Map<string, { available: number; total: number; currency: string }>(),
    calls: [] as string[][],
    closed: new Set<string>(),
  };
  const binding = bindService(LedgerServiceService, {
    async getBalances(req) {
      state.calls.push(req.accountIds);
      return {
        balances: req.accountIds.map((id) => ({
          accountId: id,
          currency: '',
          available: 0,
          total: 0,
          ...state.balances.get(id),
        })),
      };
    },
    async closeAccounts(req) {
      const holding = req.accounts.flatMap(({ accountId }) => {
        const b = state.balances.get(accountId);
        return b && b.available !== 0 ? [{ accountId, ...b }] : [];
      });
      if (!holding.length) req.accounts.forEach((a) => state.closed.add(a.accountId));
      return { closed: holding.length === 0, holding };
    },
    async reopenAccounts(req) {
      req.accountIds.forEach((id) => state.closed.delete(id));
      return {};
    },
    async auditLedger() {
      return { clean: true, problems: [], inFlight: [] };
    },
  });
  return Object.assign(state, { binding });
}

/**
 * One bare gRPC server (no health or reflection: quicker to start) for the peers the accounts
 * service calls; without `ledger` it does not serve LedgerService, as an older deployment would.
 */
export async function startFakePeers(options: { token: string; ledger: boolean }) {
  const walletAuth = createFakeWalletAuth();
  const signedRetry = createFakeSignedRetry();
  const ledger = createFakeLedger();
  const server = new Server();
  const runtime = { logger: silentLogger, internalToken: options.token, inFlight: { started() {}, finished() {} } };
  for (const bind of [walletAuth.binding, signedRetry.binding, ...(options.ledger ? [ledger.binding] : [])]) {
    const { definition, implementation } = bind(runtime);
    server.addService(definition, implementation);
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)))
  );
  return {
    walletAuth,
    signedRetry,
    ledger,
    address: `127.0.0.1:${port}`,
    stop: async () => void server.forceShutdown(),
  };
}
