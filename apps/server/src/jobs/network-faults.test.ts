import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_KITS, type FaultKit, type Written } from '../../test/providers/fault-kits';
import { type Fault, FaultyNetwork } from '../../test/providers/faulty-network';
import { items, outbox } from '../db/schema';
import { BACKOFF_SECONDS, MAX_ATTEMPTS } from '../modules/outbox/queue';

// Issue 22, Faults: "a network answering 429 / 500 / timeouts / garbage → retried with backoff, then
// an account error". Each network's real connector talks over loopback to its emulator through the
// fault proxy (test/providers/faulty-network.ts), which answers the reply's call with the fault once;
// the outbox worker runs on a clock the test moves. Per network and fault: the reply is not marked sent,
// it is due again after the network's Retry-After (429) or the first backoff step (others), the retry
// delivers it exactly once and one message is stored. Then a network failing every try: after
// MAX_ATTEMPTS the reply shows failed with the reason and is listed in settings/errors (docs/product:
// temporary failures never make the account's own error; only refusals of the token do).

const FAULTS: Array<{ name: string; fault?: Fault }> = [
  { name: '429 with Retry-After' },
  { name: '500', fault: { kind: 'status', status: 500 } },
  { name: '502', fault: { kind: 'status', status: 502 } },
  { name: '503', fault: { kind: 'status', status: 503 } },
  { name: 'no answer (timeout)', fault: { kind: 'hang' } },
  { name: '200 not JSON', fault: { kind: 'garbage', body: '<html>upstream error</html>' } },
  { name: '200 JSON of the wrong shape', fault: { kind: 'garbage', body: '{"unexpected":[1,2,3]}' } },
];

const unique = () => Math.random().toString(36).slice(2, 10);

describe.each(FAULT_KITS)('$name', ({ start, answerUnchecked }) => {
  // A network whose answer to a reply is not documented has no garbage cases: nothing of that answer is
  // read, so a garbage 200 cannot be told from a delivery (fault-kit.ts `answerUnchecked`, README).
  const cases = answerUnchecked === undefined ? FAULTS : FAULTS.filter((f) => f.fault?.kind !== 'garbage');
  let proxy: FaultyNetwork;
  let kit: FaultKit;
  beforeAll(async () => {
    proxy = await FaultyNetwork.start();
    kit = await start(proxy);
  });
  afterAll(async () => {
    await kit?.bed.close();
    await proxy?.close();
  });

  const rowOf = async (w: Written) =>
    (
      await kit.bed
        .db()
        .select()
        .from(outbox)
        .where(w.kind === 'message' ? eq(outbox.messageId, w.id) : eq(outbox.itemId, w.id))
    )[0]!;

  /** Our answer's delivery, and how many rows of its conversation carry its text. */
  const answerOf = async (w: Written, text: string) => {
    if (w.kind === 'message') {
      const row = await kit.bed.messageRow(w.id);
      const same = (await kit.bed.messagesOf(row.chatId)).filter((m) => m.text === text);
      return { delivery: row.delivery, deliveryError: row.deliveryError, stored: same.length, row };
    }
    const [row] = await kit.bed.db().select().from(items).where(eq(items.id, w.id));
    const same = (await kit.bed.itemsOf(row!.objectId)).filter((i) => i.text === text);
    return { delivery: row!.delivery, deliveryError: row!.deliveryError, stored: same.length, row: row! };
  };

  it.each(cases)('a reply meeting $name is retried with backoff and delivered once', async ({ fault }) => {
    const text = `faults ${unique()}`;
    const written = await kit.write(text);
    const tooMany = fault === undefined;
    proxy.failNext(fault ?? kit.tooMany.fault, kit.send);
    await kit.bed.drain();
    expect(proxy.faulted(kit.send)).toBeGreaterThan(0);
    const waiting = await rowOf(written);
    expect(waiting).toMatchObject({ state: 'pending', lastError: expect.any(String) });
    // 429: as long as the network asks, not counted as an attempt; others: the first backoff step.
    const wait = tooMany ? kit.tooMany.seconds : BACKOFF_SECONDS[0];
    expect(waiting.runAt.getTime()).toBe(kit.bed.clock + wait * 1000);
    expect(waiting.attempts).toBe(tooMany ? 0 : 1);
    expect((await answerOf(written, text)).delivery).not.toBe('sent');
    expect(proxy.delivered(kit.send, text)).toBe(0);

    expect(await kit.bed.drain(wait * 1000 - 1_000)).toBe(0);
    await kit.bed.drain(1_000);
    expect(await rowOf(written)).toMatchObject({ state: 'done' });
    expect(await answerOf(written, text)).toMatchObject({ delivery: 'sent', deliveryError: null, stored: 1 });
    expect(proxy.delivered(kit.send, text)).toBe(1);
    proxy.clear();
  });

  it('a network failing every try: the reply shows failed after the last attempt, listed in settings/errors', async () => {
    const text = `faults ${unique()}`;
    const written = await kit.write(text);
    proxy.failNext({ kind: 'status', status: 503 }, kit.send, MAX_ATTEMPTS + 1);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await kit.bed.drain(attempt === 1 ? undefined : 3_600_000);
      expect((await rowOf(written)).attempts).toBe(attempt);
    }
    expect(await rowOf(written)).toMatchObject({ state: 'failed', lastError: expect.any(String) });
    expect(proxy.faulted(kit.send)).toBeGreaterThanOrEqual(MAX_ATTEMPTS);
    expect(await kit.bed.drain(3_600_000)).toBe(0);
    const answer = await answerOf(written, text);
    expect(answer).toMatchObject({ delivery: 'failed', deliveryError: expect.any(String), stored: 1 });
    expect(proxy.delivered(kit.send, text)).toBe(0);
    const listed = await kit.bed.inject('GET', '/v1/errors/actions');
    expect(listed.statusCode, listed.body).toBe(200);
    const row = await rowOf(written);
    expect((listed.json().items as Array<{ id: number }>).map((f) => f.id)).toContain(row.id);
    proxy.clear();
  });
});
