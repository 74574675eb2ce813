/**
 * Where push groups may send requests (the node's `push.allowedEndpoints`):
 * host names, `*.` suffixes, addresses and CIDRs. Link-local and cloud
 * metadata addresses are refused unless the endpoint's host is listed as
 * it is. Judged when a push group is created or its endpoint changed, and
 * again for every address a connection resolves to (`lookup`), so a name
 * that later resolves elsewhere is still held to the list.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const SETTING = 'push.allowedEndpoints';

/** Link-local and metadata addresses: refused unless named. */
const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');
LINK_LOCAL.addAddress('fd00:ec2::254', 'ipv6');

function family(address: string): 'ipv4' | 'ipv6' {
  return isIP(address) === 6 ? 'ipv6' : 'ipv4';
}

/** A URL's hostname without IPv6 brackets, lower case. */
export function hostOf(url: URL): string {
  const h = url.hostname.toLowerCase();
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

function isLinkLocal(address: string): boolean {
  // An IPv4-mapped IPv6 address is judged as its IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const a = mapped?.[1] ?? address;
  return LINK_LOCAL.check(a, family(a));
}

export class EndpointPolicy {
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];
  /** Addresses listed one by one (they name a host "as it is"). */
  private readonly addresses = new Set<string>();
  private readonly ranges = new BlockList();
  private readonly empty: boolean;

  private constructor(entries: readonly string[]) {
    this.empty = entries.length === 0;
    for (const raw of entries) {
      const e = raw.toLowerCase();
      const slash = e.indexOf('/');
      if (slash >= 0) {
        const net = e.slice(0, slash);
        const bits = Number(e.slice(slash + 1));
        const v = isIP(net);
        if (v === 0 || !Number.isInteger(bits) || bits < 0 || bits > (v === 4 ? 32 : 128))
          throw new Error(`${SETTING}: "${raw}" is not a CIDR (10.0.0.0/8, fd00::/8)`);
        this.ranges.addSubnet(net, bits, v === 4 ? 'ipv4' : 'ipv6');
      } else if (isIP(e.replace(/^\[|\]$/g, '')) !== 0) {
        const a = e.replace(/^\[|\]$/g, '');
        this.addresses.add(a);
        this.ranges.addAddress(a, family(a));
      } else if (e.startsWith('*.') && e.length > 2 && !e.slice(2).includes('*')) {
        this.suffixes.push(e.slice(1));
      } else if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/.test(e)) {
        this.names.add(e.replace(/\.$/, ''));
      } else {
        throw new Error(`${SETTING}: "${raw}" is not a host name, *.suffix, address or CIDR`);
      }
    }
  }

  /** Parses the setting (comma-separated); throws naming the entry that is not one. */
  static parse(setting: string): EndpointPolicy {
    const entries = setting
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    return new EndpointPolicy(entries);
  }

  /** The host is listed as it is (a name or an address, not a suffix or a range). */
  private listedAsIs(host: string): boolean {
    return this.names.has(host) || this.addresses.has(host);
  }

  private nameListed(host: string): boolean {
    return this.names.has(host) || this.suffixes.some((s) => host.endsWith(s));
  }

  /**
   * Why a connection to `address` for the endpoint host `host` is refused,
   * or undefined when it is allowed.
   */
  refusal(host: string, address: string): string | undefined {
    if (isLinkLocal(address) && !this.listedAsIs(host))
      return `${address} is a link-local or metadata address: list "${host}" in ${SETTING} to allow it`;
    if (this.empty || this.nameListed(host) || this.ranges.check(address, family(address))) return undefined;
    return `${host === address ? address : `${host} (${address})`} is not within ${SETTING}`;
  }

  /**
   * Checks an endpoint for a push group being created or changed: its
   * literal address, or each address its name resolves to now. A name that
   * does not resolve is allowed only when the list names it (or is empty):
   * every connection is checked again. Returns why it is refused, or undefined.
   */
  async check(url: URL): Promise<string | undefined> {
    const host = hostOf(url);
    if (isIP(host) !== 0) return this.refusal(host, host);
    if (this.listedAsIs(host)) return undefined;
    let addresses: LookupAddress[];
    try {
      addresses = await new Promise((resolve, reject) =>
        dnsLookup(host, { all: true }, (err, a) => (err ? reject(err) : resolve(a))),
      );
    } catch (err) {
      if (this.empty || this.nameListed(host)) return undefined;
      return `${host} does not resolve (${(err as Error).message}) and is not named in ${SETTING}`;
    }
    for (const a of addresses) {
      const why = this.refusal(host, a.address);
      if (why) return why;
    }
    return undefined;
  }

  /**
   * A `lookup` for net.connect / tls.connect that refuses addresses outside
   * the policy, so a connection goes nowhere the list does not allow, whatever
   * the name resolves to when it opens.
   */
  lookup(): (
    hostname: string,
    options: { family?: number | string; all?: boolean },
    callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => void {
    return (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true } as { all: true }, (err, addresses) => {
        if (err) return callback(err, '');
        const host = hostname.toLowerCase();
        const allowed = addresses.filter((a) => this.refusal(host, a.address) === undefined);
        if (allowed.length === 0) {
          const why = addresses.length > 0 ? this.refusal(host, addresses[0]!.address) : 'no address';
          return callback(Object.assign(new Error(`push refused: ${why}`), { code: 'EPUSHREFUSED' }), '');
        }
        if (options.all) return callback(null, allowed);
        return callback(null, allowed[0]!.address, allowed[0]!.family);
      });
    };
  }
}
