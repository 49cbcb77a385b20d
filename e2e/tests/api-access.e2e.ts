// Issue 14 item 9, public API access: an administrator creates a personal API token on
// Settings → API tokens (shown once), and a script uses it with fetch; a webhook to a receiver on
// 127.0.0.1 gets a signed item.created when a customer comments on the sandbox page; the delivery shows
// in the log and is sent again with the same webhook-id. Both screens are shot in ru and en at 375 and
// 1381 pixels.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AppHandle,
  apiOk,
  type BrowserHandle,
  type ConfirmedUser,
  createConfirmedUser,
  launchBrowser,
  type SmtpHandle,
  screenshot,
  signedInContext,
  startApp,
  startSmtp,
} from '../harness';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** Standard Webhooks verification, written from the specification (not the server's code). */
function verify(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = String(headers['webhook-id']);
  const timestamp = Number(headers['webhook-timestamp']);
  if (Math.abs(Date.now() / 1000 - timestamp) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return String(headers['webhook-signature'])
    .split(' ')
    .some((part) => {
      const [version, signature] = part.split(',');
      const given = Buffer.from(signature ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

async function until<T>(check: () => T | undefined, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('API tokens and webhooks', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let receiver: Server;
  let receiverUrl: string;
  let sandboxToken: string;
  const received: Received[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/otklik`;
    [app, browser] = await Promise.all([
      // The operator's opt-in to endpoints on their own network: here, the receiver on loopback.
      startApp({
        smtp,
        env: { AUTH_RATE_LIMIT_PER_IP: '1000', WEBHOOKS_ALLOW_PRIVATE: 'true' },
        startTimeoutMs: 240_000,
      }),
      launchBrowser(),
    ]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Кофейня' });
    const account = await apiOk<{ sandbox_url: string }>(app.url, 'POST', '/v1/objects', {
      token: owner.tokens.access_token,
      body: { provider: 'sandbox', name: 'Кофейня «Зерно»' },
    });
    sandboxToken = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
    // A shared, loaded machine can take minutes to start the server.
  }, 420_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  });

  test('the administrator creates a token in the browser; a script calls the API with it', async () => {
    const context = await signedInContext(browser, owner.tokens, { baseURL: app.url, locale: 'ru-RU' });
    const page = await context.newPage();
    // The e2e runs share two cores with other suites: actions get the same room as the waits.
    page.setDefaultTimeout(45_000);
    // From the profile to the tokens.
    await page.goto('/settings/profile');
    await page.getByTestId('profile-api-tokens').click();
    await page.waitForURL('**/settings/api');
    await page.getByTestId('tokens-personal-list-empty').waitFor({ timeout: 45_000 });
    await screenshot(page, 'api-tokens-empty-ru');

    await page.getByTestId('token-add-personal').click();
    await page.getByTestId('token-create').click();
    await page.getByText('Обязательное поле').waitFor();
    await page.getByTestId('token-name').fill('Выгрузка в CRM');
    await page.getByTestId('token-create').click();
    const secret = (await page.getByTestId('token-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^otk_/);
    await screenshot(page, 'api-tokens-created-ru');
    await page.getByTestId('token-done').click();
    await page.getByTestId('token-row').filter({ hasText: 'Выгрузка в CRM' }).waitFor();
    // The list never shows the secret again.
    expect(await page.content()).not.toContain(secret);

    const res = await fetch(`${app.url}/v1/config`, { headers: { authorization: `Bearer ${secret}` } });
    expect(res.status).toBe(200);
    const config = (await res.json()) as { spaces: { name: string }[] };
    expect(config.spaces.map((s) => s.name)).toEqual(['Кофейня']);

    await page.reload();
    await expect
      .poll(async () => page.getByTestId('token-last-used').first().textContent(), { timeout: 45_000 })
      .not.toContain('Не использовался');

    // Revoked: the script is refused.
    await page.getByTestId('token-revoke').first().click();
    // The confirmation's own button (the list's "Отозвать" stays under the dialog's overlay).
    await page.getByRole('dialog').getByRole('button', { name: 'Отозвать' }).click();
    await page.getByTestId('tokens-personal-list-empty').waitFor();
    const after = await fetch(`${app.url}/v1/config`, { headers: { authorization: `Bearer ${secret}` } });
    expect(after.status).toBe(401);
    await context.close();
  });

  test('a webhook receives a signed item.created; the log shows it and it is sent again', async () => {
    const context = await signedInContext(browser, owner.tokens, { baseURL: app.url, locale: 'ru-RU' });
    const page = await context.newPage();
    // The e2e runs share two cores with other suites: actions get the same room as the waits.
    page.setDefaultTimeout(45_000);
    await page.goto('/settings/webhooks');
    await page.getByTestId('webhooks-empty').waitFor({ timeout: 45_000 });
    await screenshot(page, 'webhooks-empty-ru');
    await page.getByTestId('webhook-add').click();
    await page.getByTestId('webhook-url').fill(receiverUrl);
    await page.getByLabel('Описание').fill('CRM');
    await page.getByTestId('webhook-event-item.closed').check();
    await screenshot(page, 'webhooks-form-ru');
    await page.getByTestId('webhook-save').click();
    const secret = (await page.getByTestId('webhook-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^whsec_/);
    await page.getByTestId('webhook-done').click();
    await page.getByTestId('webhook-row').waitFor();

    await apiOk(app.url, 'POST', `/v1/sandbox/${sandboxToken}/comments`, {
      body: { author_name: 'Мария Ковалёва', text: 'Где мой заказ?' },
    });
    const first = await until(() =>
      received.find((r) => JSON.parse(r.body).data?.item?.text === 'Где мой заказ?'),
    );
    expect(JSON.parse(first.body).type).toBe('item.created');
    expect(verify(secret, first.headers, first.body)).toBe(true);
    expect(
      verify(`whsec_${Buffer.from('wrong key 123456').toString('base64')}`, first.headers, first.body),
    ).toBe(false);

    await page.getByTestId('webhook-log').click();
    const row = page.locator('[data-testid="delivery-row"][data-state="done"]').first();
    await row.waitFor({ timeout: 45_000 });
    await screenshot(page, 'webhooks-log-ru');
    const before = received.length;
    await row.getByTestId('delivery-redeliver').click();
    const again = await until(() => (received.length > before ? received.at(-1) : undefined));
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(verify(secret, again.headers, again.body)).toBe(true);
    await page
      .locator('[data-testid="delivery-row"][data-state="done"]')
      .first()
      .waitFor({ timeout: 45_000 });
    await context.close();
  });

  test('both screens in ru and en, at 375 and 1381 pixels', async () => {
    // A token to list.
    await apiOk(app.url, 'POST', '/v1/api_tokens', {
      token: owner.tokens.access_token,
      body: { kind: 'space', name: 'Интеграция', space_id: (await spaceIdOf()) ?? 0, role: 'operator' },
    });
    for (const [locale, lang] of [
      ['ru-RU', 'ru'],
      ['en-US', 'en'],
    ] as const) {
      await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: lang } });
      for (const width of [375, 1381]) {
        const context = await signedInContext(browser, owner.tokens, {
          baseURL: app.url,
          locale,
          viewport: { width, height: 900 },
        });
        const page = await context.newPage();
        page.setDefaultTimeout(45_000);
        await page.goto('/settings/api');
        await page.getByTestId('token-row').first().waitFor({ timeout: 45_000 });
        await page.getByText(lang === 'ru' ? 'Токены пространства' : 'Space tokens').waitFor();
        await screenshot(page, `api-tokens-${lang}-${width}`);
        await page.goto('/settings/webhooks');
        await page.getByTestId('webhook-log').click();
        await page.getByTestId('delivery-row').first().waitFor({ timeout: 45_000 });
        await screenshot(page, `webhooks-${lang}-${width}`);
        await context.close();
      }
    }
    // Eight page loads: more than the default test time when the machine is shared.
  }, 420_000);

  async function spaceIdOf() {
    const config = await apiOk<{ spaces: { id: number }[] }>(app.url, 'GET', '/v1/config', {
      token: owner.tokens.access_token,
    });
    return config.spaces[0]?.id;
  }
});
