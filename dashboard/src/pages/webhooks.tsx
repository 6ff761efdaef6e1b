import { useState } from 'preact/hooks';
import { api, can, query } from '../api';
import { ActionForm, ErrorLine, Field, Json, Link, Table, usePaged, usePoll, when } from '../ui';

/** The delivery log, the endpoint setting and the test webhook. */
export function Webhooks() {
  const [status, setStatus] = useState('');
  const list = usePaged((cursor) => api(`/webhooks/deliveries${query({ status, limit: '20', cursor })}`), [status]);
  const config = usePoll(() => api('/config'), [], 0);
  return (
    <>
      <h1>Webhooks</h1>
      <section aria-labelledby='endpoint'>
        <h2 id='endpoint'>Endpoint</h2>
        <ErrorLine error={config.error} />
        <p>
          Deliveries go to{' '}
          <span class='mono' data-testid='webhook-endpoint'>{config.data?.webhookEndpoint ?? 'no endpoint set'}</span>.
        </p>
        {can('updatePlatformConfig')
          ? (
            <ActionForm
              label='Set the webhook endpoint'
              submit='Save endpoint'
              action={async (data) => {
                await api('/config', {
                  method: 'PATCH',
                  json: { webhookEndpoint: String(data.get('webhookEndpoint')) },
                });
                await config.refresh();
                return 'Endpoint saved.';
              }}
            >
              <Field label='Webhook endpoint URL'>
                <input name='webhookEndpoint' type='url' required />
              </Field>
            </ActionForm>
          )
          : null}
        {can('sendTestWebhook')
          ? (
            <ActionForm
              label='Send a test webhook'
              submit='Send test webhook'
              action={async () => {
                const r = await api('/webhooks/test', { method: 'POST', json: {} });
                return `The endpoint answered ${r.response_status}${
                  r.duration_ms !== undefined ? ` in ${r.duration_ms} ms` : ''
                }.`;
              }}
            />
          )
          : null}
      </section>
      <section aria-labelledby='log'>
        <h2 id='log'>Deliveries</h2>
        <Field label='Status'>
          <select value={status} onChange={(e) => setStatus((e.currentTarget as HTMLSelectElement).value)}>
            {['', 'PENDING', 'DELIVERING', 'DELIVERED', 'FAILED', 'SKIPPED'].map((s) => (
              <option value={s}>{s || 'Any'}</option>
            ))}
          </select>
        </Field>
        <ErrorLine error={list.error} />
        <Table
          caption='Webhook deliveries'
          rows={list.data?.data}
          columns={[
            { label: 'Delivery', cell: (d: any) => <Link to={`/webhooks/${encodeURIComponent(d.id)}`}>{d.id}</Link> },
            { label: 'Event', cell: (d: any) => d.type },
            { label: 'Status', cell: (d: any) => d.status },
            { label: 'Attempts', cell: (d: any) => `${d.attemptCount}/${d.maxAttempts}` },
            {
              label: 'Last answer',
              cell: (d: any) =>
                d.attempts[d.attempts.length - 1]?.statusCode ?? d.attempts[d.attempts.length - 1]?.outcome ?? '',
            },
            { label: 'Created', cell: (d: any) => when(d.createdAt) },
          ]}
        />
        {list.pager}
      </section>
    </>
  );
}

const ENDED = ['DELIVERED', 'FAILED', 'SKIPPED'];

/** One delivery: each attempt's time, status code, outcome and duration, the data it sends, and resend. */
export function WebhookPage(props: { id: string }) {
  const d = usePoll(() => api(`/webhooks/deliveries/${encodeURIComponent(props.id)}`), [props.id]);
  return (
    <>
      <h1>
        Webhook delivery <span class='mono'>{props.id}</span>
      </h1>
      <ErrorLine error={d.error} />
      {d.data
        ? (
          <>
            <dl class='facts'>
              <dt>Event</dt>
              <dd>{d.data.type}</dd>
              <dt>Status</dt>
              <dd>{d.data.status}</dd>
              <dt>Next attempt</dt>
              <dd>{when(d.data.nextAttemptAt)}</dd>
              <dt>Delivered</dt>
              <dd>{when(d.data.deliveredAt)}</dd>
            </dl>
            <Table
              caption='Attempts'
              rows={d.data.attempts}
              columns={[
                { label: 'Attempt', cell: (a: any) => a.attempt },
                { label: 'Time', cell: (a: any) => when(a.attemptedAt) },
                { label: 'Status code', cell: (a: any) => a.statusCode ?? '' },
                { label: 'Outcome', cell: (a: any) => a.outcome },
                { label: 'Duration', cell: (a: any) => `${a.durationMs} ms` },
                { label: 'Error', cell: (a: any) => a.error ?? '' },
              ]}
            />
            {can('resendWebhookDelivery') && ENDED.includes(d.data.status)
              ? (
                <ActionForm
                  label='Resend this webhook'
                  submit='Resend'
                  action={async () => {
                    await api(`/webhooks/deliveries/${encodeURIComponent(props.id)}/resend`, {
                      method: 'POST',
                      json: {},
                    });
                    await d.refresh();
                    return 'Resent: a new attempt follows.';
                  }}
                />
              )
              : null}
            <h2>Payload</h2>
            <Json label='Payload (data)' value={d.data.data} />
          </>
        )
        : null}
    </>
  );
}
