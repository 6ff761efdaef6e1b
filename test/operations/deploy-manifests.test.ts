import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * The Kubernetes manifests as `kubectl apply -k` would send them: each overlay rendered by kubectl's
 * built-in kustomize, every object validated against the Kubernetes API schemas (kubernetes-models),
 * then checked for what an operator relies on.
 */
const DEPLOY = join(__dirname, '..', '..', 'deploy');
const SERVICES = ['auth', 'accounts', 'quotes-transactions', 'notifications'];
const COMPONENTS = ['gateway', ...SERVICES];
type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; spec?: any };

function render(dir: string): K8sObject[] {
  let text: string;
  try {
    text = execFileSync('kubectl', ['kustomize', join(DEPLOY, dir)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    throw new Error(`kubectl kustomize ${dir} failed (kubectl is part of this machine's image): ${(err as Error).message}`);
  }
  return parseAllDocuments(text).map((d) => d.toJSON() as K8sObject).filter(Boolean);
}

/** Each object checked against its apiVersion/kind's API schema (kubernetes-models, in an ES module of its own). */
function schemaProblems(objects: K8sObject[]): string[] {
  const output = execFileSync(process.execPath, [join(__dirname, 'validate-k8s.mjs')], { input: JSON.stringify(objects), encoding: 'utf8' });
  return (JSON.parse(output) as { problems: string[] }).problems;
}

const rendered = { base: render('base'), dev: render('overlays/dev'), production: render('overlays/production') };
const of = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const named = (objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const podLabels = (deployment: K8sObject) => deployment.spec.template.metadata.labels as Record<string, string>;
const selects = (selector: Record<string, string>, labels: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);

describe.each(Object.entries(rendered))('%s', (_name, objects) => {
  it('renders only objects valid against the Kubernetes API schemas (and an invalid one would be caught)', () => {
    const broken = { ...named(objects, 'Deployment', 'gateway')!, spec: { replicas: 'two' } } as K8sObject;
    expect(schemaProblems([broken])).toEqual([expect.stringContaining('Deployment/gateway')]);
    expect(objects.length).toBeGreaterThan(10);
    expect(schemaProblems(objects)).toEqual([]);
  });

  it('runs every component from the image as uid 1000, non-root, read-only', () => {
    const dockerUser = /^USER (\d+):(\d+)$/m.exec(readFileSync(join(DEPLOY, '..', 'Dockerfile'), 'utf8'))!;
    expect(of(objects, 'Deployment').map((d) => d.metadata.name).sort()).toEqual([...COMPONENTS].sort());
    for (const d of of(objects, 'Deployment')) {
      const [container] = d.spec.template.spec.containers;
      expect({ name: d.metadata.name, args: container.args }).toEqual({ name: d.metadata.name, args: [d.metadata.name] });
      expect(container.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: Number(dockerUser[1]), readOnlyRootFilesystem: true });
      const names = container.env.map((e: { name: string }) => e.name);
      expect(names.length).toBe(new Set(names).size);
    }
  });

  it('gives every service its brokers and the shared internal token (a service alone refuses to start without them)', () => {
    for (const service of SERVICES) {
      const env = named(objects, 'Deployment', service)!.spec.template.spec.containers[0].env.map((e: { name: string }) => e.name);
      expect({ service, env }).toEqual({ service, env: expect.arrayContaining(['KAFKA_BROKERS', 'INTERNAL_TOKEN', 'MONGODB_URI']) });
    }
  });

  it('probes liveness and readiness apart: a dependency outage never restarts a pod, a stalled event pipeline never unreadies one', () => {
    const [gateway] = named(objects, 'Deployment', 'gateway')!.spec.template.spec.containers;
    expect([gateway.startupProbe.httpGet.path, gateway.livenessProbe.httpGet.path, gateway.readinessProbe.httpGet.path]).toEqual(['/livez', '/livez', '/readyz']);
    for (const service of SERVICES) {
      const [c] = named(objects, 'Deployment', service)!.spec.template.spec.containers;
      expect({ service, startup: c.startupProbe.grpc, liveness: c.livenessProbe.grpc, readiness: c.readinessProbe.grpc })
        .toEqual({ service, startup: { port: 50051, service: 'liveness' }, liveness: { port: 50051, service: 'liveness' }, readiness: { port: 50051 } });
    }
  });

  it('denies ingress by default and lets each service be reached only by its callers, on its port', () => {
    const policies = of(objects, 'NetworkPolicy');
    const deny = named(objects, 'NetworkPolicy', 'default-deny-ingress')!;
    expect(deny.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress'] });
    const deployments = of(objects, 'Deployment');
    const callers: Record<string, string[]> = {
      auth: ['accounts', 'gateway', 'quotes-transactions'], accounts: ['auth', 'gateway', 'notifications', 'quotes-transactions'],
      'quotes-transactions': ['accounts', 'gateway'], notifications: ['auth', 'gateway'],
    };
    for (const service of SERVICES) {
      const policy = policies.find((p) => p.metadata.name === `${service}-ingress`)!;
      expect(selects(policy.spec.podSelector.matchLabels, podLabels(named(objects, 'Deployment', service)!))).toBe(true);
      const [rule] = policy.spec.ingress;
      const allowed = deployments.filter((d) => rule.from.some((f: any) => selects(f.podSelector.matchLabels, podLabels(d)))).map((d) => d.metadata.name).sort();
      expect({ service, allowed }).toEqual({ service, allowed: callers[service] });
      expect(rule.ports).toEqual([{ port: 50051, protocol: 'TCP' }]);
    }
    const gateway = named(objects, 'NetworkPolicy', 'gateway-ingress')!;
    expect(gateway.spec.ingress).toEqual([{ ports: [{ port: 8080, protocol: 'TCP' }] }]);
  });
});

test('dev: one replica each, its own namespace everywhere, a disruption budget that lets nodes drain', () => {
  const objects = rendered.dev;
  for (const d of of(objects, 'Deployment')) expect({ name: d.metadata.name, replicas: d.spec.replicas }).toEqual({ name: d.metadata.name, replicas: 1 });
  expect(named(objects, 'Namespace', 'grid-payments-dev')).toBeDefined();
  for (const o of objects.filter((x) => x.kind !== 'Namespace')) expect(`${o.kind}/${o.metadata.name} in ${o.metadata.namespace}`).toBe(`${o.kind}/${o.metadata.name} in grid-payments-dev`);
  expect(named(objects, 'PodDisruptionBudget', 'gateway')!.spec).toMatchObject({ maxUnavailable: 1 });
  expect(of(objects, 'HorizontalPodAutoscaler')).toEqual([]);
});

test('production: every component autoscaled from two replicas, with a disruption budget', () => {
  const objects = rendered.production;
  for (const component of COMPONENTS) {
    const hpa = named(objects, 'HorizontalPodAutoscaler', component)!;
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: component });
    expect(hpa.spec.minReplicas).toBe(2);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(2);
    expect(named(objects, 'Deployment', component)!.spec.replicas).toBe(2);
    const pdb = named(objects, 'PodDisruptionBudget', component)!;
    expect(selects(pdb.spec.selector.matchLabels, podLabels(named(objects, 'Deployment', component)!))).toBe(true);
  }
  // Autoscaling needs the shared store: the production overlay runs on MongoDB, never on DATA_DIR.
  for (const d of of(objects, 'Deployment')) {
    const env = d.spec.template.spec.containers[0].env.map((e: { name: string }) => e.name);
    expect(env).not.toContain('DATA_DIR');
  }
});
