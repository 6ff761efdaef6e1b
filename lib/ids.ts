import { randomUUID } from 'node:crypto';

/** Record ids have the form `<Type>:<uuid>` (interface "Conventions"). */
export type IdType =
  | 'Platform'
  | 'ApiToken'
  | 'Customer'
  | 'InternalAccount'
  | 'ExternalAccount'
  | 'Lookup'
  | 'AuthMethod'
  | 'Session'
  | 'Request'
  | 'Quote'
  | 'Transaction'
  | 'Event'
  | 'Webhook'
  | 'Message'
  | 'Operation'
  | 'Posting'
  | 'Token'
  | 'Agent'
  | 'AgentAction'
  | 'Verification'
  | 'BeneficialOwner'
  | 'Document'
  | 'BulkUploadJob'
  | 'StablecoinProviderAccount'
  | 'Stablecoin'
  | 'StablecoinOperation'
  | 'Card'
  | 'CardTransaction'
  | 'CardFundingSource'
  | 'DelegatedKey';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function newId(type: IdType): string {
  return `${type}:${randomUUID()}`;
}

export function isId(type: IdType, value: unknown): value is string {
  if (typeof value !== 'string' || !value.startsWith(`${type}:`)) return false;
  return UUID.test(value.slice(type.length + 1));
}

export function idPattern(type: IdType): string {
  return `^${type}:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`;
}
