import { hostname } from 'node:os';
import { portOf, replicaGroup } from './replica-group';

test('one group per replica: REPLICA_NAME, else the host (the pod) and its port, the same at every start', () => {
  expect(replicaGroup('gateway-credentials', { REPLICA_NAME: 'gateway-7d9f-x2' }, 8080)).toBe(
    'gateway-credentials.gateway-7d9f-x2',
  );
  expect(replicaGroup('gateway-credentials', {}, 8080)).toBe(`gateway-credentials.${hostname()}.8080`);
  expect(replicaGroup('gateway-credentials', {}, 8080)).toBe(replicaGroup('gateway-credentials', {}, 8080));
  expect(replicaGroup('notifications-endpoint-cache', {}, portOf('0.0.0.0:50051', 1))).toBe(
    `notifications-endpoint-cache.${hostname()}.50051`,
  );
  expect(replicaGroup('x', { REPLICA_NAME: 'a b/c' }, 1)).toBe('x.a-b-c');
  // A port picked at start is no name: the process stands in.
  expect(replicaGroup('x', {}, 0)).toBe(`x.${hostname()}.pid${process.pid}`);
});
