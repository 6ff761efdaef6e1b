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
type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: any;
};

function render(dir: string): K8sObject[] {
  let text: string;
  try {
    text = execFileSync('kubectl', ['kustomize', join(DEPLOY, dir)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    throw new Error(
      `kubectl kustomize ${dir} failed (kubectl is part of this machine's image): ${(err as Error).message}`,
    );
  }
  return parseAllDocuments(text).map((d) => d.toJSON() as K8sObject).filter(Boolean);
}

/** Each object checked against its apiVersion/kind's API schema (kubernetes-models, in an ES module of its own). */
function schemaProblems(objects: K8sObject[]): string[] {
  const output = execFileSync(process.execPath, [join(__dirname, 'validate-k8s.mjs')], {
    input: JSON.stringify(objects),
    encoding: 'utf8',
  });
  return (JSON.parse(output) as { problems: string[] }).problems;
}

const rendered = { base: render('base'), dev: render('overlays/dev'), production: render('overlays/production') };
const of = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const named = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);
const podLabels = (deployment: K8sObject) => deployment.spec.template.metadata.labels as Record<string, string>;
const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

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
      expect({ name: d.metadata.name, args: container.args }).toEqual({
        name: d.metadata.name,
        args: [d.metadata.name],
      });
      expect(container.securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: Number(dockerUser[1]),
        readOnlyRootFilesystem: true,
      });
      const names = container.env.map((e: { name: string }) => e.name);
      expect(names.length).toBe(new Set(names).size);
    }
  });

  it("gives every service its brokers and the shared internal token (a service alone won't start without)", () => {
    for (const service of SERVICES) {
      const env = named(objects, 'Deployment', service)!.spec.template.spec.containers[0].env.map((
        e: { name: string },
      ) => e.name);
      expect({ service, env }).toEqual({
        service,
        env: expect.arrayContaining(['KAFKA_BROKERS', 'INTERNAL_TOKEN', 'MONGODB_URI']),
      });
    }
  });

  it(
    'probes liveness and readiness apart: a dependency outage never '
      + 'restarts a pod, a stalled event pipeline never unreadies one',
    () => {
      const [gateway] = named(objects, 'Deployment', 'gateway')!.spec.template.spec.containers;
      expect([
        gateway.startupProbe.httpGet.path,
        gateway.livenessProbe.httpGet.path,
        gateway.readinessProbe.httpGet.path,
      ])
        .toEqual(['/livez', '/livez', '/readyz']);
      for (const service of SERVICES) {
        const [c] = named(objects, 'Deployment', service)!.spec.template.spec.containers;
        expect({
          service,
          startup: c.startupProbe.grpc,
          liveness: c.livenessProbe.grpc,
          readiness: c.readinessProbe.grpc,
        })
          .toEqual({
            service,
            startup: { port: 50051, service: 'liveness' },
            liveness: { port: 50051, service: 'liveness' },
            readiness: { port: 50051 },
          });
      }
    },
  );

  it('denies ingress by default and lets each service be reached only by its callers, on its port', () => {
    const policies = of(objects, 'NetworkPolicy');
    const deny = named(objects, 'NetworkPolicy', 'default-deny-ingress')!;
    expect(deny.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress'] });
    const deployments = of(objects, 'Deployment');
    const callers: Record<string, string[]> = {
      auth: ['accounts', 'gateway', 'quotes-transactions'],
      accounts: ['auth', 'gateway', 'notifications', 'quotes-transactions'],
      'quotes-transactions': ['accounts', 'gateway'],
      notifications: ['auth', 'gateway'],
    };
    for (const service of SERVICES) {
      const policy = policies.find((p) => p.metadata.name === `${service}-ingress`)!;
      expect(selects(policy.spec.podSelector.matchLabels, podLabels(named(objects, 'Deployment', service)!))).toBe(
        true,
      );
      const [rule] = policy.spec.ingress;
      const allowed = deployments.filter((d) =>
        rule.from.some((f: any) => selects(f.podSelector.matchLabels, podLabels(d)))
      ).map((d) => d.metadata.name).sort();
      expect({ service, allowed }).toEqual({ service, allowed: callers[service] });
      expect(rule.ports).toEqual([{ port: 50051, protocol: 'TCP' }]);
    }
    const gateway = named(objects, 'NetworkPolicy', 'gateway-ingress')!;
    expect(gateway.spec.ingress).toEqual([{ ports: [{ port: 8080, protocol: 'TCP' }] }]);
  });
});

