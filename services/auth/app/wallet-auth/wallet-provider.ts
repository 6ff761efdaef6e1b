/**
 * The wallet provider port: the custodian of wallet keys and of the credential and session
 * registrations (a hosted key-management provider in production, the embedded adapter by
 * default). Every operation is identified by its id and submitting it again is safe: the
 * provider answers the operation's current state.
 */
export type WalletOperationKind =
  | 'CREATE_WALLET'
  | 'CREATE_CREDENTIAL'
  | 'REVOKE_CREDENTIAL'
  | 'CREATE_SESSION'
  | 'REVOKE_SESSION'
  | 'EXPORT_WALLET'
  | 'UPDATE_WALLET_PRIVACY'
  | 'UPDATE_USER_EMAIL';

export interface WalletOperation {
  id: string;
  kind: WalletOperationKind;
  accountId: string;
  /**
   * CREATE_SESSION: `sessionPublicKey` (the client holds the key) or `clientPublicKey` (the
   * provider makes the key and seals it to the client). EXPORT_WALLET: `clientPublicKey`.
   * UPDATE_USER_EMAIL: `email`. Others: the ids concerned.
   */
  params: Record<string, string | boolean>;
}

export type ProviderAnswer =
  /**
   * CREATE_SESSION: `sessionPublicKey` and, when the provider made the key,
   * `encryptedSessionSigningKey`. EXPORT_WALLET: `encryptedWalletCredentials`, made afresh on
   * every answer and never stored.
   */
  | { status: 'SETTLED'; result: Record<string, string> }
  | { status: 'PENDING' }
  | { status: 'FAILED'; reason: string };

export interface WalletProvider {
  submit(operation: WalletOperation): Promise<ProviderAnswer>;
}
