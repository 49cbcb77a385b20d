/**
 * Coalesces writes that many concurrent tasks make one at a time (group commit): `add()` waits for its
 * item to be written, and the items added while one batch is being written go together in the next,
 * one statement for all of them (after `lingerMs`, when given, so that a batch gathers even while the
 * database keeps up). Without a linger and with one task it writes item by item; the more tasks wait on
 * the database, the fewer round trips. `write` gets the batch and returns one result per item, in
 * order; when it throws, every item of that batch gets the error.
 */
export class WriteBatcher<Item, Result = void> {
  private waiting: Array<{ item: Item; resolve: (r: Result) => void; reject: (e: unknown) => void }> = [];
  private writing = false;

  constructor(
    private readonly write: (items: Item[]) => Promise<Result[] | undefined>,
    /** How long the first item of a batch waits for others when no write is under way (0: not at all). */
    private readonly lingerMs = 0,
  ) {}

  add(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain() {
    this.writing = true;
    if (this.lingerMs > 0) await new Promise((resolve) => setTimeout(resolve, this.lingerMs));
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        const results = await this.write(batch.map((w) => w.item));
        for (const [i, w] of batch.entries()) w.resolve(results?.[i] as Result);
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    this.writing = false;
  }
}
