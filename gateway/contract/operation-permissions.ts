import { AppError } from '../../lib/errors';
import type { Operation } from './operation';

/**
 * What an API token needs for each operation, in one table (operationId → permission):
 * - VIEW reads. Any token may read: TRANSACT and MANAGE tokens read too.
 * - TRANSACT moves money: quotes, transfers, transaction actions, invitations, wallet sessions, sandbox payments.
 * - MANAGE changes configuration, API tokens, customers and their accounts and credentials.
 * - PUBLIC: served without credentials.
 * - AGENT: an agent's Bearer token only (http/credentials.ts); the agent's policy decides, per the
 *   operation's `agentAuth` in the contract, and an API token never reaches these operations.
 * A request whose operation has no entry is refused (operation-permissions.test.ts fails first).
 */
export const OPERATION_PERMISSIONS = {
  // Service
  getHealth: 'PUBLIC',
  getLiveness: 'PUBLIC',
  getReadiness: 'PUBLIC',
  getOpenApiDocument: 'PUBLIC',
  // Platform configuration
  getPlatformConfig: 'VIEW',
  updatePlatformConfig: 'MANAGE',
  // Customers
  createCustomer: 'MANAGE',
  listCustomers: 'VIEW',
  getEndUserTerms: 'VIEW',
  getCustomer: 'VIEW',
  updateCustomer: 'MANAGE',
  // Internal accounts
  listCustomerInternalAccounts: 'VIEW',
  listPlatformInternalAccounts: 'VIEW',
  updateInternalAccount: 'MANAGE',
  exportWallet: 'MANAGE',
  // External accounts
  listExternalAccounts: 'VIEW',
  createExternalAccount: 'MANAGE',
  getExternalAccount: 'VIEW',
  deleteExternalAccount: 'MANAGE',
  startOwnershipChallenge: 'MANAGE',
  verifyOwnership: 'MANAGE',
  listPlatformExternalAccounts: 'VIEW',
  createPlatformExternalAccount: 'MANAGE',
  getPlatformExternalAccount: 'VIEW',
  deletePlatformExternalAccount: 'MANAGE',
  startPlatformOwnershipChallenge: 'MANAGE',
  verifyPlatformOwnership: 'MANAGE',
  // Quotes, transfers, rates, transactions, lookups
  createQuote: 'TRANSACT',
  listQuotes: 'VIEW',
  getQuote: 'VIEW',
  executeQuote: 'TRANSACT',
  transferIn: 'TRANSACT',
  transferOut: 'TRANSACT',
  listExchangeRates: 'VIEW',
  estimateCryptoWithdrawalFee: 'VIEW',
  listTransactions: 'VIEW',
  getTransaction: 'VIEW',
  listTransactionPostings: 'VIEW',
  confirmReceiptDelivery: 'TRANSACT',
  approveTransaction: 'TRANSACT',
  rejectTransaction: 'TRANSACT',
  cancelTransaction: 'TRANSACT',
  lookupExternalAccount: 'VIEW',
  lookupUma: 'VIEW',
  // Stablecoins
  linkStablecoinProviderAccount: 'MANAGE',
  listStablecoinProviderAccounts: 'VIEW',
  getStablecoinProviderAccount: 'VIEW',
  registerStablecoin: 'MANAGE',
  listStablecoins: 'VIEW',
  getStablecoin: 'VIEW',
  createStablecoinMint: 'TRANSACT',
  createStablecoinBurn: 'TRANSACT',
  listStablecoinOperations: 'VIEW',
  getStablecoinOperation: 'VIEW',
  // Cards
  createCard: 'MANAGE',
  listCards: 'VIEW',
  getCardById: 'VIEW',
  updateCardById: 'MANAGE',
  // The full card details are a credential to spend, not a read: never a VIEW token's.
  revealCard: 'MANAGE',
  getCardRevealPage: 'PUBLIC',
  // Sandbox
  fundInternalAccount: 'TRANSACT',
  simulateSend: 'TRANSACT',
  simulateUmaReceive: 'TRANSACT',
  sandboxSimulateCardAuthorization: 'TRANSACT',
  sandboxSimulateCardClearing: 'TRANSACT',
  sandboxSimulateCardReturn: 'TRANSACT',
  sandboxSimulateCardBalanceInquiry: 'TRANSACT',
  sandboxSimulateCardCreditAuthorization: 'TRANSACT',
  sandboxSimulateCardFinancialAuthorization: 'TRANSACT',
  sandboxSimulateCardFinancialCreditAuthorization: 'TRANSACT',
  sandboxSimulateCardAuthorizationAdvice: 'TRANSACT',
  sandboxSimulateCardCreditAuthorizationAdvice: 'TRANSACT',
  sandboxSimulateCardReturnReversal: 'TRANSACT',
  // Embedded-wallet authentication
  listCredentials: 'VIEW',
  createCredential: 'MANAGE',
  challengeCredential: 'TRANSACT',
  verifyCredential: 'TRANSACT',
  revokeCredential: 'MANAGE',
  listSessions: 'VIEW',
  revokeSession: 'TRANSACT',
  refreshSession: 'TRANSACT',
  getEnclavePublicKey: 'VIEW',
  createDelegatedKey: 'MANAGE',
  listDelegatedKeys: 'VIEW',
  getDelegatedKeyById: 'VIEW',
  revokeDelegatedKey: 'MANAGE',
  // Webhooks
  sendTestWebhook: 'MANAGE',
  sendTestWebhookUnprefixed: 'MANAGE',
  getWebhookPublicKey: 'VIEW',
  getWebhookSigningSecret: 'MANAGE',
  listWebhookDeliveries: 'VIEW',
  getWebhookDelivery: 'VIEW',
  resendWebhookDelivery: 'MANAGE',
  // API tokens
  createToken: 'MANAGE',
  listTokens: 'MANAGE',
  getTokenById: 'MANAGE',
  deleteTokenById: 'MANAGE',
  // UMA invitations
  createInvitation: 'TRANSACT',
  getInvitation: 'VIEW',
  claimInvitation: 'TRANSACT',
  cancelInvitation: 'TRANSACT',
  // Directory
  getAvailableUmaProviders: 'VIEW',
  getDiscoveries: 'VIEW',
  // Onboarding and compliance: contact verification, KYC/KYB, owners, documents, bulk import
  sendCustomerEmailVerification: 'MANAGE',
  confirmCustomerEmailVerification: 'MANAGE',
  sendCustomerPhoneVerification: 'MANAGE',
  confirmCustomerPhoneVerification: 'MANAGE',
  deleteCustomer: 'MANAGE',
  uploadCustomersCsv: 'MANAGE',
  getBulkCustomerImportJob: 'VIEW',
  createCustomerKycLink: 'MANAGE',
  getCustomerKycLink: 'MANAGE',
  getHostedKycPage: 'PUBLIC',
  completeHostedKyc: 'PUBLIC',
  getUmaPublicKeys: 'PUBLIC',
  answerUmaLnurlp: 'PUBLIC',
  answerUmaPayRequest: 'PUBLIC',
  answerUmaPostTransaction: 'PUBLIC',
  createVerification: 'MANAGE',
  listVerifications: 'VIEW',
  getVerification: 'VIEW',
  createBeneficialOwner: 'MANAGE',
  listBeneficialOwners: 'VIEW',
  getBeneficialOwner: 'VIEW',
  updateBeneficialOwner: 'MANAGE',
  uploadDocument: 'MANAGE',
  listDocuments: 'VIEW',
  getDocument: 'VIEW',
  getDocumentFile: 'VIEW',
  replaceDocument: 'MANAGE',
  deleteDocument: 'MANAGE',
  // Strong Customer Authentication
  listScaFactors: 'VIEW',
  startScaFactorEnrollment: 'MANAGE',
  confirmScaFactorEnrollment: 'MANAGE',
  deleteScaFactor: 'MANAGE',
  startScaLogin: 'MANAGE',
  completeScaLogin: 'MANAGE',
  recordSecurityEvent: 'MANAGE',
  startTwoFactorReset: 'MANAGE',
  getTwoFactorResetStatus: 'VIEW',
  completeTwoFactorReset: 'MANAGE',
  authorizeQuote: 'TRANSACT',
  resendQuoteScaCode: 'TRANSACT',
  startBeneficiaryTrust: 'MANAGE',
  confirmBeneficiaryTrust: 'MANAGE',
  startBeneficiaryUntrust: 'MANAGE',
  confirmBeneficiaryUntrust: 'MANAGE',
  // Agent management (the platform's)
  createAgent: 'MANAGE',
  listAgents: 'VIEW',
  getAgentById: 'VIEW',
  updateAgent: 'MANAGE',
  deleteAgent: 'MANAGE',
  updateAgentPolicy: 'MANAGE',
  regenerateAgentDeviceCode: 'MANAGE',
  getAgentDeviceCodeStatus: 'VIEW',
  listAgentApprovals: 'VIEW',
  approveAgentAction: 'TRANSACT',
  rejectAgentAction: 'TRANSACT',
  redeemAgentDeviceCode: 'PUBLIC',
  // Agent operations (the agent's own)
  getAgentMe: 'AGENT',
  agentListTransactions: 'AGENT',
  agentGetTransaction: 'AGENT',
  agentCreateQuote: 'AGENT',
  agentGetQuote: 'AGENT',
  agentExecuteQuote: 'AGENT',
  agentListActions: 'AGENT',
  agentGetAction: 'AGENT',
  agentCreateTransferIn: 'AGENT',
  agentCreateTransferOut: 'AGENT',
  agentListInternalAccounts: 'AGENT',
  agentListExternalAccounts: 'AGENT',
  agentCreateExternalAccount: 'AGENT',
  agentGetExternalAccount: 'AGENT',
  agentDeleteExternalAccount: 'AGENT',
} as const satisfies Record<string, 'PUBLIC' | 'VIEW' | 'TRANSACT' | 'MANAGE' | 'AGENT'>;

