import { useState } from 'preact/hooks';
import { api, can, currentSession } from '../api';
import { ActionForm, ErrorLine, Field, Table, usePoll, when } from '../ui';

/** API tokens: create (the secret shown once, never stored by the page), list, revoke. */
export function Tokens() {
  const list = usePoll(() => (can('listTokens') ? api('/tokens?limit=100') : Promise.resolve({ data: [] })), [], 2000);
  const [created, setCreated] = useState<{ clientId: string; clientSecret: string }>();
  if (!can('listTokens')) {
    return (
      <>
        <h1>API tokens</h1>
        <p>This token may not manage API tokens (MANAGE is needed).</p>
      </>
    );
  }
  return (
    <>
      <h1>API tokens</h1>
      {can('createToken')
        ? (
          <ActionForm
            label='Create an API token'
            submit='Create token'
            action={async (data) => {
              const permissions = ['VIEW', 'TRANSACT', 'MANAGE'].filter((p) => data.get(p) === 'on');
              const t = await api('/tokens', { method: 'POST', json: { name: String(data.get('name')), permissions } });
              setCreated({ clientId: t.clientId, clientSecret: t.clientSecret });
              await list.refresh();
              return `Token ${t.name} created.`;
            }}
          >
            <Field label='Name'>
              <input name='name' required maxLength={255} />
            </Field>
            <fieldset>
              <legend>Permissions</legend>
              {['VIEW', 'TRANSACT', 'MANAGE'].map((p) => (
                <label class='check'>
                  <input type='checkbox' name={p} defaultChecked={p === 'VIEW'} /> {p}
                </label>
              ))}
            </fieldset>
          </ActionForm>
        )
        : null}
      {created
        ? (
          <div class='secret' role='status'>
            <p>Copy the secret now: it is shown this once and never again.</p>
            <dl class='facts'>
              <dt>Token id</dt>
              <dd class='mono' data-testid='new-token-id'>{created.clientId}</dd>
              <dt>Secret</dt>
              <dd class='mono' data-testid='new-token-secret'>{created.clientSecret}</dd>
            </dl>
            <button type='button' onClick={() => setCreated(undefined)}>I have copied it</button>
          </div>
        )
        : null}
      <ErrorLine error={list.error} />
      <Table
        caption='API tokens'
        rows={list.data?.data}
        columns={[
          { label: 'Name', cell: (t: any) => t.name },
          { label: 'Token id', cell: (t: any) => <span class='mono'>{t.clientId}</span> },
          { label: 'Permissions', cell: (t: any) => t.permissions.join(', ') },
          { label: 'Created', cell: (t: any) => when(t.createdAt) },
          {
            label: 'Revoke',
            cell: (t: any) => (can('deleteTokenById') && t.clientId !== currentSession()?.tokenId
              ? (
                <ActionForm
                  label={`Revoke ${t.name}`}
                  submit={`Revoke ${t.name}`}
                  action={async () => {
                    await api(`/tokens/${encodeURIComponent(t.id)}`, { method: 'DELETE' });
                    await list.refresh();
                  }}
                />
              )
              : ''),
          },
        ]}
      />
    </>
  );
}
