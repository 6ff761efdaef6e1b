import { status as GrpcStatus } from '@grpc/grpc-js';
import { AppError } from '../../../lib/errors';
import type { Logger } from '../../../lib/log';
import type { PeerClients } from '../../../lib/runtime/peer-clients';
import type { AccountBalance, BalanceSource } from '../app/service-ports';

/** A quotes-transactions deployment that does not serve LedgerService yet answers UNIMPLEMENTED. */
function isUnimplemented(err: unknown): boolean {
  const cause = err instanceof AppError ? err.cause : err;
  return (cause as { code?: unknown } | undefined)?.code === GrpcStatus.UNIMPLEMENTED;
}

async function unlessUnimplemented(call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (err) {
    if (!isUnimplemented(err)) throw err;
  }
}

/**
 * Balances from the ledger (quotes-transactions LedgerService.GetBalances), the owner of internal
 * account balances. While the ledger is not served the stored balances stand (logged once);
 * any other failure fails the read rather than show a balance that may be wrong.
 */
export function createLedgerBalanceSource(deps: { peers: PeerClients; logger: Logger }): BalanceSource {
  let warned = false;
  const source: BalanceSource = {
    async balancesOf(platformId, accountIds) {
      try {
        const { balances } = await deps.peers.ledger.getBalances({ accountIds }, { platformId });
        return new Map<string, AccountBalance>(
          balances.map((b) => [b.accountId, { available: b.available, total: b.total }]),
        );
      } catch (err) {
        if (!isUnimplemented(err)) throw err;
        if (!warned) deps.logger.warn('the ledger does not serve GetBalances yet; showing stored balances');
        warned = true;
        return new Map();
      }
    },
    async closeAccounts(platformId, accounts) {
      try {
        const { closed, holding } = await deps.peers.ledger.closeAccounts({ accounts }, { platformId });
        return {
          closed,
          holding: new Map(holding.map((b) => [b.accountId, { available: b.available, total: b.total }])),
        };
      } catch (err) {
        if (!isUnimplemented(err)) throw err;
        // A ledger that cannot close accounts yet: only their balances are checked (not race-free).
        const balances = await source.balancesOf(platformId, accounts.map((a) => a.accountId));
        const holding = new Map([...balances].filter(([, b]) => b.total !== 0 || b.available !== 0));
        return { closed: holding.size === 0, holding };
      }
    },
    async reopenAccounts(platformId, accountIds) {
      await unlessUnimplemented(() => deps.peers.ledger.reopenAccounts({ accountIds }, { platformId }));
    },
  };
  return source;
}
