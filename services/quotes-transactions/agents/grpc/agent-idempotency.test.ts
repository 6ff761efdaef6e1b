import { AgentPolicy_ExecutionMode, AgentPolicy_Permission } from '../../../../gen/auth/v1/agents';
import { CreateAgentTransferRequest_Direction } from '../../../../gen/quotes_transactions/v1/agent_actions';
import { wire } from '../../../../test/fixtures/wire';
import type { AppError } from '../../../../lib/errors';
import {
  asPlatform,
  PLATFORM,
  startPaymentsHarness,
  mxnAccountInfo,
  usdAccountInfo,
  type PaymentsHarness,
} from '../../test-fixtures/payments-harness';

let h: PaymentsHarness;
let customerId: string;
let usd: string;
let usdBank: string;
let mxnPayee: string;

beforeAll(async () => {
  h = await startPaymentsHarness();
  customerId = h.accounts.addCustomer(PLATFORM, { platformCustomerId: 'agent-idem-1' });
  usd = h.accounts.addInternalAccount(PLATFORM, { currency: 'USD', customerId });
  usdBank = h.accounts.addExternalAccount(PLATFORM, { currency: 'USD', customerId, accountInfo: usdAccountInfo() });
  mxnPayee = h.accounts.addExternalAccount(PLATFORM, { currency: 'MXN', customerId, accountInfo: mxnAccountInfo() });
  await h.sandbox.fundInternalAccount({ accountId: usd, ...wire({ amount: 100_000 }) }, asPlatform);
});
afterAll(async () => {
  await h.stop();
});

const agent = {
  agentId: 'Agent:00000000-0000-4000-8000-0000000000a1',
  customerId: '',
  policy: {
    permissions: [
      AgentPolicy_Permission.CREATE_TRANSFERS,
      AgentPolicy_Permission.CREATE_QUOTES,
      AgentPolicy_Permission.EXECUTE_QUOTES,
    ],
    defaultExecutionMode: AgentPolicy_ExecutionMode.AUTO,
    spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 },
  },
};
const failure = async (call: Promise<unknown>) => (await call.then(() => undefined, (e: unknown) => e)) as AppError;
const transfer = (direction: CreateAgentTransferRequest_Direction, amount: number, key: string) => {
  const [source, destination] = direction === CreateAgentTransferRequest_Direction.OUT
    ? [usd, usdBank]
    : [usdBank, usd];
  return h.agentActions.createAgentTransfer({
    agent: { ...agent, customerId },
    direction,
    transfer: {
      ...wire({ source: { accountId: source }, destination: { accountId: destination }, amount }),
      idempotencyKey: key,
    },
  }, asPlatform);
};

// Below the gateway's record of keys (which answers these first): even once that record is purged,
// an agent's key names one request.
test("an agent's key with another amount, direction or quote is refused, and nothing else is paid", async () => {
  const first = await transfer(CreateAgentTransferRequest_Direction.OUT, 100, 'K');
  expect((await transfer(CreateAgentTransferRequest_Direction.OUT, 100, 'K')).action!.id).toBe(first.action!.id);
  const otherAmount = await failure(transfer(CreateAgentTransferRequest_Direction.OUT, 9_999, 'K'));
  expect([otherAmount.code, otherAmount.details]).toEqual(['IDEMPOTENCY_KEY_REUSED', { reason: 'OTHER_BODY' }]);
  const otherDirection = await failure(transfer(CreateAgentTransferRequest_Direction.IN, 100, 'K'));
  expect([otherDirection.code, otherDirection.details]).toEqual(['IDEMPOTENCY_KEY_REUSED', {
    reason: 'OTHER_OPERATION',
  }]);
  const quote = (await h.agentActions.createAgentQuote({
    agent: { ...agent, customerId },
    quote: wire({
      source: { sourceType: 'ACCOUNT', accountId: usd },
      destination: { destinationType: 'ACCOUNT', accountId: mxnPayee },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    }),
  }, asPlatform)).quote!;
  const otherQuote = await failure(
    h.agentActions.executeAgentQuote(
      { agent: { ...agent, customerId }, quoteId: quote.id, idempotencyKey: 'K' },
      asPlatform,
    ),
  );
  expect(otherQuote.code).toBe('IDEMPOTENCY_KEY_REUSED');
  expect((await h.ledger.getBalances({ accountIds: [usd] }, asPlatform)).balances[0].available).toBe(100_000 - 100);
});

test("an agent's quote reads the accounts service once (ownership checked); another customer's: 404", async () => {
  const body = (destination: string) =>
    wire({
      source: { sourceType: 'ACCOUNT', accountId: usd },
      destination: { destinationType: 'ACCOUNT', accountId: destination },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
  h.accounts.calls.length = 0;
  await h.agentActions.createAgentQuote({ agent: { ...agent, customerId }, quote: body(mxnPayee) }, asPlatform);
  expect(h.accounts.calls).toEqual(['getPaymentParties']);
  const stranger = h.accounts.addCustomer(PLATFORM, { platformCustomerId: 'agent-idem-stranger' });
  const strangersPayee = h.accounts.addExternalAccount(PLATFORM, {
    currency: 'MXN',
    customerId: stranger,
    accountInfo: mxnAccountInfo(),
  });
  const refused = await failure(
    h.agentActions.createAgentQuote({ agent: { ...agent, customerId }, quote: body(strangersPayee) }, asPlatform),
  );
  expect([refused.code, refused.message]).toEqual([
    'REFERENCE_NOT_FOUND',
    `External account ${strangersPayee} not found`,
  ]);
});
