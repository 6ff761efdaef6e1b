import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import './style.css';
import { ApiError, currentSession, resume, signIn, signOut, whenSignedOut, type Session } from './api';
import { Field, Link } from './ui';
import { Agents } from './pages/agents';
import { CardPage, Cards } from './pages/cards';
import { Accounts, CustomerPage, Customers } from './pages/customers';
import { Overview } from './pages/overview';
import { QuotePage, Quotes } from './pages/quotes';
import { Sandbox } from './pages/sandbox';
import { Tokens } from './pages/tokens';
import { TransactionPage, Transactions } from './pages/transactions';
import { WebhookPage, Webhooks } from './pages/webhooks';

const NAV = [
  ['/', 'Overview'],
  ['/customers', 'Customers'],
  ['/accounts', 'Accounts'],
  ['/transactions', 'Transactions'],
  ['/quotes', 'Quotes'],
  ['/webhooks', 'Webhooks'],
  ['/tokens', 'API tokens'],
  ['/agents', 'Agents'],
  ['/cards', 'Cards'],
] as const;

function page(path: string) {
  const [, section, id] = path.split('/');
  const param = id ? decodeURIComponent(id) : undefined;
  switch (section) {
    case '':
      return <Overview />;
    case 'customers':
      return param ? <CustomerPage id={param} /> : <Customers />;
    case 'accounts':
      return <Accounts />;
    case 'transactions':
      return param ? <TransactionPage id={param} /> : <Transactions />;
    case 'quotes':
      return param ? <QuotePage id={param} /> : <Quotes />;
    case 'webhooks':
      return param ? <WebhookPage id={param} /> : <Webhooks />;
    case 'tokens':
      return <Tokens />;
    case 'agents':
      return <Agents />;
    case 'cards':
      return param ? <CardPage id={param} /> : <Cards />;
    case 'sandbox':
      return <Sandbox />;
    default:
      return (
        <>
          <h1>Not found</h1>
          <p>No page here.</p>
        </>
      );
  }
}

const pathNow = () => location.pathname.replace(/^\/dashboard/, '') || '/';

function SignIn(props: { onSignedIn: (s: Session) => void }) {
  const [error, setError] = useState<string>();
  return (
    <main id='main' class='signin'>
      <h1>Sign in to the dashboard</h1>
      <p>Use an API token: its id and secret. The secret is checked by the gateway and never kept in this browser.</p>
      <form
        aria-label='Sign in'
        onSubmit={async (e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget as HTMLFormElement);
          try {
            props.onSignedIn(await signIn(String(data.get('tokenId')), String(data.get('clientSecret'))));
          } catch (err) {
            setError(err instanceof ApiError ? err.message : String(err));
          }
        }}
      >
        <Field label='API token id'>
          <input name='tokenId' autocomplete='username' required />
        </Field>
        <Field label='Secret'>
          <input name='clientSecret' type='password' autocomplete='current-password' required />
        </Field>
        <button type='submit'>Sign in</button>
        {error ? <p role='alert' class='error'>{error}</p> : null}
      </form>
    </main>
  );
}

function App() {
  const [session, setSession] = useState<Session | undefined>();
  const [checked, setChecked] = useState(false);
  const [path, setPath] = useState(pathNow());
  useEffect(() => {
    void resume().then((s) => {
      setSession(s);
      setChecked(true);
    });
    whenSignedOut(() => setSession(undefined));
    const onPop = () => setPath(pathNow());
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  useEffect(() => {
    document.title = `${NAV.find(([p]) => p === path)?.[1] ?? 'grid-payments'} · dashboard`;
  }, [path]);
  if (!checked) {
    return (
      <main id='main'>
        <p>Loading…</p>
      </main>
    );
  }
  if (!session) return <SignIn onSignedIn={setSession} />;
  const nav = currentSession()?.sandbox ? [...NAV, ['/sandbox', 'Sandbox'] as const] : NAV;
  return (
    <>
      <a class='skip' href='#main'>Skip to content</a>
      <header>
        <span class='brand'>grid-payments</span>
        <nav aria-label='Dashboard'>
          <ul>
            {nav.map(([to, label]) => (
              <li>
                <Link to={to} class={path === to || (to !== '/' && path.startsWith(`${to}/`)) ? 'current' : ''}>
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <span class='who'>{session.tokenId} ({session.permissions.join(', ')})</span>
        <button
          type='button'
          onClick={async () => {
            await signOut();
            setSession(undefined);
          }}
        >
          Sign out
        </button>
      </header>
      <main id='main' tabIndex={-1}>{page(path)}</main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
