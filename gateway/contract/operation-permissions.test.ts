import { OPERATIONS } from './operation-registry';
import { OPERATION_PERMISSIONS, permissionRefusal, permits } from './operation-permissions';

test('every operation the gateway serves has a permission entry (add one beside any new route)', () => {
  const missing = OPERATIONS.filter((op) => !(op.operationId in OPERATION_PERMISSIONS)).map((op) => op.operationId);
  expect(missing).toEqual([]);
});

test('every entry names an operation the gateway serves', () => {
  const served = new Set(OPERATIONS.map((op) => op.operationId));
  expect(Object.keys(OPERATION_PERMISSIONS).filter((id) => !served.has(id))).toEqual([]);
});

test('PUBLIC is exactly the operations served without credentials', () => {
  const publicOps = Object.entries(OPERATION_PERMISSIONS).filter(([, p]) => p === 'PUBLIC').map(([id]) => id).sort();
  expect(publicOps).toEqual(OPERATIONS.filter((op) => !op.authenticated).map((op) => op.operationId).sort());
});

test('an operation without an entry is refused, whatever the token holds', () => {
  expect(permissionRefusal({ operationId: 'somethingNew' }, ['VIEW', 'TRANSACT', 'MANAGE'])).toMatchObject({
    code: 'FORBIDDEN',
  });
});

test('any permission reads; paying takes TRANSACT and configuring takes MANAGE', () => {
  expect(permits(['MANAGE'], 'VIEW')).toBe(true);
  expect(permits([], 'VIEW')).toBe(false);
  expect(permits(['VIEW', 'MANAGE'], 'TRANSACT')).toBe(false);
  expect(permits(['TRANSACT'], 'MANAGE')).toBe(false);
  expect(permissionRefusal({ operationId: 'createQuote' }, ['VIEW'])).toMatchObject({
    code: 'FORBIDDEN',
    details: { requiredPermission: 'TRANSACT' },
  });
});