test('dev: one replica each, its own namespace everywhere, a disruption budget that lets nodes drain', () => {
  const objects = rendered.dev;
  for (const d of of(objects, 'Deployment')) {
    expect({ name: d.metadata.name, replicas: d.spec.replicas }).toEqual({ name: d.metadata.name, replicas: 1 });
  }
  expect(named(objects, 'Namespace', 'grid-payments-dev')).toBeDefined();
  for (const o of objects.filter((x) => x.kind !== 'Namespace')) {
    expect(`${o.kind}/${o.metadata.name} in ${o.metadata.namespace}`).toBe(
      `${o.kind}/${o.metadata.name} in grid-payments-dev`,
    );
  }
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

/**
 * The ingress rules of every policy selecting `target`'s pods that admit a pod labelled `labels`, as the ports they
 * open.
 */
function admittedPorts(objects: K8sObject[], target: string, labels: Record<string, string>): unknown[] {
  const targetLabels = podLabels(named(objects, 'Deployment', target)!);
  return of(objects, 'NetworkPolicy')
    .filter((p) => selects(p.spec.podSelector.matchLabels ?? {}, targetLabels))
    .flatMap((p) => p.spec.ingress ?? [])
    .filter((rule: any) =>
      !rule.from
      || rule.from.some((f: any) => !f.namespaceSelector && selects(f.podSelector?.matchLabels ?? {}, labels))
    )
    .flatMap((rule: any) => rule.ports);
}

test(
  'production: a pod labelled as the settlement integration (docs/settlement-rails.md) '
    + "reaches quotes-transactions' gRPC port, an unlabelled one does not",
  () => {
    const doc = readFileSync(join(DEPLOY, '..', 'docs', 'settlement-rails.md'), 'utf8');
    const [, key, value] = /^ {4}(\S+): "(\S+)"$/m.exec(doc)!;
    expect(key).toBe('grid-payments/settlement-integration');
    const objects = rendered.production;
    expect(admittedPorts(objects, 'quotes-transactions', { [key]: value })).toEqual([{ port: 50051, protocol: 'TCP' }]);
    expect(admittedPorts(objects, 'quotes-transactions', { 'app.kubernetes.io/name': 'settlement' })).toEqual([]);
    // The label opens quotes-transactions only.
    for (const service of SERVICES.filter((s) => s !== 'quotes-transactions')) {
      expect(admittedPorts(objects, service, { [key]: value })).toEqual([]);
    }
  },
);

test.each(Object.keys(rendered) as (keyof typeof rendered)[])(
  '%s: every component and the topic Job get the brokers and the optional Kafka TLS/SASL settings',
  (overlay) => {
    const objects = rendered[overlay];
    const workloads = [...of(objects, 'Deployment'), named(objects, 'Job', 'kafka-topics')!];
    for (const w of workloads) {
      const spec = w.spec.template.spec;
      const [c] = spec.containers;
      expect({ name: w.metadata.name, brokers: c.env.some((e: { name: string }) => e.name === 'KAFKA_BROKERS') })
        .toEqual({ name: w.metadata.name, brokers: true });
      expect(c.envFrom).toEqual([{ secretRef: { name: 'grid-kafka-client', optional: true } }]);
      expect(c.volumeMounts).toContainEqual({ name: 'kafka-tls', mountPath: '/etc/grid/kafka-tls', readOnly: true });
      expect(spec.volumes).toContainEqual(
        expect.objectContaining({
          name: 'kafka-tls',
          secret: expect.objectContaining({ secretName: 'grid-kafka-tls', optional: true }),
        }),
      );
    }
  },
);

test("the topic Job replicates as the overlay's brokers allow: 3 (2 in sync) in production, 1 in dev", () => {
  const settings = (overlay: keyof typeof rendered) =>
    Object.fromEntries(
      named(rendered[overlay], 'Job', 'kafka-topics')!
        .spec.template.spec.containers[0].env.filter((e: { value?: string }) => e.value !== undefined).map((
          e: { name: string; value: string },
        ) => [e.name, e.value]),
    );
  expect(settings('production')).toMatchObject({
    KAFKA_TOPIC_REPLICATION_FACTOR: '3',
    KAFKA_TOPIC_MIN_INSYNC_REPLICAS: '2',
  });
  expect(settings('dev')).toMatchObject({ KAFKA_TOPIC_REPLICATION_FACTOR: '1', KAFKA_TOPIC_MIN_INSYNC_REPLICAS: '1' });
});

test('the alerts select components by their part-of label, which the ServiceMonitor keeps, not namespace', () => {
  const monitoring = render('monitoring');
  const rules = named(monitoring, 'PrometheusRule', 'grid-payments')!.spec.groups.flatMap((g: any) => g.rules);
  for (const rule of rules) {
    expect({ alert: rule.alert, expr: rule.expr }).toEqual({
      alert: rule.alert,
      expr: expect.not.stringContaining('namespace='),
    });
  }
  expect(rules.find((r: any) => r.alert === 'GridComponentDown').expr).toContain(
    'app_kubernetes_io_part_of="grid-payments"',
  );
  expect(named(monitoring, 'ServiceMonitor', 'grid-payments')!.spec.targetLabels).toEqual([
    'app.kubernetes.io/part-of',
  ]);
});
