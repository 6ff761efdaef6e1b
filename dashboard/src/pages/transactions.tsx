import { useRef, useState } from 'preact/hooks';
import { api, can, query } from '../api';
import { ActionForm, ErrorLine, Field, Json, Link, Table, money, usePaged, usePoll, when } from '../ui';

export const statusBadge = (status: string) => (
  <span class={`badge badge-${String(status).toLowerCase()}`}>{status}</span>
);

const STATUSES = ['', 'CREATED', 'PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'REJECTED', 'REFUNDED', 'EXPIRED'];

/** Transactions with the API's filters and cursor paging. */
export function Transactions() {
  const [filters, setFilters] = useState<Record<string, string>>({});
  const list = usePaged((cursor) => api(`/transactions${query({ ...filters, limit: '20', cursor })}`), [
    JSON.stringify(filters),
  ]);
  return (
    <>
      <h1>Transactions</h1>
      <form
        class='filters'
        aria-label='Transaction filters'
        onSubmit={(e) => {
          e.preventDefault();
          setFilters(
            Object.fromEntries(
              [...new FormData(e.currentTarget as HTMLFormElement)].filter(([, v]) => v !== ''),
            ) as Record<string, string>,
          );
        }}
      >
        <Field label='Customer id'>
          <input name='customerId' />
        </Field>
        <Field label='Platform customer id'>
          <input name='platformCustomerId' />
        </Field>
        <Field label='Status'>
          <select name='status'>{STATUSES.map((s) => <option value={s}>{s || 'Any'}</option>)}</select>
        </Field>
        <Field label='Type'>
          <select name='type'>
            {['', 'INCOMING', 'OUTGOING'].map((s) => <option value={s}>{s || 'Any'}</option>)}
          </select>
        </Field>
        <Field label='Reference'>
          <input name='reference' />
        </Field>
        <Field label='From (ISO date)'>
          <input name='startDate' placeholder='2026-01-01T00:00:00Z' />
        </Field>
        <Field label='To (ISO date)'>
          <input name='endDate' />
        </Field>
        <Field label='Order'>
          <select name='sortOrder'>
            <option value='desc'>Newest first</option>
            <option value='asc'>Oldest first</option>
          </select>
        </Field>
        <button type='submit'>Apply filters</button>
      </form>
      <ErrorLine error={list.error} />
      <TransactionTable rows={list.data?.data} />
      {list.pager}
    </>
  );
}

export function TransactionTable(props: { rows?: any[]; caption?: string }) {
  return (
    <Table
      caption={props.caption ?? 'Transactions'}
      rows={props.rows}
      columns={[
        { label: 'Transaction', cell: (t) => <Link to={`/transactions/${encodeURIComponent(t.id)}`}>{t.id}</Link> },
        { label: 'Type', cell: (t) => t.type },
        { label: 'Status', cell: (t) => statusBadge(t.status) },
        { label: 'Customer', cell: (t) => t.platformCustomerId ?? t.customerId },
        {
          label: 'Sent',
          cell: (t) => {
            const a = t.sentAmount ?? t.authorizedAmount;
            return money(a?.amount, a?.currency);
          },
        },
        {
          label: 'Received',
          cell: (t) => {
            const a = t.receivedAmount ?? t.settledAmount;
            return money(a?.amount, a?.currency);
          },
        },
        { label: 'Created', cell: (t) => when(t.createdAt) },
      ]}
    />
  );
}

/**
 * One transaction, refreshed every second: its status timeline (created, each status this page saw
 * and when, settled), its amounts, the quote it executed, and the actions its state allows.
 */
export function TransactionPage(props: { id: string }) {
  const seen = useRef<Array<{ status: string; at: string }>>([]);
  const tx = usePoll(async () => {
    const t = await api(`/transactions/${encodeURIComponent(props.id)}`);
    const last = seen.current[seen.current.length - 1];
    if (!last || last.status !== t.status) seen.current = [...seen.current, { status: t.status, at: t.updatedAt }];
    return t;
  }, [props.id]);
  // Its webhooks: the latest deliveries whose data names this transaction (the log has no filter by resource).
  const webhooks = usePoll(
    async () =>
      (await api('/webhooks/deliveries?limit=100')).data
        .filter((d: any) =>
          d.data?.id === props.id || d.data?.transactionId === props.id || d.data?.transaction?.id === props.id
        ),
    [props.id],
    2000,
  );
  const postings = usePoll(() => api(`/transactions/${encodeURIComponent(props.id)}/postings`), [props.id]);
  const quoteId = tx.data?.quoteId;
  const quote = usePoll(() => (quoteId ? api(`/quotes/${encodeURIComponent(quoteId)}`) : Promise.resolve(undefined)), [
    quoteId,
  ], 0);
  const t = tx.data;
  const timeline = t
    ? [
      { label: 'CREATED', at: t.createdAt },
      ...seen.current.map((s) => ({ label: s.status, at: s.at })),
      ...(t.settledAt ? [{ label: 'SETTLED', at: t.settledAt }] : []),
    ]
    : [];
  return (
    <>
      <h1>
        Transaction <span class='mono'>{props.id}</span>
      </h1>
      <ErrorLine error={tx.error} />
      {t
        ? (
          <>
            <p>
              Status: <strong data-testid='transaction-status' aria-live='polite'>{t.status}</strong>
              {t.pendingReason ? ` (${t.pendingReason})` : ''}
            </p>
            <section aria-labelledby='timeline'>
              <h2 id='timeline'>Status timeline</h2>
              <ol class='timeline'>
                {timeline.map((s) => (
                  <li>
                    <strong>{s.label}</strong> <time dateTime={s.at}>{when(s.at)}</time>
                  </li>
                ))}
              </ol>
            </section>
            <section aria-labelledby='amounts'>
              <h2 id='amounts'>Amounts</h2>
              <dl class='facts'>
                <dt>Sent</dt>
                <dd>{money(t.sentAmount?.amount, t.sentAmount?.currency)}</dd>
                <dt>Received</dt>
                <dd>{money(t.receivedAmount?.amount, t.receivedAmount?.currency)}</dd>
                <dt>Fees</dt>
                <dd>{money(t.fees, t.sentAmount?.currency)}</dd>
                <dt>Exchange rate</dt>
                <dd>{t.exchangeRate ?? ''}</dd>
                <dt>Customer</dt>
                <dd>{t.customerId}</dd>
              </dl>
            </section>
            <section aria-labelledby='postings'>
              <h2 id='postings'>Ledger postings</h2>
              <ErrorLine error={postings.error} />
              <Table
                caption='Ledger postings'
                empty='No posting yet.'
                rows={postings.data?.data}
                columns={[
                  { label: 'Step', cell: (p: any) => p.step },
                  { label: 'Account', cell: (p: any) => <span class='mono'>{p.account}</span> },
                  {
                    label: 'Amount',
                    cell: (p: any) => (
                      <span class={p.amount < 0 ? 'debit' : 'credit'}>
                        {p.amount > 0 ? '+' : ''}
                        {money(p.amount, p.currency)}
                      </span>
                    ),
                  },
                ]}
              />
            </section>
            <TransactionActions t={t} refresh={tx.refresh} />
            <section aria-labelledby='quote'>
              <h2 id='quote'>Quote</h2>
              {quoteId
                ? (
                  <>
                    <Link to={`/quotes/${encodeURIComponent(quoteId)}`}>{quoteId}</Link>
                    <Json label='Quote' value={quote.data} />
                  </>
                )
                : <p>No quote.</p>}
            </section>
            <section aria-labelledby='webhooks'>
              <h2 id='webhooks'>Webhooks</h2>
              <ErrorLine error={webhooks.error} />
              <Table
                caption='Webhooks about this transaction'
                empty='No webhook about it among the latest 100 deliveries.'
                rows={webhooks.data}
                columns={[
                  {
                    label: 'Delivery',
                    cell: (d: any) => <Link to={`/webhooks/${encodeURIComponent(d.id)}`}>{d.id}</Link>,
                  },
                  { label: 'Event', cell: (d: any) => d.type },
                  { label: 'Status', cell: (d: any) => d.status },
                  { label: 'Created', cell: (d: any) => when(d.createdAt) },
                ]}
              />
            </section>
            <section aria-labelledby='raw'>
              <h2 id='raw'>As the API answers it</h2>
              <Json label='Transaction' value={t} />
            </section>
          </>
        )
        : null}
    </>
  );
}

function TransactionActions(props: { t: any; refresh: () => void }) {
  const { t } = props;
  const id = encodeURIComponent(t.id);
  const act = (verb: string) => async () => {
    await api(`/transactions/${id}/${verb}`, { method: 'POST', json: {} });
    props.refresh();
  };
  const awaitingPlatform = t.status === 'PENDING' && t.type === 'INCOMING';
  const actions = [
    awaitingPlatform && can('approveTransaction')
      ? <ActionForm label='Approve payment' submit='Approve' action={act('approve')} />
      : null,
    awaitingPlatform && can('rejectTransaction')
      ? <ActionForm label='Reject payment' submit='Reject' action={act('reject')} />
      : null,
    t.type === 'OUTGOING' && ['CREATED', 'PENDING'].includes(t.status) && can('cancelTransaction')
      ? <ActionForm label='Cancel payment' submit='Cancel payment' action={act('cancel')} />
      : null,
  ].filter(Boolean);
  return actions.length
    ? (
      <section aria-labelledby='actions'>
        <h2 id='actions'>Actions</h2>
        {actions}
      </section>
    )
    : null;
}
