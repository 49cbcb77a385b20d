// Issue 21, AI assistant: an administrator creates an AI agent in Settings → AI assistant pointing at a
// local OpenAI-compatible stub, opens a sandbox comment, presses "Suggest reply" and the stub's text
// lands in the composer (not sent); the stub saw the comment and the instructions but not the key.
// Settings and the composer are shot in ru and en at 375 and 1381 px.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type OpenAiStub, startOpenAiStub } from '../../apps/server/test/openai-stub';
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

interface ConfigBody {
  spaces: { id: number }[];
}

describe('AI assistant', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let stub: OpenAiStub;
  let owner: ConfirmedUser;
  let itemId: number;
  const KEY = 'sk-e2e-secret-key';

  const api = <T>(method: string, path: string, body?: unknown) =>
    apiOk<T>(app.url, method, path, { token: owner.tokens.access_token, ...(body ? { body } : {}) });

  beforeAll(async () => {
    smtp = await startSmtp();
    stub = await startOpenAiStub();
    [app, browser] = await Promise.all([startApp({ smtp }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Кофейня' });
    const spaceId = (await api<ConfigBody>('GET', '/v1/config')).spaces[0]!.id;
    await api('PUT', `/v1/spaces/${spaceId}/features`, { flags: { templates: true, ai: true } });
    const account = await api<{ sandbox_url: string }>('POST', '/v1/objects', {
      provider: 'sandbox',
      name: 'Кофейня «Зерно»',
    });
    const sandboxToken = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
    await apiOk(app.url, 'POST', `/v1/sandbox/${sandboxToken}/comments`, {
      body: { author_name: 'Мария Ковалёва', text: 'Когда вы открываетесь по выходным?' },
    });
    const list = await api<{ items: { id: number; text: string }[] }>('GET', '/v1/items');
    itemId = list.items.find((x) => x.text === 'Когда вы открываетесь по выходным?')!.id;
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await stub?.close();
    await smtp?.close();
  });

  test('create an agent in settings, suggest a reply on a comment: the stub’s text lands in the composer', async () => {
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    const page = await context.newPage();
    await page.goto('/settings/ai');
    await page.getByTestId('ai-empty').waitFor({ timeout: 60_000 });
    await page.getByTestId('ai-add').click();
    await page.getByTestId('ai-save').click();
    await page.getByText('Введите название агента').waitFor();
    await page.getByTestId('ai-name').fill('Помощник кофейни');
    await page.getByTestId('ai-base-url').fill(stub.baseUrl);
    await page.getByTestId('ai-model').fill('stub-model');
    await page.getByTestId('ai-api-key').fill(KEY);
    await page.getByTestId('ai-instructions').fill('Отвечай тепло, на «вы». INSTR-E2E');
    await page.getByTestId('ai-knowledge').fill('По выходным мы открыты с 10:00 до 20:00.');
    await page.getByTestId('ai-save').click();
    await page.getByTestId('ai-row').getByText('Помощник кофейни').waitFor();
    await page.getByTestId('ai-row').getByText('ключ задан').waitFor();

    stub.reply.text = 'Здравствуйте, Мария! По выходным мы открыты с 10:00 до 20:00.';
    await page.goto(`/items/${itemId}`);
    await page.getByTestId('item-main').waitFor({ timeout: 60_000 });
    await page.getByTestId('ai-suggest').click({ timeout: 60_000 });
    await expect
      .poll(() => page.getByTestId('composer-text').inputValue(), { timeout: 30_000 })
      .toBe(stub.reply.text);
    const sent = stub.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    const prompt = JSON.stringify(sent.body.messages);
    expect(prompt).toContain('Когда вы открываетесь по выходным?');
    expect(prompt).toContain('INSTR-E2E');
    expect(prompt).not.toContain(KEY);
    expect(sent.body.stream).toBe(true);

    // A summary of the conversation opens beside the reply box and leaves the draft alone.
    stub.reply.text = '- Клиентка спрашивает часы работы по выходным';
    await page.getByTestId('ai-suggest-more').click();
    await page.getByTestId('ai-summarize').click();
    await expect
      .poll(() => page.getByTestId('ai-summary').textContent(), { timeout: 30_000 })
      .toBe(stub.reply.text);
    expect(await page.getByTestId('composer-text').inputValue()).toBe(
      'Здравствуйте, Мария! По выходным мы открыты с 10:00 до 20:00.',
    );
    await page.keyboard.press('Escape');

    // Stop: the provider holds its stream after the first word; "Stop" keeps that word and the
    // provider's request is closed.
    stub.reply.text = 'Добрый день! Сейчас уточню.';
    stub.reply.hold = true;
    try {
      const providerClosed = stub.nextCancel();
      await page.getByTestId('ai-suggest').click();
      await expect
        .poll(() => page.getByTestId('composer-text').inputValue(), { timeout: 30_000 })
        .toBe('Добрый ');
      await page.getByTestId('ai-stop').click();
      await providerClosed;
      await page.getByTestId('ai-suggest').waitFor();
      expect(await page.getByTestId('composer-text').inputValue()).toBe('Добрый ');
    } finally {
      stub.reply.hold = false;
    }
    // Tag suggestions: the space's tags by name are 1 Время работы, 2 Жалоба; the agent answers [1].
    const spaceId = (await api<ConfigBody>('GET', '/v1/config')).spaces[0]!.id;
    const hours = await api<{ id: number }>('POST', '/v1/tags', { space_id: spaceId, name: 'Время работы' });
    await api('POST', '/v1/tags', { space_id: spaceId, name: 'Жалоба' });
    await page.reload();
    stub.reply.text = '[1]';
    await page.getByTestId('ai-tags-suggest').click({ timeout: 60_000 });
    await page.getByTestId('ai-tag').getByText('Время работы').click();
    await expect
      .poll(async () => (await api<{ item: { tags: number[] } }>('GET', `/v1/items/${itemId}`)).item.tags)
      .toEqual([hours.id]);
    expect(JSON.stringify(stub.requests.at(-1)!.body.messages)).toContain('2. Жалоба');
    await screenshot(page, 'ai-tags-ru-1381');

    // Nothing was sent: the comment is still waiting for a reply.
    const item = await api<{ item: { status: string } }>('GET', `/v1/items/${itemId}`);
    expect(item.item.status).toBe('new');
    await context.close();
  }, 180_000);

  test('Settings → AI assistant, the form and the composer in ru and en at 375 and 1381 px', async () => {
    for (const [locale, lang] of [
      ['ru-RU', 'ru'],
      ['en-US', 'en'],
    ] as const) {
      await api('PUT', '/v1/me', { locale: lang });
      for (const width of [375, 1381]) {
        const context = await signedInContext(browser, owner.tokens, {
          baseURL: app.url,
          locale,
          viewport: { width, height: 900 },
        });
        const page = await context.newPage();
        await page.goto('/settings/ai');
        await page.getByTestId('ai-row').first().waitFor({ timeout: 60_000 });
        await page
          .getByText(lang === 'ru' ? 'ИИ-ассистент' : 'AI assistant')
          .first()
          .waitFor();
        await screenshot(page, `ai-list-${lang}-${width}`);
        await page.getByTestId('ai-row').first().getByRole('link').click();
        await page.getByTestId('ai-name').waitFor();
        await screenshot(page, `ai-form-${lang}-${width}`);
        await page.goto(`/items/${itemId}`);
        await page.getByTestId('item-main').waitFor({ timeout: 60_000 });
        await page.getByTestId('ai-suggest').click({ timeout: 60_000 });
        await expect
          .poll(() => page.getByTestId('composer-text').inputValue(), { timeout: 30_000 })
          .toBe(stub.reply.text);
        await screenshot(page, `ai-composer-${lang}-${width}`);
        await context.close();
      }
    }
  }, 300_000);
});
