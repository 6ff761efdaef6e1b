import { accountOperations } from './account-contract';
import { apiTokenOperations } from './api-token-contract';
import { agentManagementOperations, agentOperationOperations } from './agent-contract';
import { API_VERSION } from './api-version';
import { customerOperations } from './customer-contract';
import { directoryOperations } from './directory-contract';
import { invitationOperations } from './invitation-contract';
import { kycOperations } from './kyc-contract';
import { umaProtocolOperations } from './uma-protocol-contract';
import type { Method, Operation } from './operation';
import { paymentOperations } from './payment-contract';
import { platformConfigOperations } from './platform-config-contract';
import { scaOperations } from './sca-contract';
import { documentOperation, systemOperations } from './system-contract';
import { walletAuthOperations } from './wallet-auth-contract';
import { webhookOperations } from './webhook-contract';
import { withdrawalFeeOperations } from './withdrawal-fee-contract';
import { stablecoinOperations } from './stablecoin-contract';
import { cardOperations, cardSandboxOperations } from './card-contract';
import { delegatedKeyOperations } from './delegated-key-contract';

/** Every operation the gateway serves, one entry each. */
export const OPERATIONS: readonly Operation[] = [
  ...systemOperations,
  documentOperation,
  ...platformConfigOperations,
  ...scaOperations,
  ...customerOperations,
  ...kycOperations,
  ...umaProtocolOperations,
  ...accountOperations,
  ...paymentOperations,
  ...walletAuthOperations,
  ...delegatedKeyOperations,
  ...webhookOperations,
  ...apiTokenOperations,
  ...invitationOperations,
  ...directoryOperations,
  ...withdrawalFeeOperations,
  ...stablecoinOperations,
  ...cardOperations,
  ...cardSandboxOperations,
  ...agentManagementOperations,
  ...agentOperationOperations,
];

/** The full URL paths one operation is served at (the document is served at two). */
export function servedPaths(op: Operation): string[] {
  if (op === documentOperation) return [op.path, `/${API_VERSION}${op.path}`];
  return [op.root ? op.path : `/${API_VERSION}${op.path}`];
}

interface Matcher {
  op: Operation;
  pattern: RegExp;
  literalSegments: number;
  segments: number;
}

const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

function matcherOf(op: Operation, path: string): Matcher {
  const segments = path.split('/').filter(Boolean);
  const source = segments.map((s) => (s.startsWith('{') ? '[^/]+' : escape(s))).join('/');
  return {
    op,
    pattern: new RegExp(`^/${source}/?$`, 'i'),
    literalSegments: segments.filter((s) => !s.startsWith('{')).length,
    segments: segments.length,
  };
}

const MATCHERS = OPERATIONS.flatMap((op) => servedPaths(op).map((path) => matcherOf(op, path)));

/** How many segments a path has (`/a/{b}/` has 2): a matcher can only match paths of its own count. */
const segmentCount = (path: string) => path.split('/').filter(Boolean).length;

/**
 * The matchers by method and segment count, in MATCHERS order: a request is tested against a handful, not every path.
 */
const MATCHERS_BY_SHAPE = new Map<string, Matcher[]>();
for (const matcher of MATCHERS) {
  const key = `${matcher.op.method} ${matcher.segments}`;
  MATCHERS_BY_SHAPE.set(key, [...(MATCHERS_BY_SHAPE.get(key) ?? []), matcher]);
}

/**
 * The operation a request reaches: fixed path segments win over parameters, as the routes are
 * ordered (`/customers/end-user-terms` before `/customers/{customerId}`).
 * HEAD is GET without a body (RFC 9110 §9.3.2): it reaches the GET operation of its path, and so is
 * authenticated, authorized and validated exactly as that GET; where no GET is served, it is not either.
 */
export function findOperation(method: string, urlPath: string): Operation | undefined {
  const m = (method.toLowerCase() === 'head' ? 'get' : method.toLowerCase()) as Method;
  let best: Matcher | undefined;
  for (const matcher of MATCHERS_BY_SHAPE.get(`${m} ${segmentCount(urlPath)}`) ?? []) {
    if (!matcher.pattern.test(urlPath)) continue;
    if (!best || matcher.literalSegments > best.literalSegments) best = matcher;
  }
  return best?.op;
}

/** The methods served at a path (for a 405's Allow header); HEAD wherever GET is. */
export function methodsServedAt(urlPath: string): string[] {
  const methods = new Set(
    MATCHERS.filter((matcher) => matcher.pattern.test(urlPath)).map((matcher) => matcher.op.method.toUpperCase()),
  );
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
