import { type Ability, canInSpace, parseActor, ROLE_PRESETS } from '@otklik/shared';
import { describe, expect, it } from 'vitest';
import type { InboxItem } from '../../../api/inboxTypes';
import { blockUnavailable, canEditReply, chatActions, hasAnyAction, itemActions } from './actions';
import { checkBulkReply, checkFile, composerLimits, providerEntry } from './composer';

describe('composer limits (docs/product/validation.md)', () => {
  it('counts characters left for the provider and kind', () => {
    const limits = composerLimits('twitter', 'comment', 'a'.repeat(270), 0);
    expect(limits).toMatchObject({ charLimit: 280, charsLeft: 10, maxAttachments: 4, problem: null });
    expect(composerLimits('twitter', 'comment', 'a'.repeat(281), 0).problem).toEqual({
      code: 'text_too_long',
      limit: 280,
    });
  });

  it('switches to the caption limit when files are attached (Telegram 1024)', () => {
    expect(composerLimits('telegram', 'message', 'hi', 0).charLimit).toBe(4096);
    expect(composerLimits('telegram', 'message', 'hi', 1).charLimit).toBe(1024);
  });

  it('counts UTF-8 bytes where the network limits them (Instagram messages, 1000 bytes)', () => {
    const limits = composerLimits('instagram', 'message', 'я'.repeat(501), 0);
    expect(limits.charsLeft).toBe(49);
    expect(limits.bytesLeft).toBe(-2);
    expect(limits.problem).toEqual({ code: 'bytes_too_long', limit: 1000 });
  });

  it('reports an empty draft and unknown providers', () => {
    expect(composerLimits('sandbox', 'comment', '   ', 0).problem).toEqual({ code: 'empty', limit: 0 });
    expect(composerLimits('sandbox', 'comment', '', 1).problem).toBeNull();
    expect(composerLimits('nope', 'comment', 'x', 0).problem?.code).toBe('not_supported');
  });

  it('checks files: type, 5 MB images, 10 MB video, count', () => {
    const mb = 1024 * 1024;
    expect(checkFile({ type: 'image/png', size: 5 * mb }, 0, 5)).toBeNull();
    expect(checkFile({ type: 'image/png', size: 5 * mb + 1 }, 0, 5)).toEqual({
      code: 'upload.tooLarge',
      limitMb: 5,
    });
    expect(checkFile({ type: 'video/mp4', size: 9 * mb }, 0, 5)).toBeNull();
    expect(checkFile({ type: 'video/mp4', size: 11 * mb }, 0, 5)).toEqual({
      code: 'upload.tooLarge',
      limitMb: 10,
    });
    expect(checkFile({ type: 'image/svg+xml', size: 10 }, 0, 5)).toEqual({ code: 'upload.unsupportedType' });
    expect(checkFile({ type: 'image/png', size: 10 }, 1, 1)).toEqual({
      code: 'reply.tooManyAttachments',
      limit: 1,
    });
  });

  it('checks a bulk reply: one account, not too many', () => {
    expect(checkBulkReply([{ object_id: 1 }, { object_id: 1 }])).toBeNull();
    expect(checkBulkReply([{ object_id: 1 }, { object_id: 2 }])).toBe('comments.sameAccount');
    expect(checkBulkReply(Array.from({ length: 51 }, () => ({ object_id: 1 })))).toBe('comments.tooMany');
  });
});

