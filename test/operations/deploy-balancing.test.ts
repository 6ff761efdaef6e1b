import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * The rendered overlays: components call each other through headless Services (gRPC balances over replicas), and each
 * is scraped for metrics.
 */
const DEPLOY = join(__dirname, '..', '..', 'deploy');
const SERVICES = ['auth', 'accounts', 'quotes-transactions', 'notifications'];
type K8sObject = { kind: string; metadata: { name: string }; data?: Record<string, string>; spec?: any };
const render = (dir: string) =>
  parseAllDocuments(execFileSync('kubectl', ['kustomize', join(DEPLOY, dir)], { encoding: 'utf8' })).map((d) =>
    d.toJSON() as K8sObject
  ).filter(Boolean);

describe.each(['base', 'overlays/dev', 'overlays/production'])('%s', (dir) => {
  const objects = render(dir);
  const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);

  it("points every service address at a headless Service selecting that service's pods, on its gRPC port", () => {
    const config = find('ConfigMap', 'grid-config')!.data!;
    for (const service of SERVICES) {
      const address = config[`${service.toUpperCase().replace('-', '_')}_ADDRESS`];
      const [host, port] = address.split(':');
      const headless = find('Service', host);
      expect({ service, clusterIP: headless?.spec.clusterIP }).toEqual({ service, clusterIP: 'None' });
      const pods = find('Deployment', service)!.spec.template.metadata.labels;
      for (const [key, value] of Object.entries(headless!.spec.selector as Record<string, string>)) {
        expect(pods[key]).toBe(value);
      }
      expect(headless!.spec.ports).toContainEqual(expect.objectContaining({ port: Number(port) }));
      // The ClusterIP Service is still there for anything else that uses it.
      expect(find('Service', service)?.spec.type).toBe('ClusterIP');
    }
  });

  it('has every component serve metrics on 9464, announced to Prometheus and open to it', () => {
    for (const component of [...SERVICES, 'gateway']) {
      const pod = find('Deployment', component)!.spec.template;
      const [container] = pod.spec.containers;
      expect(container.env).toContainEqual({ name: 'METRICS_PORT', value: '9464' });
      expect(container.ports).toContainEqual(expect.objectContaining({ name: 'metrics', containerPort: 9464 }));
      expect(pod.metadata.annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9464' });
      expect(find('Service', `${component}-pods`)!.spec.ports).toContainEqual(
        expect.objectContaining({ name: 'metrics', port: 9464 }),
      );
    }
    const scrape = find('NetworkPolicy', 'metrics-scrape')!.spec;
    expect(scrape.ingress).toEqual([expect.objectContaining({ ports: [{ port: 9464, protocol: 'TCP' }] })]);
  });
});
