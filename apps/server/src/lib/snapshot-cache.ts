// Answers kept in memory and reused only while the database is provably unchanged.
//
// An answer is stored with a PostgreSQL snapshot (`pg_current_snapshot()`: xmin, xmax and the
// transactions in progress) no newer than the data it was built from. Two snapshots with the same text
// see exactly the same committed rows, so a request whose own snapshot (read by the session lookup,
// auth/tokens.ts) equals the stored one would get the same answer from the database — whatever changed
// the data: this node, another node, a migration or a person in psql. Any commit anywhere moves the
// snapshot on, so a write is never hidden; a busy database simply misses more often. The one input that
// is not data is the clock: an entry ends at the `changesAt` its loader gives (inbox lists: when the
// first block on the page ends) and after `maxAgeMs` in any case.
//
// Users: inbox list pages (modules/inbox/read/queries.ts; keys are the list kind, the caller's scope and the
// parsed query, so people with the same scope share a page) and statistics answers
// (modules/stats/routes.ts; keys hold the caller, so nobody reads another's figures).
// Concurrent misses for one key and snapshot run the loader once.

const MAX_AGE_MS = 60_000;

interface Entry {
  snapshot: string;
  body: Buffer;
  expiresAt: number;
}

export interface StoredAnswer {
  body: Buffer;
  /** The snapshot the answer was read under (or an older one); null stores nothing. */
  snapshot: string | null;
  /** Epoch ms when the answer may change with the clock alone (a block shown on a page ends), if any. */
  changesAt: number | null;
}

export class SnapshotCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<StoredAnswer>>();
  private bytes = 0;
  hits = 0;
  misses = 0;
  /** Memory for stored answers (LIST_CACHE_MB, STATS_CACHE_MB); 0 stores nothing: every request loads. */
  maxBytes: number;

  constructor(private readonly opts: { maxBytes: number; maxAgeMs?: number; now?: () => number }) {
    this.maxBytes = opts.maxBytes;
  }

  private now() {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  /** The answer for `key` as of `snapshot`: a stored copy when still valid, else `load()` (stored). */
  async answer(
    key: string,
    snapshot: string | undefined,
    load: () => Promise<StoredAnswer>,
  ): Promise<Buffer> {
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

  private store(key: string, answer: StoredAnswer) {
    this.drop(key);
    if (answer.snapshot === null) return;
    const maxAge = this.opts.maxAgeMs ?? MAX_AGE_MS;
    const expiresAt = Math.min(this.now() + maxAge, answer.changesAt ?? Number.POSITIVE_INFINITY);
    this.entries.set(key, { snapshot: answer.snapshot, body: answer.body, expiresAt });
    this.bytes += answer.body.length;
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
