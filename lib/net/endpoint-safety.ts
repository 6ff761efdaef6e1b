import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { isTrustedEndpoint } from './trusted-webhook-endpoints';

/**
 * Where a platform's webhook endpoint may not point outside the sandbox: this machine, private
 * networks, link-local addresses (169.254.169.254 and the other cloud metadata services among
 * them), and addresses that are not routable on the internet at all.
 */
const FORBIDDEN = new BlockList();
for (
  const [net, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const
) FORBIDDEN.addSubnet(net, prefix, 'ipv4');
for (
  const [net, prefix] of [
    ['::', 128],
    ['::1', 128],
    ['64:ff9b::', 96],
    ['100::', 64],
    ['2001:db8::', 32],
    ['fc00::', 7],
    ['fe80::', 10],
    ['fec0::', 10],
    ['ff00::', 8],
  ] as const
) FORBIDDEN.addSubnet(net, prefix, 'ipv6');

const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** Why this address may not receive webhooks outside the sandbox, or undefined when it may. */
export function forbiddenAddress(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = MAPPED_IPV4.exec(bare)?.[1];
  const family = isIP(mapped ?? bare);
  if (family === 0) return 'is not an IP address';
  const blocked = FORBIDDEN.check(mapped ?? bare, family === 4 ? 'ipv4' : 'ipv6');
  return blocked ? `${bare} is a loopback, private, link-local or reserved address` : undefined;
}

export interface EndpointRules {
  /** The sandbox: http and receivers on this machine or a private network are allowed. */
  allowLocal: boolean;
  /** Production: a host name that does not resolve at configuration time is refused. */
  requireResolvable?: boolean;
  /** Operator-approved https origins (WEBHOOK_TRUSTED_ENDPOINTS): allowed wherever they are. */
  trusted?: readonly string[];
}

/** What is wrong with the URL itself (scheme, literal address, localhost), without resolving it. */
export function endpointUrlProblem(value: string, rules: EndpointRules): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a valid URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must use https';
  if (rules.allowLocal) return undefined;
  if (url.protocol !== 'https:') return 'must use https';
  if (isTrustedEndpoint(value, rules.trusted)) return undefined;
  if (url.username || url.password) return 'must not carry credentials';
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not point at this machine';
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) {
    const reason = forbiddenAddress(host);
    if (reason) return `must not point at ${reason.replace(/ is a /, ', a ')}`;
  }
  return undefined;
}

type LookupAll = (
  hostname: string,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemLookupAll: LookupAll = (hostname, callback) => dnsLookup(hostname, { all: true }, callback);

/** The error of a connection refused because its host resolved to a forbidden address. */
export const FORBIDDEN_ADDRESS_CODE = 'EFORBIDDENADDRESS';

/**
 * A `lookup` for sockets (http.request, net.connect) that resolves every address of the host and
 * refuses the connection when any of them is forbidden. The socket connects to what this lookup
 * returned, so a name that resolves elsewhere a moment later (DNS rebinding) cannot slip through.
 */
export function guardedLookup(resolveAll: LookupAll = systemLookupAll): LookupFunction {
  return (hostname, options, callback) => {
    resolveAll(hostname, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const wanted = options.family === 4 || options.family === 6
        ? addresses.filter((a) => a.family === options.family)
        : addresses;
      const bad = addresses.map((a) => forbiddenAddress(a.address)).find(Boolean);
      if (bad || wanted.length === 0) {
        const refused = Object.assign(new Error(`${hostname}: ${bad ?? 'no address'}`), {
          code: bad ? FORBIDDEN_ADDRESS_CODE : 'ENOTFOUND',
        });
        return callback(refused, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, wanted);
      callback(null, wanted[0].address, wanted[0].family);
    });
  };
}

const resolved = (resolveAll: LookupAll, host: string) =>
  new Promise<LookupAddress[]>((resolve) => resolveAll(host, (err, found) => resolve(err ? [] : found)));

/**
 * At configuration time: what is wrong with the endpoint, resolving its host as a connection would.
 * A name written with a trailing dot (`vm.`) is resolved in both forms, since resolvers differ on
 * whether a hosts-file name matches its absolute form: either form reaching a forbidden address is
 * refused. A name that resolves to nothing is refused where `requireResolvable` (production), and
 * otherwise accepted (every connection resolves it again and refuses what is forbidden).
 */
export async function endpointProblem(
  value: string,
  rules: EndpointRules,
  resolveAll: LookupAll = systemLookupAll,
): Promise<string | undefined> {
  const problem = endpointUrlProblem(value, rules);
  if (problem || rules.allowLocal || isTrustedEndpoint(value, rules.trusted)) return problem;
  const host = new URL(value).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return undefined;
  const forms = [...new Set([host, host.replace(/\.+$/, '')])].filter(Boolean);
  const addresses = (await Promise.all(forms.map((form) => resolved(resolveAll, form)))).flat();
  const bad = addresses.map((a) => forbiddenAddress(a.address)).find(Boolean);
  if (bad) return `must not resolve to ${bad.replace(/ is a /, ', a ')}`;
  if (addresses.length === 0 && rules.requireResolvable) return `must name a host that resolves: ${host} does not`;
  return undefined;
}

export type { LookupAll };
