import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * The manifests as `kubectl apply -k` would send them, and each Deployment's environment resolved
 * as Kubernetes would: ConfigMap values as rendered, Secret values made up here (valid keys).
 */
export type K8sObject = { kind: string; metadata: { name: string }; data?: Record<string, string>; spec?: any };
type EnvEntry = {
  name: string;
  value?: string;
  valueFrom?: { configMapKeyRef?: { key: string }; secretKeyRef?: { key: string } };
};

const ROOT = join(__dirname, '..', '..');
const hex32 = () => randomBytes(32).toString('hex');

/** What an operator's secret manager would hold (grid-secrets). */
export const SECRETS: Record<string, string> = {
  INTERNAL_TOKEN: randomBytes(48).toString('base64'),
  MONGODB_URI: 'mongodb://127.0.0.1:1/',
  ACCOUNTS_PII_KEY: hex32(),
  SANDBOX_API_TOKEN_ID: 'operator-token',
  SANDBOX_API_CLIENT_SECRET: randomBytes(24).toString('base64url'),
  API_SECRET_PEPPER: hex32(),
  WALLET_ENCLAVE_PRIVATE_KEY: hex32(),
  WALLET_STORAGE_KEY: hex32(),
  WEBHOOK_SIGNING_PRIVATE_KEY: hex32(),
  STABLECOIN_SECRET_KEY: hex32(),
  CARDS_DATA_KEY: hex32(),
};

export function renderOverlay(dir: string): K8sObject[] {
  const text = execFileSync('kubectl', ['kustomize', join(ROOT, 'deploy', dir)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return parseAllDocuments(text).map((d) => d.toJSON() as K8sObject).filter(Boolean);
}

/**
 * The Deployment's environment, resolved; addresses and ports moved to loopback and free ports (tests run side by
 * side).
 */
export function environmentOf(objects: K8sObject[], component: string): Record<string, string> {
  const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'grid-config')!.data!;
  const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === component)!;
  const env: Record<string, string> = {};
  for (const e of deployment.spec.template.spec.containers[0].env as EnvEntry[]) {
    const ref = e.valueFrom?.configMapKeyRef?.key ?? e.valueFrom?.secretKeyRef?.key;
    const value = e.value ?? (e.valueFrom?.configMapKeyRef ? config[ref!] : SECRETS[ref!]);
    if (value === undefined) {
      throw new Error(`${component}: ${e.name} refers to ${ref}, which neither grid-config nor grid-secrets has`);
    }
    env[e.name] = value;
  }
  return {
    ...env,
    ...(env.GRPC_ADDRESS ? { GRPC_ADDRESS: '127.0.0.1:0' } : {}),
    ...(env.PORT ? { PORT: '0', HOST: '127.0.0.1' } : {}),
  };
}
