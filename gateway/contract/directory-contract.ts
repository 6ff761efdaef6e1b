import { Type } from '@sinclair/typebox';
import { Currency, List, Page, pageQuery } from './common-schemas';
import { operation } from './operation';
import { ClosedObject, named } from './schema-kit';

export const UmaProvider = named(
  'UmaProvider',
  ClosedObject({
    name: Type.String(),
    supportedRegions: Type.Array(Type.String({ description: 'ISO 3166-1 alpha-2' })),
    domain: Type.String(),
    logoUrl: Type.Optional(Type.String()),
    supportedCurrencies: Type.Array(Currency),
    lei: Type.Optional(Type.String()),
    allowListStatus: Type.Boolean({ description: "Whether the provider is on the platform's allowlist" }),
  }),
);

const Discovery = named(
  'Discovery',
  ClosedObject({
    bankName: Type.String({ description: "The value of an external account's `bankName`" }),
    displayName: Type.String(),
    country: Type.String(),
    currency: Type.String(),
  }),
);

export const DiscoveryList = List('DiscoveryListResponse', Discovery);

export const directoryOperations = [
  operation({
    operationId: 'getAvailableUmaProviders',
    method: 'get',
    path: '/uma-providers',
    tags: ['Available UMA Providers'],
    summary: 'UMA providers the platform can pay, by region and currency',
    query: {
      countryCode: Type.Optional(Type.String()),
      currencyCode: Type.Optional(Type.String()),
      hasBlockedProviders: Type.Optional(Type.String({ description: 'true (default) or false' })),
      sortOrder: Type.Optional(Type.String({ enum: ['asc', 'desc'], description: 'By name; desc by default' })),
      ...pageQuery,
    },
    success: { 200: Page('UmaProviderListResponse', UmaProvider) },
  }),
  operation({
    operationId: 'getDiscoveries',
    method: 'get',
    path: '/discoveries',
    tags: ['Discoveries'],
    summary: 'Banks and payment providers per country and currency',
    query: { country: Type.Optional(Type.String()), currency: Type.Optional(Type.String()) },
    success: { 200: DiscoveryList },
  }),
];
