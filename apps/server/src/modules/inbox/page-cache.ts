// List pages kept in memory and reused only while the database is provably unchanged.
//
// A page is stored with the PostgreSQL snapshot its statement ran under (`pg_current_snapshot()`:
// xmin, xmax and the transactions in progress). Two snapshots with the same text see exactly the same
// committed rows, so a request whose own snapshot (read by the session lookup, auth/tokens.ts) equals
// the stored one would get the same page from the database — whatever changed the data: this node,
// another node, a migration or a person in psql. Any commit anywhere moves the snapshot on, so a write
// is never hidden; a busy database simply misses more often. The one input that is not data is the
// clock: `is_blocked` compares a block's end with now(), so an entry also ends when the first block on
// its page does, and after MAX_AGE_MS in any case.
//
// Keys are the list kind, the caller's scope (spaces and accounts) and the parsed query, so two people
// share a page only when their queries and scopes are the same; the page holds nothing per person.
// Concurrent misses for one key and snapshot run the statement once.

const MAX_AGE_MS = 60_000;

interface Entry {
  snapshot: string;
  body: Buffer;
  expiresAt: number;
}

export interface StoredPage {
  body: Buffer;
  /** The snapshot the statement ran under; null when the page had no rows to carry it. */
  snapshot: string | null;
  /** Epoch ms of the earliest future end of a block shown on the page, if any. */
  changesAt: number | null;
}

export class ListPageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<StoredPage>>();
  private bytes = 0;
  hits = 0;
  misses = 0;
  /** Memory for stored pages (LIST_CACHE_MB); 0 stores nothing and runs every request's statement. */
  maxBytes: number;

  constructor(private readonly opts: { maxBytes: number; maxAgeMs?: number; now?: () => number }) {
    this.maxBytes = opts.maxBytes;
  }

  private now() {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  /** The page for `key` as of `snapshot`: a stored copy when still valid, else `load()` (stored). */
  async page(key: string, snapshot: string | undefined, load: () => Promise<StoredPage>): Promise<Buffer> {
    if (snapshot === undefined || this.maxBytes === 0) return (await load()).body;
    const hit = this.peek(key);
    if (hit && hit.snapshot === snapshot && hit.expiresAt > this.now()) {
      this.hits += 1;
      return hit.body;
    }
    this.misses += 1;
    const flight = `${snapshot}\n${key}`;
    let running = this.pending.get(flight);
    if (!running) {
      running = load().finally(() => this.pending.delete(flight));
      this.pending.set(flight, running);
      this.store(key, await running);
    }
    return (await running).body;
  }

  /** The stored entry for `key`, valid or not (for tests). */
  peek(key: string): Readonly<Entry> | undefined {
    return this.entries.get(key);
  }

  private store(key: string, page: StoredPage) {
    this.drop(key);
    if (page.snapshot === null) return;
    const maxAge = this.opts.maxAgeMs ?? MAX_AGE_MS;
    const expiresAt = Math.min(this.now() + maxAge, page.changesAt ?? Number.POSITIVE_INFINITY);
    this.entries.set(key, { snapshot: page.snapshot, body: page.body, expiresAt });
    this.bytes += page.body.length;
    // Oldest first (a Map iterates in insertion order; a re-stored key moves to the end).
    for (const [oldKey] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldKey);
    }
  }

  private drop(key: string) {
    const old = this.entries.get(key);
    if (!old) return;
    this.bytes -= old.body.length;
    this.entries.delete(key);
  }
}
