import { Type } from '@sinclair/typebox';
import { pageQuery, Page } from './common-schemas';
import { operation } from './operation';
import { ClosedObject, DateTime, named, StringEnum } from './schema-kit';

export const PERMISSION_VALUES = ['VIEW', 'TRANSACT', 'MANAGE'] as const;
const Permission = named(
  'Permission',
  StringEnum(PERMISSION_VALUES, {
    description:
      'VIEW reads; TRANSACT moves money; MANAGE changes configuration, tokens and customers (see docs/api/tokens.md)',
  }),
);

export const ApiToken = named(
  'ApiToken',
  ClosedObject({
    id: Type.String({ description: '`Token:<uuid>`' }),
    name: Type.String(),
    permissions: Type.Array(Permission),
    clientId: Type.String({ description: 'The HTTP Basic user name' }),
    clientSecret: Type.Optional(
      Type.String({ description: 'The HTTP Basic password: in the creation answer only, never again' }),
    ),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  }),
);

const ApiTokenCreateRequest = named(
  'ApiTokenCreateRequest',
  Type.Object({
    name: Type.String({ minLength: 1, maxLength: 255 }),
    permissions: Type.Array(Permission, { minItems: 1 }),
  }),
);

const TAGS = ['API Tokens'];
const tokenId = { tokenId: Type.String({ description: 'The token id, `Token:<uuid>`' }) };

export const apiTokenOperations = [
  operation({
    operationId: 'createToken',
    method: 'post',
    path: '/tokens',
    tags: TAGS,
    summary: 'Create an API token; its secret is answered once',
    body: ApiTokenCreateRequest,
    success: { 201: ApiToken },
  }),
  operation({
    operationId: 'listTokens',
    method: 'get',
    path: '/tokens',
    tags: TAGS,
    summary: "List the platform's API tokens, newest first",
    query: {
      name: Type.Optional(Type.String()),
      createdAfter: Type.Optional(DateTime()),
      createdBefore: Type.Optional(DateTime()),
      updatedAfter: Type.Optional(DateTime()),
      updatedBefore: Type.Optional(DateTime()),
      ...pageQuery,
    },
    success: { 200: Page('TokenListResponse', ApiToken) },
  }),
  operation({
    operationId: 'getTokenById',
    method: 'get',
    path: '/tokens/{tokenId}',
    tags: TAGS,
    summary: 'Read an API token (without its secret)',
    pathParams: tokenId,
    success: { 200: ApiToken },
    errors: [404],
  }),
  operation({
    operationId: 'deleteTokenById',
    method: 'delete',
    path: '/tokens/{tokenId}',
    tags: TAGS,
    summary: 'Delete an API token: refused on its next request, on '
      + "every gateway. The platform's last MANAGE token answers 409",
    pathParams: tokenId,
    success: { 204: null },
    errors: [404, 409],
  }),
];