export type RequiredPermission = (typeof OPERATION_PERMISSIONS)[keyof typeof OPERATION_PERMISSIONS];

export function requiredPermission(op: Pick<Operation, 'operationId'>): RequiredPermission | undefined {
  return (OPERATION_PERMISSIONS as Record<string, RequiredPermission>)[op.operationId];
}

/** Whether a token holding `held` may perform an operation that requires `required`. */
export function permits(held: readonly string[], required: RequiredPermission): boolean {
  if (required === 'PUBLIC' || required === 'AGENT') return true;
  if (required === 'VIEW') return held.length > 0;
  return held.includes(required);
}

/** Undefined when allowed; otherwise the 403 FORBIDDEN that names what was missing. */
export function permissionRefusal(op: Pick<Operation, 'operationId'>, held: readonly string[]): AppError | undefined {
  const required = requiredPermission(op);
  if (!required) {
    return new AppError('FORBIDDEN', `Operation ${op.operationId} has no permission entry; it is refused`, {
      operationId: op.operationId,
    });
  }
  if (permits(held, required)) return undefined;
  return new AppError('FORBIDDEN', `This API token lacks the ${required} permission that ${op.operationId} requires`, {
    operationId: op.operationId,
    requiredPermission: required,
    tokenPermissions: [...held],
  });
}
