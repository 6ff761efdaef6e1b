import { api, can, currentSession } from '../api';
import { ActionForm, Field } from '../ui';

const CARD_SIMULATIONS = [
  'authorization',
  'clearing',
  'return',
  'balance_inquiry',
  'credit_authorization',
  'financial_authorization',
  'financial_credit_authorization',
  'authorization_advice',
  'credit_authorization_advice',
  'return_reversal',
];

/** The sandbox's simulators (GRID_MODE=sandbox only: absent otherwise, and the API refuses them anyway). */
export function Sandbox() {
  if (!currentSession()?.sandbox) {
    return (
      <>
        <h1>Sandbox</h1>
        <p>This system runs in production mode: there is no sandbox.</p>
      </>
    );
  }
  return (
    <>
      <h1>Sandbox</h1>
      {can('fundInternalAccount')
        ? (
          <ActionForm
            label='Fund an internal account'
            submit='Fund account'
            action={async (data) => {
              const r = await api(
                `/sandbox/internal-accounts/${encodeURIComponent(String(data.get('accountId')))}/fund`,
                { method: 'POST', json: { amount: Number(data.get('amount')) } },
              );
              return `Balance now ${r.balance?.amount ?? ''} ${r.balance?.currency?.code ?? ''}.`;
            }}
          >
            <h2>Fund an account</h2>
            <Field label='Internal account id'>
              <input name='accountId' required />
            </Field>
            <Field label='Amount (minor units)'>
              <input name='amount' type='number' min='1' step='1' required />
            </Field>
          </ActionForm>
        )
        : null}
      {can('simulateUmaReceive')
        ? (
          <ActionForm
            label='Simulate an incoming UMA payment'
            submit='Receive payment'
            action={async (data) => {
              const r = await api('/sandbox/uma/receive', {
                method: 'POST',
                json: {
                  senderUmaAddress: String(data.get('senderUmaAddress')),
                  receiverUmaAddress: String(data.get('receiverUmaAddress')),
                  customerId: String(data.get('customerId')),
                  receivingCurrencyCode: String(data.get('currency')),
                  receivingCurrencyAmount: Number(data.get('amount')),
                },
              });
              return `Transaction ${r.id ?? ''} ${r.status ?? ''}.`;
            }}
          >
            <h2>Incoming UMA payment</h2>
            <Field label='Sender UMA address'>
              <input name='senderUmaAddress' required placeholder='$alice@uma.example' />
            </Field>
            <Field label='Receiver UMA address'>
              <input name='receiverUmaAddress' required />
            </Field>
            <Field label='Receiving customer id'>
              <input name='customerId' required />
            </Field>
            <Field label='Currency'>
              <input name='currency' required defaultValue='USD' />
            </Field>
            <Field label='Amount (minor units)'>
              <input name='amount' type='number' min='1' step='1' required />
            </Field>
          </ActionForm>
        )
        : null}
      {can('sandboxSimulateCardAuthorization')
        ? (
          <ActionForm
            label='Simulate a card event'
            submit='Simulate'
            action={async (data) => {
              const body: Record<string, unknown> = {
                merchant: { descriptor: String(data.get('merchant') || 'COFFEE') },
              };
              if (data.get('amount')) body.amount = Number(data.get('amount'));
              if (data.get('currency')) body.currency = { code: String(data.get('currency')) };
              if (data.get('cardTransactionId')) body.cardTransactionId = String(data.get('cardTransactionId'));
              const r = await api(
                `/sandbox/cards/${encodeURIComponent(String(data.get('cardId')))}/simulate/${data.get('kind')}`,
                { method: 'POST', json: body },
              );
              return `Simulated (issuer transaction token ${r.issuerTransactionToken ?? ''}).`;
            }}
          >
            <h2>Card simulations</h2>
            <Field label='Card id'>
              <input name='cardId' required />
            </Field>
            <Field label='Simulation'>
              <select name='kind'>{CARD_SIMULATIONS.map((k) => <option value={k}>{k}</option>)}</select>
            </Field>
            <Field label='Amount (minor units)'>
              <input name='amount' type='number' min='0' step='1' />
            </Field>
            <Field label='Currency'>
              <input name='currency' defaultValue='USD' />
            </Field>
            <Field label='Merchant descriptor'>
              <input name='merchant' defaultValue='COFFEE' />
            </Field>
            <Field label='Card transaction id (clearing, return, advice)'>
              <input name='cardTransactionId' />
            </Field>
          </ActionForm>
        )
        : null}
    </>
  );
}
