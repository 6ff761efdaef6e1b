import { api, can } from '../api';
import { ActionForm, ErrorLine, Field, Link, Table, money, usePoll, when } from '../ui';

const policySummary = (p: any) =>
  [
    `mode ${p?.defaultExecutionMode ?? '?'}`,
    p?.permissions?.length ? `may ${p.permissions.join(', ')}` : 'no permissions',
    p?.spendingLimits
      ? Object.entries(p.spendingLimits).filter(([k]) => k !== 'currency').map(([k, v]) => `${k} ${v ?? '—'}`).join(
        ', ',
      )
      : '',
    p?.approvalThresholds?.amount ? `approval above ${p.approvalThresholds.amount}` : '',
  ].filter(Boolean).join('; ');

/** Agents: their pending approvals (approve, reject) and a summary of each policy. */
export function Agents() {
  const approvals = usePoll(() => api('/agents/approvals?limit=50'), []);
  const agents = usePoll(() => api('/agents?limit=100'), [], 2000);
  return (
    <>
      <h1>Agents</h1>
      <section aria-labelledby='approvals'>
        <h2 id='approvals'>Waiting for approval</h2>
        <ErrorLine error={approvals.error} />
        <Table
          caption='Pending approvals'
          empty='Nothing waits for approval.'
          rows={approvals.data?.data}
          columns={[
            { label: 'Action', cell: (a: any) => <span class='mono'>{a.id}</span> },
            { label: 'Agent', cell: (a: any) => a.agentId },
            { label: 'Customer', cell: (a: any) => a.platformCustomerId },
            { label: 'Type', cell: (a: any) => a.type },
            {
              label: 'Amount',
              cell: (a: any) => (a.quote
                ? money(a.quote.totalSendingAmount, a.quote.sendingCurrency)
                : a.transferDetails
                ? money(a.transferDetails.amount, a.transferDetails.currency)
                : ''),
            },
            {
              label: 'Submitted',
              cell: (a: any) =>
                when(a.createdAt),
            },
            {
              label: 'Decision',
              cell: (a: any) => (
                <div class='row'>
                  {can('approveAgentAction')
                    ? (
                      <ActionForm
                        label={`Approve ${a.id}`}
                        submit='Approve'
                        action={async () => {
                          const r = await api(
                            `/agents/${encodeURIComponent(a.agentId)}/actions/${encodeURIComponent(a.id)}/approve`,
                            { method: 'POST', json: {} },
                          );
                          await approvals.refresh();
                          return `Approved: ${r.status}`;
                        }}
                      />
                    )
                    : null}
                  {can('rejectAgentAction')
                    ? (
                      <ActionForm
                        label={`Reject ${a.id}`}
                        submit='Reject'
                        action={async (data) => {
                          await api(
                            `/agents/${encodeURIComponent(a.agentId)}/actions/${encodeURIComponent(a.id)}/reject`,
                            {
                              method: 'POST',
                              json: { reason: String(data.get('reason') || 'Rejected in the dashboard') },
                            },
                          );
                          await approvals.refresh();
                        }}
                      >
                        <Field label='Reason'>
                          <input name='reason' />
                        </Field>
                      </ActionForm>
                    )
                    : null}
                </div>
              ),
            },
          ]}
        />
      </section>
      <section aria-labelledby='agents'>
        <h2 id='agents'>Agents and their policies</h2>
        <ErrorLine error={agents.error} />
        <Table
          caption='Agents'
          rows={agents.data?.data}
          columns={[
            { label: 'Agent', cell: (a: any) => a.name },
            { label: 'Status', cell: (a: any) => (a.isPaused ? 'paused' : a.status ?? 'active') },
            {
              label: 'Customer',
              cell: (a: any) => <Link to={`/customers/${encodeURIComponent(a.customerId)}`}>{a.customerId}</Link>,
            },
            { label: 'Policy', cell: (a: any) => policySummary(a.policy) },
          ]}
        />
      </section>
    </>
  );
}
