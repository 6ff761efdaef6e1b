import type { Payment } from '../domain/payment';
import { authorizationSteps } from './quote-authorization';

const payment = (
  sourceType: string,
  sent: string,
  received: string,
) => ({
  source: { sourceType },
  sent: { currency: { code: sent } },
  received: { currency: { code: received } },
} as unknown as Payment);

test('a cross-currency send authorizes the conversion, then payout or transfer; same-currency: only those', () => {
  expect(authorizationSteps(payment('ACCOUNT', 'USD', 'MXN'))).toEqual(['CURRENCY_CONVERSION', 'PAYOUT']);
  expect(authorizationSteps(payment('ACCOUNT', 'EUR', 'EUR'))).toEqual(['PAYOUT']);
  expect(authorizationSteps(payment('REALTIME_FUNDING', 'EUR', 'MXN'))).toEqual(['CURRENCY_CONVERSION', 'TRANSFER']);
  expect(authorizationSteps(payment('REALTIME_FUNDING', 'USD', 'USD'))).toEqual(['TRANSFER']);
});
