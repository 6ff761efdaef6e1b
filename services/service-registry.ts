import type { ServiceFactory, ServiceName } from '../lib/runtime/service-module';
import { createAccountsService } from './accounts/accounts-service';
import { createAuthService } from './auth/auth-service';
import { createNotificationsService } from './notifications/notifications-service';
import { createQuotesTransactionsService } from './quotes-transactions/quotes-transactions-service';

export const SERVICE_FACTORIES: Record<ServiceName, ServiceFactory> = {
  auth: createAuthService,
  accounts: createAccountsService,
  'quotes-transactions': createQuotesTransactionsService,
  notifications: createNotificationsService,
};
