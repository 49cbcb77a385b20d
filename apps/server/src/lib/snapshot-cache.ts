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
// Statistics may also ask for a freshness window (`freshForMs`): an entry younger than that is handed out
// even when the snapshot moved — figures at most that old, never another caller's — and a `reload`
// (the person pressed Refresh) always loads and stores anew. Served answers say when they were read.
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
  /** Epoch ms when the loader that produced `body` started: the answer is no older than this. */
  readAt: number;
}

/** An answer as served: its bytes and when they were read from the database (epoch ms). */
export interface Served {
  body: Buffer;
  readAt: number;
}

export interface ServeOptions {
  /** A stored answer younger than this (ms) is served even under another snapshot; 0 = never. */
  freshForMs?: number;
  /** Load and store anew whatever is stored (an explicit refresh). */
  reload?: boolean;
}

export interface StoredAnswer {
  body: Buffer;
  /** The snapshot the answer was read under (or an older one); null stores nothing. */
  snapshot: string | null;
  /** Epoch ms when the answer may change with the clock alone (a block shown on a page ends), if any. */
  changesAt: number | null;
}

/** A load in progress, shared by identical requests under one snapshot. */
interface Flight {
  run: Promise<StoredAnswer>;
  startedAt: number;
}

export class SnapshotCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Flight>();
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
    return (await this.serve(key, snapshot, load)).body;
  }

  /**
   * The same, with the time the served bytes were read; `options` widen (freshness window) or bypass
   * (reload) what counts as valid.
   */
  async serve(
    key: string,
    snapshot: string | undefined,
    load: () => Promise<StoredAnswer>,
    options: ServeOptions = {},
  ): Promise<Served> {
    const startedAt = this.now();
    if (snapshot === undefined || this.maxBytes === 0)
      return { body: (await load()).body, readAt: startedAt };
    const hit = options.reload ? undefined : this.peek(key);
    if (
      hit &&
      hit.expiresAt > startedAt &&
      (hit.snapshot === snapshot || startedAt - hit.readAt < (options.freshForMs ?? 0))
    ) {
      this.hits += 1;
      return { body: hit.body, readAt: hit.readAt };
    }
    this.misses += 1;
    const flight = `${snapshot}\n${key}`;
    let running = options.reload ? undefined : this.pending.get(flight);
    if (!running) {
      const started: Flight = { run: load(), startedAt };
      running = started;
      started.run = started.run.finally(() => {
        if (this.pending.get(flight) === started) this.pending.delete(flight);
      });
      this.pending.set(flight, started);
      this.store(key, await started.run, startedAt);
    }
    return { body: (await running.run).body, readAt: running.startedAt };
  }

  /** The stored entry for `key`, valid or not (for tests). */
  peek(key: string): Readonly<Entry> | undefined {
    return this.entries.get(key);
  }

  private store(key: string, answer: StoredAnswer, readAt: number) {
    this.drop(key);
    if (answer.snapshot === null) return;
    const maxAge = this.opts.maxAgeMs ?? MAX_AGE_MS;
    const expiresAt = Math.min(this.now() + maxAge, answer.changesAt ?? Number.POSITIVE_INFINITY);
    this.entries.set(key, { snapshot: answer.snapshot, body: answer.body, expiresAt, readAt });
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
