import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** The rendered overlays: components call each other through headless Services, so gRPC balances over replicas. */
const DEPLOY = join(__dirname, '..', '..', 'deploy');
const SERVICES = ['auth', 'accounts', 'quotes-transactions', 'notifications'];
type K8sObject = { kind: string; metadata: { name: string }; data?: Record<string, string>; spec?: any };
const render = (dir: string) =>
  parseAllDocuments(execFileSync('kubectl', ['kustomize', join(DEPLOY, dir)], { encoding: 'utf8' })).map((d) => d.toJSON() as K8sObject).filter(Boolean);

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
      for (const [key, value] of Object.entries(headless!.spec.selector as Record<string, string>)) expect(pods[key]).toBe(value);
      expect(headless!.spec.ports).toContainEqual(expect.objectContaining({ port: Number(port) }));
      // The ClusterIP Service is still there for anything else that uses it.
      expect(find('Service', service)?.spec.type).toBe('ClusterIP');
    }
  });
});
