import { approvalAnswerOf, asApprovalRequest } from './approval-request';

const notification = {
  id: 'Webhook:1',
  platformId: 'Platform:p',
  type: 'INCOMING_PAYMENT.APPROVAL_REQUESTED',
  dataJson: '{"id":"Transaction:1","status":"PENDING"}',
};
const attempt = { attempt: 1, attemptedAt: '2026-01-01T00:00:00.000Z', durationMs: 3 };

test('an approval request is sent as the reference INCOMING_PAYMENT.PENDING webhook, tied to its payment', () => {
  expect(asApprovalRequest(notification, 'Transaction:1')).toEqual({
    ...notification,
    type: 'INCOMING_PAYMENT.PENDING',
    approvalFor: 'Transaction:1',
  });
  const other = { ...notification, type: 'INCOMING_PAYMENT.COMPLETED' };
  expect(asApprovalRequest(other, 'Transaction:1')).toBe(other);
});

test('the answer passed back: the status, a 200 or 422 body only (bounded), or why there was none', () => {
  expect(
    approvalAnswerOf(
      'Webhook:1',
      { ...attempt, statusCode: 200, outcome: 'ACKNOWLEDGED' },
      '{"receiverCustomerInfo":{"NATIONALITY":"FR"}}',
    ),
  )
    .toEqual({ webhookId: 'Webhook:1', statusCode: 200, body: '{"receiverCustomerInfo":{"NATIONALITY":"FR"}}' });
  expect(
    approvalAnswerOf('Webhook:1', { ...attempt, statusCode: 200, outcome: 'ACKNOWLEDGED' }, 'x'.repeat(10_000)).body,
  ).toHaveLength(4096);
  expect(approvalAnswerOf('Webhook:1', { ...attempt, statusCode: 202, outcome: 'ACKNOWLEDGED' }, '{"a":1}')).toEqual({
    webhookId: 'Webhook:1',
    statusCode: 202,
  });
  expect(approvalAnswerOf('Webhook:1', { ...attempt, statusCode: 403, outcome: 'REJECTED' }, '{"reason":"secret"}'))
    .toEqual({ webhookId: 'Webhook:1', statusCode: 403 });
  expect(
    approvalAnswerOf(
      'Webhook:1',
      { ...attempt, statusCode: 422, outcome: 'REJECTED' },
      '{"requiredFields":["TAX_ID"]}',
    ),
  ).toEqual({ webhookId: 'Webhook:1', statusCode: 422, body: '{"requiredFields":["TAX_ID"]}' });
  expect(
    approvalAnswerOf('Webhook:1', { ...attempt, error: 'connection failed: ECONNREFUSED', outcome: 'UNREACHABLE' }),
  ).toEqual({ webhookId: 'Webhook:1', error: 'connection failed: ECONNREFUSED' });
  expect(approvalAnswerOf('Webhook:1', { ...attempt, error: 'WEBHOOK_ENDPOINT_NOT_SET', outcome: 'NO_ENDPOINT' }))
    .toEqual({ webhookId: 'Webhook:1', noEndpoint: true });
});
