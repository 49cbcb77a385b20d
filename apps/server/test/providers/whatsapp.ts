import { expect } from 'vitest';
import { WhatsAppEmulator } from '../../emulators/whatsapp/emulator';
import { ProviderTestbed } from './testbed';

// TEST-ONLY: the provider harness (testbed.ts) wired to a WhatsApp emulator, and how a number is connected.

export const PHONE_ID = '106540352242922';
export const APP_SECRET = 'meta-app-secret-1';

export class WhatsAppTestbed extends ProviderTestbed {
  emu!: WhatsAppEmulator;
  private seq = 0;

  constructor() {
    super({
      provider: 'whatsapp',
      listen: true,
      env: () => ({ PROVIDER_UPDATES: 'webhook', WHATSAPP_GRAPH_URL: this.emu.url }),
    });
  }

  override async start() {
    this.emu = await WhatsAppEmulator.start({
      phoneNumberId: PHONE_ID,
      accessToken: 'EAAG-initial',
      appSecret: APP_SECRET,
    });
    this.onClose(() => this.emu.close());
    return super.start();
  }

  /** A connected number with its own token; Meta's dashboard points at its webhook URL. */
  async connectNumber() {
    this.seq += 1;
    const token = `EAAG-${this.seq}-${Date.now()}`;
    this.emu.addToken(token);
    const { account, row, credentials } = await this.connected({
      phone_number_id: PHONE_ID,
      access_token: token,
      app_secret: APP_SECRET,
    });
    const verifyToken = credentials.webhook_secret!;
    const callback = `${this.base}/v1/webhooks/whatsapp/${account.id}`;
    expect((await this.emu.subscribe(callback, verifyToken)).verified).toBe(true);
    const customer = `1650555${String(this.seq).padStart(4, '0')}`;
    return { id: account.id, token, row, verifyToken, callback, customer, setup: account.setup };
  }
}
