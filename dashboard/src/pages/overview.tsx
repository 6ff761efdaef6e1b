import { api } from '../api';
import { ErrorLine, Link, Table, money, usePoll, when } from '../ui';
import { statusBadge } from './transactions';

/** Balances by currency (the platform's and its customers' internal accounts), recent payments, failing webhooks. */
export function Overview() {
  const accounts = usePoll(
    async () => {
      const [platform, customers] = await Promise.all([
        api('/platform/internal-accounts'),
        api('/customers/internal-accounts?limit=100'),
      ]);
      const totals = new Map<string, { amount: number; currency: any; accounts: number }>();
      for (const a of [...platform.data, ...customers.data]) {
        const t = totals.get(a.balance.currency.code) ?? { amount: 0, currency: a.balance.currency, accounts: 0 };
        totals.set(a.balance.currency.code, { ...t, amount: t.amount + a.balance.amount, accounts: t.accounts + 1 });
      }
      return [...totals.values()].sort((x, y) => x.currency.code.localeCompare(y.currency.code));
    },
    [],
    2000,
  );
  const payments = usePoll(() => api('/transactions?limit=10'), []);
  const failing = usePoll(() => api('/webhooks/deliveries?status=FAILED&limit=10'), []);
  return (
    <>
      <h1>Overview</h1>
      <section aria-labelledby='balances'>
        <h2 id='balances'>Balances by currency</h2>
        <ErrorLine error={accounts.error} />
        <Table
          caption='Balances'
          rows={accounts.data}
          columns={[
            { label: 'Currency', cell: (t) => t.currency.code },
            { label: 'Available', cell: (t) => money(t.amount, t.currency) },
            { label: 'Accounts', cell: (t) => t.accounts },
          ]}
        />
      </section>
      <section aria-labelledby='recent'>
        <h2 id='recent'>Recent payments</h2>
        <ErrorLine error={payments.error} />
        <Table
          caption='Recent payments'
          rows={payments.data?.data}
          columns={[
            {
              label: 'Transaction',
              cell: (t: any) => <Link to={`/transactions/${encodeURIComponent(t.id)}`}>{t.id}</Link>,
            },
            { label: 'Status', cell: (t: any) => statusBadge(t.status) },
            { label: 'Sent', cell: (t: any) => money(t.sentAmount?.amount, t.sentAmount?.currency) },
            { label: 'Created', cell: (t: any) => when(t.createdAt) },
          ]}
        />
      </section>
      <section aria-labelledby='failing'>
        <h2 id='failing'>Failing webhooks</h2>
        <ErrorLine error={failing.error} />
        <Table
          caption='Failed webhook deliveries'
          empty='No failed webhook deliveries.'
          rows={failing.data?.data}
          columns={[
            { label: 'Delivery', cell: (d: any) => <Link to={`/webhooks/${encodeURIComponent(d.id)}`}>{d.id}</Link> },
            { label: 'Event', cell: (d: any) => d.type },
            { label: 'Attempts', cell: (d: any) => `${d.attemptCount}/${d.maxAttempts}` },
            { label: 'Created', cell: (d: any) => when(d.createdAt) },
          ]}
        />
      </section>
    </>
  );
}
