import { OkEmulator } from '../../emulators/ok/emulator';
import { ProviderTestbed } from './testbed';

// TEST-ONLY: the provider harness (testbed.ts) wired to the OK emulator, and how a group is connected.

export class OkTestbed extends ProviderTestbed {
  emu!: OkEmulator;
  private seq = 0;

  constructor() {
    super({
      provider: 'ok',
      listen: true,
      env: () => ({ PROVIDER_UPDATES: 'webhook', OK_API_URL: this.emu.url }),
    });
  }

  override async start() {
    this.emu = await OkEmulator.start();
    this.onClose(() => this.emu.close());
    return super.start();
  }

  /** A group connected with its access key; `customer` writes to it in `chatId`. */
  async connectGroup() {
    this.seq += 1;
    const token = `tkn-${this.seq}-${Date.now()}`;
    const group = this.emu.addGroup(token, `Пекарня ${this.seq}`);
    const { account, row, credentials } = await this.connected({ access_token: token });
    return {
      id: account.id,
      token,
      group,
      row,
      webhookSecret: credentials.webhook_secret!,
      chatId: `chat:C3ecb9d02a6${this.seq}`,
      customer: { userId: `user:5751234567${this.seq}`, name: 'Ольга' },
    };
  }
}
