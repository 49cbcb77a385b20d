// `npm run emulator -- telegram [port]`: the Telegram Bot API emulator the tests use, on its own, for
// trying Otklik by hand with no internet. It prints the bot token to paste on Settings → Accounts →
// Add → Telegram and the variable to start Otklik with; every line typed here reaches the bot as a
// customer's message, and the bot's answers (Otklik's replies) are printed as they arrive.
// `npm run emulator -- slack [port]`: the Slack emulator (OAuth v2 consent page, Web API) for the
// space notifications' Slack channel; prints the variables and every message posted to a channel.
import { createInterface } from 'node:readline';
import { SlackEmulator } from '../apps/server/emulators/slack/emulator';
import { startTelegramEmulator, TelegramEmulator } from '../apps/server/emulators/telegram/emulator';

const [network = 'telegram', portArg] = process.argv.slice(2);
if (network === 'slack') {
  const slack = await new SlackEmulator({
    clientId: '1111.2222',
    clientSecret: 'emulated-client-secret',
    signingSecret: 'emulated-signing-secret',
  }).start(Number(portArg ?? 8082) || 0);
  const env = Object.entries(slack.env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  console.log(`Slack emulator on ${slack.url} (channels #general, #random)

1. Start Otklik pointed at it (another terminal):
     ${env} npm start
2. Settings → Space notifications → Add to Slack → Allow, then choose a channel.
   Messages Otklik posts appear below. Ctrl+C stops the emulator.
`);
  let shown = 0;
  setInterval(() => {
    for (const m of slack.messages.slice(shown)) {
      const channel = slack.channels.find((c) => c.id === m.channel)?.name ?? m.channel;
      console.log(`  #${channel}: ${m.text.replace(/\n/g, '\n    ')}`);
    }
    shown = slack.messages.length;
  }, 250).unref();
  process.on('SIGINT', () => void slack.close().then(() => process.exit(0)));
} else if (network !== 'telegram') {
  console.error(`Unknown network "${network}". Available: telegram, slack`);
  process.exit(1);
} else {
  await telegram();
}

async function telegram() {
  const port = Number(portArg ?? 8081);
  const tg =
    Number.isInteger(port) && port > 0
      ? await new TelegramEmulator().start(port)
      : await startTelegramEmulator();

  const botId = 7_000_000_000 + Math.floor(Math.random() * 1e8);
  const token = `${botId}:AAEmulator${Math.random().toString(36).slice(2, 12)}`;
  tg.addBot(token, { id: botId, first_name: 'Emulated shop', username: `emulated${botId}_bot` });
  const customer = {
    id: 500_000_001,
    is_bot: false,
    first_name: 'Мария',
    last_name: 'Клиентова',
    username: 'maria_client',
  };
  const chat = { id: customer.id, type: 'private' as const, first_name: customer.first_name };

  console.log(`Telegram emulator on ${tg.url}

1. Start Otklik pointed at it (another terminal):
     TELEGRAM_API_URL=${tg.url} npm start
2. Settings → Accounts → Add → Telegram, paste the bot token:
     ${token}
3. Type a message here and press Enter: it reaches the bot from "${customer.first_name}".
   Answers from Otklik appear below. Ctrl+C stops the emulator.
`);

  let seen = 0;
  setInterval(() => {
    const sent = tg.calls.filter(
      (c) => c.token === token && /^send(message|photo|document)$/i.test(c.method),
    );
    for (const call of sent.slice(seen)) {
      const text = call.params.text ?? call.params.caption ?? `[${call.method}]`;
      console.log(`  ← bot to ${customer.first_name}: ${String(text)}`);
    }
    seen = sent.length;
  }, 250).unref();

  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const text = line.trim();
    if (!text) return;
    const message = tg.customerMessage(token, { chat, from: customer, text });
    void tg.deliver(token, { message }).then(({ status }) => {
      const how = status === 0 ? 'queued for getUpdates' : `webhook answered ${status}`;
      console.log(`  → ${customer.first_name} wrote "${text}" (${how})`);
    });
  });
  lines.on('close', () => void tg.close().then(() => process.exit(0)));
  process.on('SIGINT', () => void tg.close().then(() => process.exit(0)));
}
