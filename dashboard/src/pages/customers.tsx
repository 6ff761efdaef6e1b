import { useState } from 'preact/hooks';
import { api, query } from '../api';
import { ErrorLine, Field, Json, Link, Table, money, usePaged, usePoll, when } from '../ui';

/** Customers, searched by the API's filters (and by name within the page shown). */
export function Customers() {
  const [filters, setFilters] = useState<Record<string, string>>({});
  const { name, ...apiFilters } = filters;
  const list = usePaged((cursor) => api(`/customers${query({ ...apiFilters, limit: '20', cursor })}`), [
    JSON.stringify(apiFilters),
  ]);
  const rows = list.data?.data.filter((c: any) =>
    !name || String(c.fullName ?? c.businessInfo?.legalName ?? '').toLowerCase().includes(name.toLowerCase())
  );
  return (
    <>
      <h1>Customers</h1>
      <form
        class='filters'
        role='search'
        aria-label='Search customers'
        onSubmit={(e) => {
          e.preventDefault();
          setFilters(
            Object.fromEntries(
              [...new FormData(e.currentTarget as HTMLFormElement)].filter(([, v]) => v !== ''),
            ) as Record<string, string>,
          );
        }}
      >
        <Field label='Name contains'>
          <input name='name' />
        </Field>
        <Field label='Platform customer id'>
          <input name='platformCustomerId' />
        </Field>
        <Field label='Type'>
          <select name='customerType'>
            <option value=''>Any</option>
            <option>INDIVIDUAL</option>
            <option>BUSINESS</option>
          </select>
        </Field>
        <Field label='UMA address'>
          <input name='umaAddress' />
        </Field>
        <button type='submit'>Search</button>
      </form>
      <ErrorLine error={list.error} />
      <Table
        caption='Customers'
        rows={rows}
        columns={[
          {
            label: 'Name',
            cell: (c: any) => (
              <Link to={`/customers/${encodeURIComponent(c.id)}`}>
                {c.fullName ?? c.businessInfo?.legalName ?? c.platformCustomerId}
              </Link>
            ),
          },
          { label: 'Platform id', cell: (c: any) => c.platformCustomerId },
          { label: 'Type', cell: (c: any) => c.customerType },
          { label: 'KYC / KYB', cell: (c: any) => c.kycStatus ?? c.kybStatus ?? '' },
          { label: 'Created', cell: (c: any) => when(c.createdAt) },
        ]}
      />
      {list.pager}
    </>
  );
}

/** One customer: status, documents, internal and external accounts. */
export function CustomerPage(props: { id: string }) {
  const id = encodeURIComponent(props.id);
  const customer = usePoll(() => api(`/customers/${id}`), [props.id], 2000);
  const accounts = usePoll(() => api(`/customers/internal-accounts?customerId=${id}`), [props.id]);
  const external = usePoll(() => api(`/customers/external-accounts?customerId=${id}`), [props.id], 2000);
  const documents = usePoll(() => api(`/documents?documentHolder=${id}`), [props.id], 2000);
  const c = customer.data;
  return (
    <>
      <h1>Customer {c ? (c.fullName ?? c.businessInfo?.legalName ?? c.platformCustomerId) : ''}</h1>
      <ErrorLine error={customer.error} />
      {c
        ? (
          <dl class='facts'>
            <dt>Id</dt>
            <dd class='mono'>{c.id}</dd>
            <dt>Platform id</dt>
            <dd>{c.platformCustomerId}</dd>
            <dt>Type</dt>
            <dd>{c.customerType}</dd>
            <dt>{c.customerType === 'BUSINESS' ? 'KYB status' : 'KYC status'}</dt>
            <dd>{c.kycStatus ?? c.kybStatus}</dd>
            <dt>UMA address</dt>
            <dd>{c.umaAddress ?? ''}</dd>
          </dl>
        )
        : null}
      <h2>Internal accounts</h2>
      <AccountTable rows={accounts.data?.data} error={accounts.error} />
      <h2>External accounts</h2>
      <ErrorLine error={external.error} />
      <ExternalTable rows={external.data?.data} />
      <h2>Documents</h2>
      <ErrorLine error={documents.error} />
      <Table
        caption='Documents'
        rows={documents.data?.data}
        columns={[
          { label: 'Document', cell: (d: any) => d.id },
          { label: 'Type', cell: (d: any) => d.documentType },
          { label: 'File', cell: (d: any) => d.fileName ?? '' },
          { label: 'Uploaded', cell: (d: any) => when(d.createdAt) },
        ]}
      />
      {c
        ? (
          <details>
            <summary>As the API answers it</summary>
            <Json label='Customer' value={c} />
          </details>
        )
        : null}
    </>
  );
}

export function AccountTable(props: { rows?: any[]; error?: string; caption?: string }) {
  return (
    <>
      <ErrorLine error={props.error} />
      <Table
        caption={props.caption ?? 'Internal accounts'}
        rows={props.rows}
        columns={[
          { label: 'Account', cell: (a: any) => <span class='mono'>{a.id}</span> },
          { label: 'Type', cell: (a: any) => a.type },
          { label: 'Status', cell: (a: any) => a.status },
          {
            label: 'Balance',
            cell: (a: any) => <span data-account={a.id}>{money(a.balance.amount, a.balance.currency)}</span>,
          },
          {
            label: 'Customer',
            cell: (a: any) => (a.customerId
              ? <Link to={`/customers/${encodeURIComponent(a.customerId)}`}>{a.customerId}</Link>
              : 'platform'),
          },
        ]}
      />
    </>
  );
}

export function ExternalTable(props: { rows?: any[]; caption?: string }) {
  return (
    <Table
      caption={props.caption ?? 'External accounts'}
      rows={props.rows}
      columns={[
        { label: 'Account', cell: (a: any) => <span class='mono'>{a.id}</span> },
        { label: 'Currency', cell: (a: any) => a.currency },
        { label: 'Kind', cell: (a: any) => a.accountInfo?.accountType },
        { label: 'Status', cell: (a: any) => a.status ?? '' },
        { label: 'Customer', cell: (a: any) => a.customerId ?? 'platform' },
      ]}
    />
  );
}

/** Internal and external accounts with their balances, the platform's and its customers'. */
export function Accounts() {
  const platform = usePoll(() => api('/platform/internal-accounts'), []);
  const customers = usePaged((cursor) => api(`/customers/internal-accounts${query({ limit: '20', cursor })}`), []);
  const external = usePoll(() => api('/customers/external-accounts?limit=50'), [], 3000);
  const platformExternal = usePoll(() => api('/platform/external-accounts'), [], 3000);
  return (
    <>
      <h1>Accounts</h1>
      <h2>The platform's internal accounts</h2>
      <AccountTable caption='Platform internal accounts' rows={platform.data?.data} error={platform.error} />
      <h2>Customers' internal accounts</h2>
      <AccountTable caption='Customer internal accounts' rows={customers.data?.data} error={customers.error} />
      {customers.pager}
      <h2>External accounts</h2>
      <ErrorLine error={external.error ?? platformExternal.error} />
      <ExternalTable caption='Customer external accounts' rows={external.data?.data} />
      <ExternalTable caption='Platform external accounts' rows={platformExternal.data?.data} />
    </>
  );
}
