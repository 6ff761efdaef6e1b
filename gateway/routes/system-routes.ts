import type { Readiness } from '../http/readiness';
import { openApiDocumentJson } from '../contract/openapi-document';
import { OperationHandlers } from './operation-routes';

interface SystemOptions {
  servicesReady: () => Promise<boolean>;
  readiness?: () => Promise<Readiness>;
}

/**
 * Liveness, readiness and our OpenAPI document (readable without credentials at the root and under the version prefix).
 */
export function systemRoutes(options: SystemOptions): OperationHandlers {
  const routes = new OperationHandlers();
  // Liveness: the process answers (its event loop turns). /healthz is kept for existing probes.
  routes.on('getHealth', (_req, res) => void res.json({ status: 'ok' }));
  routes.on('getLiveness', (_req, res) => void res.json({ status: 'ok' }));
  routes.on('getReadiness', async (_req, res) => {
    if (options.readiness) {
      const { ready, body } = await options.readiness().catch(() => ({
        ready: false,
        body: { status: 'not ready' as const, dependencies: {} },
      }));
      return void res.status(ready ? 200 : 503).json(body);
    }
    const ready = await options.servicesReady().catch(() => false);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready' });
  });
  routes.on('getOpenApiDocument', (_req, res) => void res.type('application/json').send(openApiDocumentJson()));
  return routes;
}
