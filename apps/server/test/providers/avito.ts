import { AvitoEmulator } from '../../emulators/avito/emulator';
import { ProviderTestbed } from './testbed';

// TEST-ONLY: the provider harness (testbed.ts) wired to an Avito emulator, and how an account is made.

export class AvitoTestbed extends ProviderTestbed {
  emu!: AvitoEmulator;
  private seq = 0;

  constructor(env: Record<string, string> = {}) {
    super({
      provider: 'avito',
      listen: true,
      env: () => ({ PROVIDER_UPDATES: 'webhook', AVITO_API_URL: this.emu.url, ...env }),
    });
  }

  override async start() {
    this.emu = await AvitoEmulator.start();
    this.onClose(() => this.emu.close());
    return super.start();
  }

  /** An Avito account with its own API keys, connected; `customer` can write to it in `chatId`. */
  async connectAccount() {
    this.seq += 1;
    const clientId = `client-${this.seq}-${Date.now()}`;
    const secret = `secret-${this.seq}`;
    const userId = 18_788_600 + this.seq;
    this.emu.network.addClient(clientId, secret, { userId, name: `Магазин ${this.seq}` });
    const { account, row, credentials } = await this.connected({
      client_id: clientId,
      client_secret: secret,
    });
    return {
      id: account.id,
      clientId,
      secret,
      userId,
      row,
      webhookSecret: credentials.webhook_secret!,
      chatId: `u2i-chat${this.seq}`,
      customer: { id: 94_235_300 + this.seq, name: 'Покупатель' },
    };
  }
}
