import { Client } from '@grpc/grpc-js';
import { channelCredentials, type TlsChoice } from './transport-security';

const SERVING = 1;

/**
 * Names a service's grpc.health.v1 server answers besides '' (readiness: it can serve requests, its
 * store answers): LIVENESS is SERVING while the process answers at all (Kubernetes' liveness probe),
 * EVENTS is NOT_SERVING while an event consumer stalls or the outbox does not drain (degraded:
 * requests are still served, events and webhooks are late).
 */
export const HEALTH_LIVENESS = 'liveness';
export const HEALTH_EVENTS = 'events';

export type ProbedStatus = 'serving' | 'not serving' | 'unreachable';

/** HealthCheckRequest { string service = 1 }. */
function checkRequest(service: string): Buffer {
  const name = Buffer.from(service, 'utf8');
  return name.length ? Buffer.concat([Buffer.from([0x0a, name.length]), name]) : Buffer.alloc(0);
}

/**
 * Asks a server's standard grpc.health.v1.Health/Check for a service's status (the overall one by
 * default). The reply is one enum field, so no stubs needed.
 */
export function createHealthProbe(address: string, tls?: TlsChoice) {
  const client = new Client(address, channelCredentials(tls));
  const status = (service = '', timeoutMs = 1000): Promise<ProbedStatus> =>
    new Promise((resolve) => {
      client.makeUnaryRequest(
        '/grpc.health.v1.Health/Check',
        () => checkRequest(service),
        (buf: Buffer) => (buf.length >= 2 && buf[0] === 0x08 ? buf[1] : 0),
        {},
        { deadline: Date.now() + timeoutMs },
        (err, value) =>
          resolve(
            err ? (err.code === 5 ? 'not serving' : 'unreachable') : value === SERVING ? 'serving' : 'not serving',
          ),
      );
    });
  return {
    status,
    isServing: async (timeoutMs = 1000) => (await status('', timeoutMs)) === 'serving',
    close: () => client.close(),
  };
}
