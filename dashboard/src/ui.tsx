import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';

/** Where the app is, and how to go elsewhere without a reload. */
export function navigate(path: string) {
  history.pushState(null, '', `/dashboard${path}`);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function Link(props: { to: string; children: ComponentChildren; class?: string }) {
  return (
    <a
      href={`/dashboard${props.to}`}
      class={props.class}
      onClick={(e) => {
        if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        navigate(props.to);
      }}
    >
      {props.children}
    </a>
  );
}

/** Loads, then reloads every `everyMs` (live updates) while the page is shown. */
export function usePoll<T>(load: () => Promise<T>, deps: unknown[], everyMs = 1000) {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const loadRef = useRef(load);
  loadRef.current = load;
  const refresh = useCallback(() =>
    loadRef.current().then((d) => {
      setData(d);
      setError(undefined);
    }, (e: unknown) => setError(e instanceof ApiError ? `${e.code}: ${e.message}` : String(e))), []);
  useEffect(() => {
    setData(undefined);
    void refresh();
    if (!everyMs) return undefined;
    const timer = setInterval(() => void refresh(), everyMs);
    return () => clearInterval(timer);
  }, deps);
  return { data, error, refresh };
}

export function ErrorLine(props: { error?: string }) {
  return props.error ? <p role='alert' class='error'>{props.error}</p> : null;
}

/** Minor units shown in major units with the currency's decimals (2 unless told). */
export function money(amount: number | undefined, currency?: { code?: string; decimals?: number } | string) {
  if (amount === undefined || amount === null) return '';
  const code = typeof currency === 'string' ? currency : currency?.code ?? '';
  const decimals = typeof currency === 'object' && currency?.decimals !== undefined ? currency.decimals : 2;
  return `${(amount / 10 ** decimals).toFixed(decimals)} ${code}`.trim();
}

export const when = (iso?: string) => (iso ? new Date(iso).toLocaleString() : '');

export interface Column<T> {
  label: string;
  cell: (row: T) => ComponentChildren;
}

export function Table<T>(props: { caption: string; columns: Column<T>[]; rows?: T[]; empty?: string }) {
  if (!props.rows) return <p aria-live='polite'>Loading {props.caption.toLowerCase()}…</p>;
  if (props.rows.length === 0) return <p>{props.empty ?? `No ${props.caption.toLowerCase()}.`}</p>;
  return (
    <div class='table-wrap' tabIndex={0} role='region' aria-label={props.caption}>
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>{props.columns.map((c) => <th scope='col'>{c.label}</th>)}</tr>
        </thead>
        <tbody>
          {props.rows.map((r) => <tr>{props.columns.map((c) => <td data-label={c.label}>{c.cell(r)}</td>)}</tr>)}
        </tbody>
      </table>
    </div>
  );
}

/** A read-only JSON view: text, never markup, so whatever it holds is shown escaped. */
export function Json(props: { value: unknown; label: string }) {
  return <pre class='json' aria-label={props.label} tabIndex={0}>{JSON.stringify(props.value, null, 2)}</pre>;
}

export function Field(props: { label: string; children: ComponentChildren }) {
  return (
    <label class='field'>
      <span>{props.label}</span>
      {props.children}
    </label>
  );
}

/** A form whose submit calls `action`, showing its error or its outcome. */
export function ActionForm(
  props: {
    label: string;
    submit: string;
    action: (data: FormData) => Promise<string | void>;
    children?: ComponentChildren;
  },
) {
  const [state, setState] = useState<{ busy?: boolean; error?: string; done?: string }>({});
  return (
    <form
      aria-label={props.label}
      class='action'
      onSubmit={async (e) => {
        e.preventDefault();
        const form = e.currentTarget as HTMLFormElement;
        setState({ busy: true });
        try {
          setState({ done: (await props.action(new FormData(form))) ?? 'Done.' });
        } catch (err) {
          setState({ error: err instanceof ApiError ? `${err.code}: ${err.message}` : String(err) });
        }
      }}
    >
      {props.children}
      <button type='submit' disabled={state.busy}>{props.submit}</button>
      {state.error ? <p role='alert' class='error'>{state.error}</p> : null}
      {state.done ? <p role='status'>{state.done}</p> : null}
    </form>
  );
}

/** Cursor paging over a list endpoint: `Next page` follows nextCursor, `First page` goes back. */
export function usePaged<T>(
  path: (cursor?: string) => Promise<{ data: T[]; hasMore: boolean; nextCursor?: string }>,
  deps: unknown[],
) {
  const [cursors, setCursors] = useState<string[]>([]);
  useEffect(() => setCursors([]), deps);
  const cursor = cursors[cursors.length - 1];
  const page = usePoll(() => path(cursor), [...deps, cursor]);
  const pager = (
    <nav aria-label='Pages' class='pager'>
      <button type='button' disabled={!cursors.length} onClick={() => setCursors([])}>First page</button>
      <button
        type='button'
        disabled={!page.data?.hasMore}
        onClick={() => page.data?.nextCursor && setCursors([...cursors, page.data.nextCursor])}
      >
        Next page
      </button>
    </nav>
  );
  return { ...page, pager };
}
