import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  PROVIDER_IDS,
  type ProviderEntry,
  type ProviderId,
  providers,
  REPLY_KINDS,
  type ReplyKind,
  supportsReplyKind,
  translate,
} from '@otklik/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import {
  buildChat,
  buildComment,
  buildObject,
  buildWorkspace,
  fakeConnector,
  uploadImage,
} from '../../../../test/inbox-actions';
import { registerConnector } from '../../../providers/registry';

// docs/product/validation.md limits at their boundary, through the reply endpoints on the real database: for EVERY
// catalogue entry and every limit it declares — characters, UTF-8 bytes, attachment counts and caption
// limits, of comments and of messages — one under and at the limit pass, one over is a 400 naming the
// limit. The cells are read from the catalogue, so a new provider or a changed number is tested as is.

type LimitKind = 'text' | 'bytes' | 'attachments' | 'caption';
interface Cell {
  provider: ProviderId;
  kind: ReplyKind;
  limit: LimitKind;
  max: number;
  /** The catalogue field the number comes from. */
  field: string;
}

/** Every limit an entry declares for the kinds of content it carries. */
function cellsOf(entry: ProviderEntry): Cell[] {
  const cells: Cell[] = [];
  const provider = entry.id;
  for (const kind of REPLY_KINDS) {
    if (!supportsReplyKind(entry, kind)) continue;
    const chars = entry.length[kind];
    if (chars !== undefined)
      cells.push({ provider, kind, limit: 'text', max: chars, field: `length.${kind}` });
    if (kind === 'message' && entry.length.messageBytes !== undefined)
      cells.push({
        provider,
        kind,
        limit: 'bytes',
        max: entry.length.messageBytes,
        field: 'length.messageBytes',
      });
    // Absent means none allowed (docs/product/validation.md lists no count): 0 files pass, one is refused.
    cells.push({
      provider,
      kind,
      limit: 'attachments',
      max: entry.upload[kind] ?? 0,
      field: `upload.${kind}`,
    });
    const caption = kind === 'message' ? entry.length.messageAttach : entry.length.commentAttach;
    if (caption !== undefined)
      cells.push({
        provider,
        kind,
        limit: 'caption',
        max: caption,
        field: kind === 'message' ? 'length.messageAttach' : 'length.commentAttach',
      });
  }
  return cells;
}

const CELLS = PROVIDER_IDS.flatMap((id) => cellsOf(providers[id]));

let t: TestApp;
let headers: Record<string, string>;
let attachment: { url: string };
const undo: Array<() => void> = [];
/** One comment (or review) and one chat per provider, answered again and again. */
const targets = new Map<ProviderId, { itemId?: number; chatId?: number }>();

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: mkdtempSync(join(tmpdir(), 'otklik-limits-')) });
  for (const id of PROVIDER_IDS) undo.push(registerConnector(fakeConnector(id).connector));
  const admin = await buildWorkspace(t);
  headers = admin.headers;
  for (const id of PROVIDER_IDS) {
    const entry = providers[id];
    const account = await buildObject(t, admin.space.id, { provider: id });
    const target: { itemId?: number; chatId?: number } = {};
    if (supportsReplyKind(entry, 'comment'))
      target.itemId = (await buildComment(t, account, { kind: entry.comments[0] })).id;
    if (supportsReplyKind(entry, 'message')) target.chatId = (await buildChat(t, account)).id;
    targets.set(id, target);
  }
  attachment = await uploadImage(t, headers);
});
afterAll(async () => {
  for (const u of undo) u();
  await t.close();
});

function send(provider: ProviderId, kind: ReplyKind, text: string, files = 0) {
  const target = targets.get(provider)!;
  const url = kind === 'comment' ? `/v1/items/${target.itemId}/reply` : `/v1/chats/${target.chatId}/messages`;
  return t.app.inject({
    method: 'POST',
    url,
    headers,
    payload: { text, attachments: Array.from({ length: files }, () => attachment) },
  });
}

/** A text of exactly `bytes` UTF-8 bytes in about half as many characters ('ж' is two bytes). */
const ofBytes = (bytes: number) => 'ж'.repeat(Math.floor(bytes / 2)) + 'a'.repeat(bytes % 2);

/** The three drafts of a cell: [one under, at, one over] as text and attachment count. */
function drafts(cell: Cell): Array<{ text: string; files: number }> {
  switch (cell.limit) {
    case 'text':
      return [cell.max - 1, cell.max, cell.max + 1].map((n) => ({ text: 'a'.repeat(n), files: 0 }));
    case 'bytes':
      return [cell.max - 1, cell.max, cell.max + 1].map((n) => ({ text: ofBytes(n), files: 0 }));
    case 'caption':
      return [cell.max - 1, cell.max, cell.max + 1].map((n) => ({ text: 'a'.repeat(n), files: 1 }));
    case 'attachments':
      return [Math.max(cell.max - 1, 0), cell.max, cell.max + 1].map((files) => ({ text: 'see', files }));
  }
}

