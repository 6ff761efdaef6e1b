import { hostname } from 'node:os';
import { readConfig, setting } from '../config';

/**
 * The consumer group of a subscription that every replica must receive in full (a cache it keeps):
 * one group per replica, named after what a replica keeps across restarts, never after the process.
 * `REPLICA_NAME` when set, else the host name (in Kubernetes, the pod name) and the port the replica
 * serves on (processes side by side on one host). A restarted replica rejoins its group instead of
 * leaving one behind on the broker; a clean stop deletes the group (`transient` subscriptions).
 */
export function replicaGroup(base: string, env: NodeJS.ProcessEnv, port: number | string): string {
  const { REPLICA_NAME } = readConfig({
    /**
     * This replica's name in its own consumer groups (the gateway's credential cache, the notifications endpoint
     * cache): stable across its restarts, distinct per replica @default <host name>.<port> (in Kubernetes the host name
     * is the pod name)
     */
    REPLICA_NAME: setting.optionalString(),
  }, env);
  // Port 0 (a port the system picks at each start) names nothing stable: the process stands in.
  const name = REPLICA_NAME || `${hostname()}.${String(port) === '0' ? `pid${process.pid}` : port}`;
  return `${base}.${name.replace(/[^A-Za-z0-9._-]/g, '-')}`;
}

/** The port of a `host:port` address (GRPC_ADDRESS), as written. */
export function portOf(address: string | undefined, fallback: number): string {
  const match = /:(\d+)$/.exec(address?.trim() ?? '');
  return match ? match[1] : String(fallback);
}
