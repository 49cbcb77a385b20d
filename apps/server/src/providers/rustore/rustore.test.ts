import { describe, expect, it } from 'vitest';
import { RuStoreEmulator } from '../../../emulators/rustore/emulator';
import { storeTestbed, until } from '../../../test/store-testbed';

// RuStore against its emulator over real HTTP (issue 20, PROVIDERS.md §6d): connecting with a Public API
// key (signed auth), comments by interval polling with a cursor, edits updating the item, replies (500
// characters) through the outbox with 429 and token expiry, and a revoked key as the account's error.

let emu: RuStoreEmulator;
const w = storeTestbed(
  'rustore',
  () => RuStoreEmulator.start(),
  (started) => {
    emu = started;
  },
);

let seq = 0;
function newApp() {
  seq += 1;
  const packageName = `ru.example.app${seq}`;
  return { packageName, ...emu.addKey([packageName]) };
}
const credentialsOf = (app: ReturnType<typeof newApp>) => ({
  package_name: app.packageName,
  key_id: app.keyId,
  private_key: app.privateKey,
});

describe('connecting', () => {
  it('refuses a broken key, a wrong key, an app without access; stores nothing', async () => {
    const app = newApp();
    const other = newApp();
    await w.expectRefused([
      [{ ...credentialsOf(app), private_key: 'not a key' }, /BEGIN/],
      [{ ...credentialsOf(app), private_key: other.privateKey }, /Неверная подпись/],
      [{ ...credentialsOf(app), package_name: other.packageName }, /Нет доступа к приложению/],
    ]);
  });

  it('signs keyId + timestamp, sends the token as Public-Token, imports the comments', async () => {
    const app = newApp();
    const first = emu.comment(app.packageName, { text: 'Норм', rating: 4 });
    const row = await w.connectOk(credentialsOf(app));
    expect(row).toMatchObject({ provider: 'rustore', externalId: app.packageName, updatesMode: 'polling' });
    const auth = emu.calls.filter((c) => c.path === '/public/auth/').at(-1)!;
    expect(auth.body).toMatchObject({ keyId: app.keyId, signature: expect.any(String) });
    const list = emu.calls.filter((c) => c.path.endsWith('/comment')).at(-1)!;
    expect(list.token).toMatch(/^jwe\./);
    const stored = await w.itemsOf(row.id);
    expect(stored.map((i) => [i.externalId, i.kind, i.text, i.rating])).toEqual([
      [String(first.commentId), 'review', 'Норм', 4],
    ]);
  });
});

describe('polling, edits, replies', () => {
  it('polls on its interval with a cursor, survives a restart, updates an edited review, replies after a 429 and a token expiry', async () => {
    const app = newApp();
    const row = await w.connectAlone(credentialsOf(app));
    await w.expectPollInterval('rs-node-1', 300); // RUSTORE_POLL_S

    const comment = emu.comment(app.packageName, { text: 'Вылетает', rating: 1 });
    await w.roundThrough429(20, (s) => emu.rateLimitNext(s));
    const id = String(comment.commentId);
    const item = await until(() => w.item(row.id, id));
    expect(item).toMatchObject({ text: 'Вылетает', rating: 1 });
    // The round stores the item, then writes its cursor: wait for the cursor (it is the review's time).
    await w.untilCursor(row.id, Date.parse(comment.updatedAt));

    await w.restartPolling('rs-node-2');
    expect(await w.copiesOf(row.id, id)).toHaveLength(1);

    emu.comment(app.packageName, { commentId: comment.commentId, text: 'Починили, спасибо', rating: 5 });
    w.release();
    await until(async () => (await w.item(row.id, id))?.rating === 5);
    expect(await w.item(row.id, id)).toMatchObject({ id: item.id, text: 'Починили, спасибо' });
    await w.stopPolling();

    expect((await w.reply(item.id, 'я'.repeat(501))).statusCode).toBe(400);
    let auths = 0;
    await w.replyThrough429(item.id, 'Рады, что всё работает!', (s) => emu.rateLimitNext(s), {
      // The token outlives its 900 s meanwhile: a new one is signed and the reply goes.
      beforeRetry: () => {
        emu.expireTokens();
        auths = emu.calls.filter((c) => c.path === '/public/auth/').length;
      },
    });
    expect(emu.calls.filter((c) => c.path === '/public/auth/').length).toBe(auths + 1);
    const call = emu.feedbackCalls().at(-1)!;
    expect(call).toMatchObject({
      path: `/public/v1/application/${app.packageName}/feedback`,
      query: { commentId: id },
      body: { message: 'Рады, что всё работает!' },
    });
    const [feedback] = [...emu.feedback.values()].filter((f) => f.commentId === comment.commentId);
    const reply = (await w.item(row.id, `feedback:${feedback!.id}`))!;
    expect(reply).toMatchObject({ isOwn: true, delivery: 'sent', text: 'Рады, что всё работает!' });
  });

  it('a revoked key becomes the account error', async () => {
    const app = newApp();
    const row = await w.connectAlone(credentialsOf(app));
    emu.revoke(app.keyId);
    await w.expectAccountError(row.id, 'rs-node-revoked', 'Ключ не найден или отозван');
  });
});