describe('item actions: network AND role', () => {
  const space = {
    id: 1,
    expires_at: 9_999_999_999,
    is_trial: false,
    tariff: { id: 3, name: 'x' },
    settings: {},
  };
  const canAs = (role: keyof typeof ROLE_PRESETS) => {
    const actor = parseActor({ user: {}, memberships: [{ space, roles: ROLE_PRESETS[role] }] });
    return (ability: Ability) => canInSpace(actor.memberships[0]!, ability);
  };
  const item = {
    id: 1,
    space_id: 1,
    object_id: 1,
    provider: 'sandbox',
    kind: 'comment',
    author: { id: 3, is_blocked: false },
    is_own: false,
    is_deleted: false,
    is_hidden: false,
    is_liked: false,
    status: 'new',
    first_reply_at: null,
    delivery: 'received',
    created_at: 1000,
  } as unknown as InboxItem;

  it('an operator replies, likes, reacts, tags and assigns, but does not delete or block', () => {
    const actions = itemActions(item, providerEntry('sandbox'), canAs('operator'));
    expect(actions).toMatchObject({
      reply: true,
      direct: true,
      like: true,
      react: true,
      tag: true,
      assign: true,
      delete: false,
      block: false,
      closeWithoutReply: false,
      close: false,
    });
    expect(
      itemActions({ ...item, first_reply_at: 5 }, providerEntry('sandbox'), canAs('operator')).close,
    ).toBe(true);
  });

  it('a moderator has no reply box but closes without reply, deletes, hides and blocks', () => {
    const actions = itemActions(item, providerEntry('sandbox'), canAs('moderator'));
    expect(actions).toMatchObject({
      reply: false,
      direct: false,
      closeWithoutReply: true,
      delete: true,
      hide: true,
      block: true,
      tag: true,
      like: false,
    });
  });

  it('X and Google Business Profile delete only the account’s own posts: no Delete on a customer’s', () => {
    for (const provider of ['twitter', 'gmaps'] as const)
      expect(itemActions(item, providerEntry(provider), canAs('moderator')).delete, provider).toBe(false);
    expect(itemActions(item, providerEntry('youtube'), canAs('moderator')).delete).toBe(true);
  });

  it('read-only and analyst see no actions', () => {
    expect(hasAnyAction(itemActions(item, providerEntry('sandbox'), canAs('read-only')))).toBe(false);
    expect(hasAnyAction(itemActions(item, providerEntry('sandbox'), canAs('analyst')))).toBe(false);
  });

  it('offers only what the network allows (Instagram: no like, no edit; VK: no hide)', () => {
    const admin = canAs('administrator');
    const instagram = itemActions({ ...item, provider: 'instagram' }, providerEntry('instagram'), admin);
    expect(instagram).toMatchObject({ like: false, hide: true, delete: true, react: false });
    const vk = itemActions({ ...item, provider: 'vk' }, providerEntry('vk'), admin);
    expect(vk).toMatchObject({ hide: false, like: true, react: true, restore: false, report: true });
    expect(instagram.report).toBe(false);
    expect(itemActions({ ...item, is_deleted: true }, providerEntry('vk'), admin).restore).toBe(true);
  });

  it('blocks only where the network API bans; elsewhere says why (issue 13 #15)', () => {
    const admin = canAs('administrator');
    const author = { id: 3, is_blocked: false };
    const withAuthor = { ...item, author } as InboxItem;
    expect(itemActions({ ...withAuthor, provider: 'vk' }, providerEntry('vk'), admin).block).toBe(true);
    expect(
      itemActions({ ...withAuthor, provider: 'instagram' }, providerEntry('instagram'), admin).block,
    ).toBe(false);
    expect(blockUnavailable(author, providerEntry('vk'), admin, 'ru')).toBeNull();
    expect(blockUnavailable(author, providerEntry('viber'), admin, 'ru')).toBe(
      'API Viber не позволяет заблокировать автора',
    );
    expect(blockUnavailable(author, providerEntry('viber'), admin, 'en')).toBe(
      "Viber's API does not allow blocking an author",
    );
    // No reason for someone who may not block anyway, or an author already blocked (unblock stays).
    expect(blockUnavailable(author, providerEntry('viber'), canAs('operator'), 'en')).toBeNull();
    expect(blockUnavailable({ ...author, is_blocked: true }, providerEntry('viber'), admin, 'en')).toBeNull();
  });

  it('edits own replies only within the network window (VK 12 h)', () => {
    const reply = { ...item, is_own: true, delivery: 'sent', created_at: 1000 } as InboxItem;
    const admin = canAs('administrator');
    expect(canEditReply(reply, providerEntry('vk'), admin, 1000 + 43_199)).toBe(true);
    expect(canEditReply(reply, providerEntry('vk'), admin, 1000 + 43_200)).toBe(false);
    expect(canEditReply(reply, providerEntry('instagram'), admin, 1001)).toBe(false);
    expect(canEditReply({ ...reply, delivery: 'failed' }, providerEntry('vk'), admin, 1001)).toBe(false);
  });

  it('chat actions follow the same rules', () => {
    const chat = { ...item, status: 'open', author: { id: 3, is_blocked: true } } as never;
    expect(chatActions(chat, providerEntry('sandbox'), canAs('operator'), { replied: true })).toMatchObject({
      reply: true,
      close: true,
      react: true,
      unblock: false,
    });
    expect(
      chatActions(chat, providerEntry('telegram'), canAs('administrator'), { replied: false }),
    ).toMatchObject({ react: true, close: false, closeWithoutReply: true, unblock: true });
  });
});
