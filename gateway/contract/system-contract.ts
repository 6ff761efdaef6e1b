import { Type } from '@sinclair/typebox';
import { operation } from './operation';
import { ClosedObject, named } from './schema-kit';

const TAGS = ['Service'];
/** Each dependency by name (a service, `<service>.events`, `credentials`): ok, degraded or unavailable. */
const Dependencies = Type.Record(
  Type.String(),
  Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('unavailable')]),
);

export const systemOperations = [
  operation({
    operationId: 'getHealth',
    method: 'get',
    path: '/healthz',
    root: true,
    authenticated: false,
    tags: TAGS,
    summary: 'Liveness: the gateway process answers',
    success: { 200: named('Health', ClosedObject({ status: Type.Literal('ok') })) },
  }),
  operation({
    operationId: 'getLiveness',
    method: 'get',
    path: '/livez',
    root: true,
    authenticated: false,
    tags: TAGS,
    summary: 'Liveness: the gateway process is not stuck (Kubernetes livenessProbe)',
    success: { 200: named('Liveness', ClosedObject({ status: Type.Literal('ok') })) },
  }),
  operation({
    operationId: 'getReadiness',
    method: 'get',
    path: '/readyz',
    root: true,
    authenticated: false,
    tags: TAGS,
    summary: 'Readiness: the API credentials authenticate and auth, accounts and quotes-transactions '
      + 'serve; notifications down or a stalled event pipeline is reported as degraded (still 200)',
    success: {
      200: named(
        'Ready',
        ClosedObject({
          status: Type.Union([Type.Literal('ready'), Type.Literal('degraded')]),
          dependencies: Dependencies,
        }),
      ),
      503: named('NotReady', ClosedObject({ status: Type.Literal('not ready'), dependencies: Dependencies })),
    },
  }),
];

/** Served both at the root and under the version prefix, without credentials. */
export const documentOperation = operation({
  operationId: 'getOpenApiDocument',
  method: 'get',
  path: '/openapi.json',
  authenticated: false,
  tags: TAGS,
  summary: 'This OpenAPI document',
  success: { 200: Type.Object({ openapi: Type.String() }, { description: 'An OpenAPI 3.1 document' }) },
});
