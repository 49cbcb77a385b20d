import { SURFACES, type Surface } from '../../src/providers/vk/ids';
import { commentObject, deletedObject, ensurePost, findComment, storeComment } from './emulator-comments';
import type { EventDispatcher, VkUpdate } from './emulator-events';
import { findMessage, messageObject, storeMessage } from './emulator-messages';
import type { EmulatedGroup, EmulatedUser, EmulatorState } from './emulator-state';

// TEST-ONLY. What people do on the emulated VK, and what VK then pushes (PROVIDERS §2 payloads):
// a customer writes, comments, edits or deletes a comment, reacts; an admin restores a comment in VK.
// Each action resolves after the push to the app has been answered.

export class VkNetworkSide {
  constructor(
    readonly state: EmulatorState,
    readonly events: EventDispatcher,
  ) {}

  /** Resolves when every push, echo and handshake started so far is done. */
  idle(): Promise<void> {
    return this.events.idle();
  }

  addCommunity(opts: { id: number; name: string; screenName?: string }): EmulatedGroup {
    return this.state.addGroup(opts);
  }

  community(id: number): EmulatedGroup {
    return this.state.group(id);
  }

  addUser(user: EmulatedUser): EmulatedUser {
    return this.state.addUser(user);
  }

  /** A user token of `userId`; with `adminOf`, the user administers that community. */
  userToken(userId: number, adminOf?: number): string {
    return this.state.issueUserToken(userId, adminOf ? this.state.group(adminOf) : undefined);
  }

  /** A customer's private message to the community (message_new with {message, client_info}). */
  async userWrites(
    groupId: number,
    m: { from: number; text: string; peer?: number; attachments?: unknown[] },
  ): Promise<VkUpdate> {
    const group = this.state.group(groupId);
    const stored = storeMessage(group, {
      peer: m.peer ?? m.from,
      fromId: m.from,
      text: m.text,
      date: this.state.unix(),
      attachments: m.attachments,
    });
    return this.events.emit(group, 'message_new', {
      message: messageObject(stored),
      client_info: { button_actions: ['text'], keyboard: true, inline_keyboard: true, lang_id: 0 },
    });
  }

  /**
   * A customer taps a text button of the community's latest keyboard in their conversation: VK sends the
   * button's label as the message text with the button's `payload` (message_new).
   */
  async userTaps(groupId: number, m: { from: number; label: string }): Promise<VkUpdate> {
    const group = this.state.group(groupId);
    const withKeyboard = (group.conversations.get(m.from) ?? []).filter((s) => s.keyboard).at(-1);
    const button = withKeyboard?.keyboard?.buttons.flat().find((b) => b.action.label === m.label);
    if (!button) throw new Error(`VK emulator: no button "${m.label}" shown to ${m.from}`);
    const stored = storeMessage(group, {
      peer: m.from,
      fromId: m.from,
      text: m.label,
      date: this.state.unix(),
      payload: button.action.payload,
    });
    return this.events.emit(group, 'message_new', {
      message: messageObject(stored),
      client_info: { button_actions: ['text'], keyboard: true, inline_keyboard: true, lang_id: 0 },
    });
  }

  async userEditsMessage(groupId: number, m: { peer: number; cmid: number; text: string }) {
    const group = this.state.group(groupId);
    const stored = findMessage(group, m.peer, m.cmid);
    stored.text = m.text;
    stored.update_time = this.state.unix();
    return this.events.emit(group, 'message_edit', messageObject(stored));
  }

  /** message_reaction_event; `reaction: null` takes it back (reaction_id absent). */
  async userReacts(
    groupId: number,
    r: { from: number; peer: number; cmid: number; reaction: number | null },
  ) {
    const group = this.state.group(groupId);
    const stored = findMessage(group, r.peer, r.cmid);
    if (r.reaction === null) stored.reactions.delete(r.from);
    else stored.reactions.set(r.from, r.reaction);
    return this.events.emit(group, 'message_reaction_event', {
      reacted_id: r.from,
      peer_id: r.peer,
      cmid: r.cmid,
      ...(r.reaction === null ? {} : { reaction_id: r.reaction }),
    });
  }

  /** A post (or photo, video) of the community that people can comment on. */
  addPost(groupId: number, post: { id: number; text: string; surface?: Surface }) {
    const group = this.state.group(groupId);
    return ensurePost(group, post.surface ?? 'wall', post.id, post.text, this.state.unix());
  }

  /** A customer's comment (wall_reply_new / photo_comment_new / video_comment_new). */
  async userComments(
    groupId: number,
    c: { from: number; postId: number; text: string; replyTo?: number; surface?: Surface },
  ): Promise<{ update: VkUpdate; commentId: number }> {
    const group = this.state.group(groupId);
    const surface = c.surface ?? 'wall';
    ensurePost(group, surface, c.postId, '', this.state.unix());
    const stored = storeComment(group, {
      surface,
      target: c.postId,
      fromId: c.from,
      text: c.text,
      date: this.state.unix(),
      replyTo: c.replyTo,
    });
    const update = await this.events.emit(
      group,
      `${SURFACES[surface].eventPrefix}new`,
      commentObject(stored),
    );
    return { update, commentId: stored.id };
  }

  async userEditsComment(groupId: number, c: { commentId: number; text: string; surface?: Surface }) {
    const group = this.state.group(groupId);
    const surface = c.surface ?? 'wall';
    const stored = findComment(group, surface, -group.id, c.commentId);
    stored.text = c.text;
    return this.events.emit(group, `${SURFACES[surface].eventPrefix}edit`, commentObject(stored));
  }

  /** The author deletes their comment (wall_reply_delete with deleter_id and user_id). */
  async userDeletesComment(groupId: number, c: { commentId: number; surface?: Surface }) {
    const group = this.state.group(groupId);
    const surface = c.surface ?? 'wall';
    const stored = findComment(group, surface, -group.id, c.commentId);
    stored.deleted = true;
    return this.events.emit(
      group,
      `${SURFACES[surface].eventPrefix}delete`,
      deletedObject(stored, stored.from_id),
    );
  }

  /** An admin restores a deleted comment in VK itself (wall_reply_restore). */
  async restoredInVk(groupId: number, c: { commentId: number; surface?: Surface }) {
    const group = this.state.group(groupId);
    const surface = c.surface ?? 'wall';
    const stored = findComment(group, surface, -group.id, c.commentId);
    stored.deleted = false;
    return this.events.emit(group, `${SURFACES[surface].eventPrefix}restore`, commentObject(stored));
  }

  /** VK sends an event again (same event_id), as it does when an answer was not `ok`. */
  redeliver(groupId: number, update: VkUpdate) {
    return this.events.deliver(this.state.group(groupId), update);
  }

  /** Long Poll controls: the key expires (failed 2), or the history is lost (failed 3). */
  expireLongPollKey(groupId: number) {
    this.events.expireKey(this.state.group(groupId));
  }

  loseLongPollHistory(groupId: number) {
    this.state.group(groupId).longPoll.lost = true;
  }
}
