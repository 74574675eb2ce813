import type { NodeId } from '../types.js';
import type { SmallFile } from './ports.js';

/** Where a member is reached: its Raft peer port and its client (broker API) port. */
export interface MemberAddresses {
  readonly peerAddress: string;
  readonly clientAddress: string;
}

/** The context of an add-learner conf change: the new member's addresses. */
export function encodeMemberContext(addresses: MemberAddresses): Uint8Array {
  return new TextEncoder().encode(
    JSON.stringify({ peerAddress: addresses.peerAddress, clientAddress: addresses.clientAddress }),
  );
}

export function decodeMemberContext(context: Uint8Array | undefined): MemberAddresses | undefined {
  if (!context || context.length === 0) return undefined;
  try {
    const parsed = JSON.parse(new TextDecoder().decode(context)) as Partial<MemberAddresses>;
    if (typeof parsed.peerAddress !== 'string' || typeof parsed.clientAddress !== 'string') return undefined;
    return { peerAddress: parsed.peerAddress, clientAddress: parsed.clientAddress };
  } catch {
    return undefined;
  }
}

/**
 * Every address this node has learned: the static bootstrap list, the
 * contexts of conf-change entries, and the book saved next to a snapshot. It
 * is kept in a small file (`<dataDir>/members.json`, replaced atomically) because the
 * conf-change entries that carried an address may be compacted away.
 * Membership itself is the core's (`status().conf`); this is only a phone book.
 */
export class AddressBook {
  private readonly book = new Map<NodeId, MemberAddresses>();
  /**
   * Members whose removal this node applied (and that were not added again),
   * with the term of the removing entry: their batches at that term or below
   * are refused (peer-admission.ts).
   */
  private readonly removed = new Map<NodeId, number>();

  /**
   * `removedBeforeTerms`: a term at or above that of every entry this node
   * applied, for a book saved before removals carried their term (ids only):
   * such a removal is taken to be of that term.
   */
  constructor(
    private readonly file: SmallFile,
    removedBeforeTerms = 0,
  ) {
    const bytes = file.read();
    if (bytes === undefined) return;
    const saved = JSON.parse(new TextDecoder().decode(bytes)) as {
      members: Record<string, MemberAddresses>;
      removed: NodeId[];
      removedAt?: Record<NodeId, number>;
    };
    for (const [id, a] of Object.entries(saved.members)) this.book.set(id, a);
    for (const id of saved.removed) this.removed.set(id, saved.removedAt?.[id] ?? removedBeforeTerms);
  }

  /** The term of the entry removing `id` this node applied, unless it applied a later addition of it. */
  removedAt(id: NodeId): number | undefined {
    return this.removed.get(id);
  }

  /** Records an applied removal (with its entry's term) or addition (undefined); true when something changed. */
  setRemoved(id: NodeId, term: number | undefined): boolean {
    if (this.removed.get(id) === term) return false;
    if (term === undefined) this.removed.delete(id);
    else this.removed.set(id, term);
    return true;
  }

  get(id: NodeId): MemberAddresses | undefined {
    return this.book.get(id);
  }

  /** True when something changed. */
  set(id: NodeId, addresses: MemberAddresses): boolean {
    const old = this.book.get(id);
    if (old && old.peerAddress === addresses.peerAddress && old.clientAddress === addresses.clientAddress)
      return false;
    this.book.set(id, addresses);
    return true;
  }

  entries(): Array<[NodeId, MemberAddresses]> {
    return [...this.book.entries()];
  }

  toJSON(): Record<NodeId, MemberAddresses> {
    return Object.fromEntries(this.book);
  }

  save(): Promise<void> {
    // `removed` keeps the ids alone, as an older version reads them.
    const body = {
      members: this.toJSON(),
      removed: [...this.removed.keys()],
      removedAt: Object.fromEntries(this.removed),
    };
    return this.file.write(new TextEncoder().encode(JSON.stringify(body)));
  }
}
