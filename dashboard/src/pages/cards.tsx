import { api, query } from '../api';
import { ErrorLine, Json, Link, Table, usePaged, usePoll, when } from '../ui';
import { TransactionTable } from './transactions';

/** Cards (last four digits only: full details go through the reveal page) and their transactions. */
export function Cards() {
  const list = usePaged((cursor) => api(`/cards${query({ limit: '20', cursor })}`), []);
  return (
    <>
      <h1>Cards</h1>
      <ErrorLine error={list.error} />
      <Table
        caption='Cards'
        rows={list.data?.data}
        columns={[
          { label: 'Card', cell: (c: any) => <Link to={`/cards/${encodeURIComponent(c.id)}`}>{c.id}</Link> },
          { label: 'Last four', cell: (c: any) => c.last4 ?? '' },
          { label: 'State', cell: (c: any) => c.state },
          { label: 'Form', cell: (c: any) => c.form },
          { label: 'Cardholder', cell: (c: any) => c.cardholderId },
          { label: 'Created', cell: (c: any) => when(c.createdAt) },
        ]}
      />
      {list.pager}
    </>
  );
}

export function CardPage(props: { id: string }) {
  const card = usePoll(() => api(`/cards/${encodeURIComponent(props.id)}`), [props.id], 2000);
  const txs = usePoll(async () => {
    // The list has no card filter: the cardholder's latest 100 transactions, those of this card kept.
    if (!card.data?.cardholderId) return undefined;
    const page = await api(`/transactions${query({ customerId: card.data.cardholderId, limit: '100' })}`);
    return page.data.filter((t: any) => t.type === 'CARD' && t.cardId === props.id);
  }, [props.id, card.data?.cardholderId]);
  return (
    <>
      <h1>
        Card <span class='mono'>{props.id}</span>
      </h1>
      <ErrorLine error={card.error} />
      {card.data ? <Json label='Card' value={card.data} /> : null}
      <h2>Transactions</h2>
      <ErrorLine error={txs.error} />
      <TransactionTable caption='Card transactions' rows={txs.data} />
    </>
  );
}
