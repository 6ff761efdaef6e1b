/** The REST API, called with the session cookie; writes carry the session's CSRF token. */
export interface Session {
  tokenId: string;
  permissions: string[];
  operations: string[];
  csrfToken: string;
  expiresAt: string;
  sandbox: boolean;
  apiBase: string;
}

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

let session: Session | undefined;
export const currentSession = () => session;
export const setSession = (s: Session | undefined) => {
  session = s;
};
/** Whether the signed-in token may call this operation (the gateway's permission table decides; it refuses anyway). */
export const can = (operationId: string) => !!session?.operations.includes(operationId);

async function call<T>(url: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const method = init.method ?? (init.json === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && session) headers['x-csrf-token'] = session.csrfToken;
  const res = await fetch(url, {
    method,
    headers,
    credentials: 'same-origin',
    cache: 'no-store',
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  if (res.status === 204) return undefined as T;
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    if (res.status === 401 && session) onSignedOut();
    throw new ApiError(res.status, body.code ?? 'ERROR', body.message ?? res.statusText);
  }
  return body as T;
}

let onSignedOut = () => {};
export const whenSignedOut = (f: () => void) => {
  onSignedOut = f;
};

export const api = <T = any>(path: string, init: RequestInit & { json?: unknown } = {}) =>
  call<T>(`${session?.apiBase ?? ''}${path}`, init);

export async function signIn(tokenId: string, clientSecret: string): Promise<Session> {
  session = await call<Session>('/dashboard/session', { json: { tokenId, clientSecret } });
  return session;
}
export async function resume(): Promise<Session | undefined> {
  session = await call<Session>('/dashboard/session').catch(() => undefined);
  return session;
}
export async function signOut(): Promise<void> {
  await call('/dashboard/session', { method: 'DELETE' }).catch(() => undefined);
  session = undefined;
}

export const query = (params: Record<string, string | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
};
