/**
 * The auth service's API-token events, on their own topic (not webhooks): every gateway replica
 * subscribes in a group of its own, so each one forgets a deleted token's cached credentials.
 */
export const API_TOKEN_EVENTS_TOPIC = 'auth.api-tokens.v1';
export const API_TOKEN_DELETED = 'API_TOKEN.DELETED';

export interface ApiTokenDeletedData {
  tokenId: string;
  /** The HTTP Basic user name the gateway caches credentials under. */
  clientId: string;
}
