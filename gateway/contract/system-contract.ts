import { Type } from '@sinclair/typebox';
import { operation } from './operation';
import { ClosedObject, named } from './schema-kit';

const TAGS = ['Service'];

export const systemOperations = [
  operation({
    operationId: 'getHealth', method: 'get', path: '/healthz', root: true, authenticated: false, tags: TAGS, summary: 'Liveness: the gateway process answers',
    success: { 200: named('Health', ClosedObject({ status: Type.Literal('ok') })) },
  }),
  operation({
    operationId: 'getReadiness', method: 'get', path: '/readyz', root: true, authenticated: false, tags: TAGS, summary: 'Readiness: every service answers its health check and the sandbox credentials authenticate',
    success: { 200: named('Ready', ClosedObject({ status: Type.Literal('ready') })), 503: named('NotReady', ClosedObject({ status: Type.Literal('not ready') })) },
  }),
];

/** Served both at the root and under the version prefix, without credentials. */
export const documentOperation = operation({
  operationId: 'getOpenApiDocument', method: 'get', path: '/openapi.json', authenticated: false, tags: TAGS, summary: 'This OpenAPI document',
  success: { 200: Type.Object({ openapi: Type.String() }, { description: 'An OpenAPI 3.1 document' }) },
});