const REFUSAL = {
  text: { code: 'text_too_long', key: 'reply.tooLong' },
  caption: { code: 'text_too_long', key: 'reply.tooLong' },
  bytes: { code: 'bytes_too_long', key: 'reply.tooManyBytes' },
  attachments: { code: 'too_many_attachments', key: 'reply.tooManyAttachments' },
} as const;

describe('every catalogue limit at its boundary (docs/product/validation.md)', () => {
  it('covers every limit the catalogue declares, except those of content a network does not carry', () => {
    const tested = new Set(CELLS.map((c) => `${c.provider} ${c.field}`));
    const untested = PROVIDER_IDS.flatMap((id) => {
      const { length, upload } = providers[id];
      const declared = [
        ...Object.keys(length).map((k) => `length.${k}`),
        ...Object.keys(upload).map((k) => `upload.${k}`),
      ];
      return declared.filter((field) => !tested.has(`${id} ${field}`)).map((field) => ({ id, field }));
    });
    // Each number left out belongs to a kind the provider has no items/chats of (YouTube's docs/product/validation.md
    // message limit, for a network without private messages).
    for (const { id, field } of untested) {
      const kind: ReplyKind = /message/i.test(field.split('.')[1]!) ? 'message' : 'comment';
      expect(supportsReplyKind(id, kind), `${id} ${field}`).toBe(false);
    }
    expect(untested).toEqual([{ id: 'youtube', field: 'length.message' }]);
    // Every provider is answered on at least one kind, so each is in the table.
    expect(new Set(CELLS.map((c) => c.provider))).toEqual(new Set(PROVIDER_IDS));
  });

  it.each(CELLS)('$provider $kind $limit: $max ($field)', async (cell) => {
    const [under, at, over] = drafts(cell);
    if (cell.limit === 'bytes') {
      // The byte drafts must stay within the character limit, or they would test that one instead.
      expect(over!.text.length).toBeLessThanOrEqual(providers[cell.provider].length[cell.kind]!);
    }
    for (const ok of [under!, at!]) {
      const res = await send(cell.provider, cell.kind, ok.text, ok.files);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      const sent = cell.kind === 'comment' ? res.json().reply : res.json().message;
      expect(sent).toMatchObject({ delivery: 'queued', text: ok.text });
      expect(sent.attachments).toHaveLength(ok.files);
    }
    const res = await send(cell.provider, cell.kind, over!.text, over!.files);
    expect(res.statusCode).toBe(400);
    const { code, key } = REFUSAL[cell.limit];
    expect(res.json()).toMatchObject({
      error: translate('ru', key, { limit: cell.max }),
      error_type: code,
      limit: cell.max,
    });
  });

  it.each(
    PROVIDER_IDS.flatMap((provider) =>
      REPLY_KINDS.filter(
        (kind) => supportsReplyKind(provider, kind) && providers[provider].length[kind] === undefined,
      ).map((kind) => ({ provider, kind })),
    ),
  )('$provider $kind: no character limit declared, a long text passes', async ({ provider, kind }) => {
    const res = await send(provider, kind, 'a'.repeat(50_000));
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  });
});

describe('around the limits', () => {
  it('the error is in the caller’s language', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/items/${targets.get('twitter')!.itemId}/reply?locale=en`,
      headers,
      payload: { text: 'a'.repeat(281) },
    });
    expect(res.json().error).toBe('The text is too long: at most 280 characters');
  });

  it('attachments must be our uploads', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/items/${targets.get('vk')!.itemId}/reply`,
      headers,
      payload: { text: 'x', attachments: [{ url: 'http://169.254.169.254/latest/meta-data' }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ attachments: 'Вложение не найдено, загрузите файл заново' });
  });

  it('empty text without files is refused', async () => {
    const res = await send('vk', 'comment', '   ');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Введите текст ответа');
  });

  it('Twitter has no Direct', async () => {
    const direct = await t.app.inject({
      method: 'POST',
      url: `/v1/items/${targets.get('twitter')!.itemId}/direct`,
      headers,
      payload: { text: 'hi' },
    });
    expect(direct.statusCode).toBe(400);
    expect(direct.json()).toMatchObject({
      error: 'Эта сеть не поддерживает такое действие',
      error_type: 'not_supported',
    });
  });
});
