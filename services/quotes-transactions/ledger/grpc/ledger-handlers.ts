import { LedgerServiceService } from '../../../../gen/quotes_transactions/v1/ledger';
import { AppError } from '../../../../lib/errors';
import { requirePlatform } from '../../../../lib/grpc/call-context';
import { bindService } from '../../../../lib/grpc/service-binding';
import type { Ledger } from '../app/ledger';
import type { LedgerAudit } from '../app/ledger-audit';

const MAX_ACCOUNTS = 100;

export function bindLedgerService(useCases: { ledger: Ledger; audit: LedgerAudit }) {
  return bindService(LedgerServiceService, {
    async getBalances(request, ctx) {
      if (request.accountIds.length > MAX_ACCOUNTS) {
        throw AppError.invalidInput(`At most ${MAX_ACCOUNTS} accounts per call`, [{
          field: 'accountIds',
          message: `at most ${MAX_ACCOUNTS}`,
        }]);
      }
      return { balances: await useCases.ledger.getBalances(request.accountIds, ctx.platformId) };
    },
    async closeAccounts(request, ctx) {
      if (request.accounts.length > MAX_ACCOUNTS) {
        throw AppError.invalidInput(`At most ${MAX_ACCOUNTS} accounts per call`, [{
          field: 'accounts',
          message: `at most ${MAX_ACCOUNTS}`,
        }]);
      }
      return useCases.ledger.closeAccounts(requirePlatform(ctx), request.accounts);
    },
    async reopenAccounts(request, ctx) {
      await useCases.ledger.reopenAccounts(requirePlatform(ctx), request.accountIds);
      return {};
    },
    async auditLedger(_request, ctx) {
      // It reads every platform's ledger: an operator's call, never a platform's.
      if (ctx.platformId) throw new AppError('FORBIDDEN', 'The ledger audit is for operators, not platforms');
      return useCases.audit.run();
    },
  });
}
