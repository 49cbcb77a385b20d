import { expect } from 'vitest';
import { YouTubeEmulator } from '../../emulators/youtube/emulator';
import type { EmulatedChannel } from '../../emulators/youtube/emulator-state';
import { ProviderTestbed } from './testbed';

// TEST-ONLY: the provider harness (testbed.ts) wired to the YouTube emulator, and a polling manager
// whose waits the test releases (testbed.ts Ticker).

export const APP_ID = 'otklik-yt.apps.googleusercontent.com';
export const APP_SECRET = 'GOCSPX-otklik';

export { Ticker } from './testbed';

export class YouTubeTestbed extends ProviderTestbed {
  emu!: YouTubeEmulator;
  private extra: Record<string, string> = {};

  constructor() {
    super({
      provider: 'youtube',
      env: () => ({
        ...this.emu.env,
        YOUTUBE_CLIENT_ID: APP_ID,
        YOUTUBE_CLIENT_SECRET: APP_SECRET,
        PROVIDER_UPDATES: 'polling',
        ...this.extra,
      }),
    });
  }

  override async start(env: Record<string, string> = {}) {
    this.extra = env;
    this.emu = await YouTubeEmulator.start();
    this.emu.network.addClient(APP_ID, APP_SECRET);
    this.onClose(() => this.emu.close());
    return super.start();
  }

  /** A channel connected through the popup; returns its account row. */
  async connectChannel(title = 'Канал мастерской') {
    const channel = this.emu.network.addChannel(title);
    this.emu.network.consenting = channel;
    const res = await this.finish(await this.popup());
    expect(res.statusCode, res.body).toBe(200);
    return { channel, id: res.json().object.id as number, object: res.json().object };
  }

  /** Like connectChannel, with one older comment on the channel that the import on connect brings. */
  async connectWithHistory(title = 'Канал мастерской') {
    const channel = this.emu.network.addChannel(title);
    this.emu.network.addComment({
      channelId: channel.id,
      text: 'Старый комментарий',
      at: new Date(Date.now() - 3_600_000),
    });
    this.emu.network.consenting = channel;
    const res = await this.finish(await this.popup());
    expect(res.statusCode, res.body).toBe(200);
    return { channel, id: res.json().object.id as number, object: res.json().object };
  }
}

export type { EmulatedChannel };
