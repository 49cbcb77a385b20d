import { ViberEmulator } from '../../emulators/viber/emulator';
import { ProviderTestbed } from './testbed';

// TEST-ONLY: the provider harness (testbed.ts) wired to a Viber emulator, and how a bot is connected.
// `bed.cdn` is the CDN customers' file links point at (dl-media.viber.com), reached through the media hook.

export class ViberTestbed extends ProviderTestbed {
  emu!: ViberEmulator;
  private seq = 0;

  constructor() {
    super({
      provider: 'viber',
      listen: true,
      cdn: true,
      env: () => ({ PROVIDER_UPDATES: 'webhook', VIBER_API_URL: this.emu.url }),
    });
  }

  override async start() {
    this.emu = await ViberEmulator.start();
    this.onClose(() => this.emu.close());
    return super.start();
  }

  /** A bot connected with its own token, and a user id that can write to it. */
  async connectBot() {
    this.seq += 1;
    const token = `4453b6ac12345678-${this.seq}-${Date.now()}`;
    this.emu.addBot(token);
    const { account, row } = await this.connected({ auth_token: token });
    return { id: account.id, token, row, user: `01234567890A${this.seq}=` };
  }
}
