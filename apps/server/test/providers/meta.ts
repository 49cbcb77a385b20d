import { decodeFailure } from '@otklik/shared';
import { expect } from 'vitest';
import type { FacebookEmulator } from '../../emulators/facebook/emulator';
import { hooked, ProviderTestbed } from './testbed';

// TEST-ONLY: the Meta networks' testbed (Facebook Pages, Instagram): the emulator with consent given, the
// app listening, the Meta app's one callback subscribed (handshake with the verify token), and the
// Facebook dialog asked for the network's scope.

export const META_VERIFY = 'fb-verify-token';

export class MetaTestbed<E extends FacebookEmulator> extends ProviderTestbed {
  emu!: E;

  constructor(
    provider: 'facebook' | 'instagram',
    private readonly startEmulator: () => Promise<E>,
    private readonly scope: string,
  ) {
    super({
      provider,
      listen: true,
      env: () => ({ PROVIDER_UPDATES: 'webhook', ...this.emu.env(META_VERIFY) }),
    });
  }

  override async start() {
    const emu = await this.startEmulator();
    this.emu = emu;
    emu.consent = 'allow';
    this.onClose(() => emu.close());
    await super.start();
    // The app's callback saved in Meta's dashboard (Instagram deliveries come to it too).
    expect((await emu.subscribe(`${this.base}/v1/webhooks/facebook/app`, META_VERIFY)).verified).toBe(true);
    return this;
  }

  /** The Facebook dialog, asked for the network's scope. */
  dialog() {
    return this.popup((dialog) => expect(dialog.searchParams.get('scope')).toContain(this.scope));
  }

  /** Hiding the item, then showing it again, through the outbox: the network's comment follows each. */
  async expectHideAndUnhide(itemId: number, comment: { hidden?: boolean }) {
    expect((await this.inject('POST', `/v1/items/${itemId}/hide`)).statusCode).toBe(200);
    await this.drain();
    expect(comment.hidden).toBe(true);
    await this.inject('POST', `/v1/items/${itemId}/unhide`);
    await this.drain();
    expect(comment.hidden).toBe(false);
  }

  /** With the Page's token revoked, our reply fails and the account carries an error the errors screen lists. */
  async expectRevokedOnReply(objectId: number, pageId: string, itemId: number) {
    this.emu.network.revokePage(pageId);
    await this.inject('POST', `/v1/items/${itemId}/reply`, { text: '300 ₽' });
    await this.drain();
    expect((await this.row(objectId)).error).toBeTruthy();
    expect(await this.listedError(objectId)).toBeDefined();
  }

  /**
   * A day and an hour on (the network's clock, put back after), our next message in the chat fails with
   * the 24-hour window's reason.
   */
  async expectWindowClosed(chatId: number) {
    this.emu.network.clock += 25 * 60 * 60 * 1000;
    try {
      const late = await this.inject('POST', `/v1/chats/${chatId}/messages`, { text: 'Вы ещё тут?' });
      await this.drain();
      const row = await this.messageRow(late.json().message.id);
      expect(row.delivery).toBe('failed');
      expect(decodeFailure(row.deliveryError ?? '')?.key).toBe('failure.messagingWindow');
    } finally {
      this.emu.network.clock = Date.now();
    }
  }
}

/** The same testbed started and closed by the test file's hooks. */
export function metaTestbed<E extends FacebookEmulator>(
  provider: 'facebook' | 'instagram',
  start: () => Promise<E>,
  opts: { scope: string; started: (emu: E) => void },
) {
  const bed = new MetaTestbed(
    provider,
    async () => {
      const emu = await start();
      opts.started(emu);
      return emu;
    },
    opts.scope,
  );
  hooked(bed);
  const popup = () => bed.dialog();
  const post = (url: string, payload: Record<string, unknown> = {}) => bed.inject('POST', url, payload);
  return { bed, popup, post };
}
