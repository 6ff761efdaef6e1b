import { api, query } from '../api';
import { ErrorLine, Json, Link, Table, money, usePaged, usePoll, when } from '../ui';

export function Quotes() {
  const list = usePaged((cursor) => api(`/quotes${query({ limit: '20', cursor })}`), []);
  return (
    <>
      <h1>Quotes</h1>
      <ErrorLine error={list.error} />
      <Table
        caption='Quotes'
        rows={list.data?.data}
        columns={[
          { label: 'Quote', cell: (q: any) => <Link to={`/quotes/${encodeURIComponent(q.id)}`}>{q.id}</Link> },
          { label: 'Status', cell: (q: any) => q.status },
          { label: 'Sending', cell: (q: any) => money(q.totalSendingAmount, q.sendingCurrency) },
          { label: 'Receiving', cell: (q: any) => money(q.totalReceivingAmount, q.receivingCurrency) },
          { label: 'Expires', cell: (q: any) => when(q.expiresAt) },
          {
            label: 'Transaction',
            cell: (q: any) => (q.transactionId
              ? <Link to={`/transactions/${encodeURIComponent(q.transactionId)}`}>{q.transactionId}</Link>
              : ''),
          },
        ]}
      />
      {list.pager}
    </>
  );
}

export function QuotePage(props: { id: string }) {
  const quote = usePoll(() => api(`/quotes/${encodeURIComponent(props.id)}`), [props.id], 2000);
  return (
    <>
      <h1>
        Quote <span class='mono'>{props.id}</span>
      </h1>
      <ErrorLine error={quote.error} />
      {quote.data?.transactionId
        ? (
          <p>
            Transaction:{' '}
            <Link to={`/transactions/${encodeURIComponent(quote.data.transactionId)}`}>{quote.data.transactionId}</Link>
          </p>
        )
        : null}
      {quote.data ? <Json label='Quote' value={quote.data} /> : null}
    </>
  );
}
