// Issue 21, the AI used explicitly by an auto-rule and a chat-bot: an administrator adds the rule action
// "Reply with an AI suggestion" and the bot step "AI answer" in their editors, pointing at an agent on a
// local OpenAI-compatible stub; a matching sandbox comment gets the stub's text as its reply, and a
// customer's message gets it from the bot. Shots of both editors in ru at 1381 px.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type OpenAiStub, startOpenAiStub } from '../../apps/server/test/openai-stub';
import {
  type AppHandle,
  apiOk,
  type BrowserHandle,
  type ConfirmedUser,
  createConfirmedUser,
  launchBrowser,
  runAdmin,
  type SmtpHandle,
  screenshot,
  signedInContext,
  startApp,
  startSmtp,
} from '../harness';

const ANSWER = 'Доставка занимает два дня, курьер позвонит заранее.';

describe('AI in auto-rules and chat-bots', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let stub: OpenAiStub;
  let owner: ConfirmedUser;
  let spaceId: number;
  let sandboxToken: string;
  const env = { AUTH_RATE_LIMIT_PER_IP: '1000' };

  const api = <T>(method: string, path: string, body?: unknown) =>
    apiOk<T>(app.url, method, path, { token: owner.tokens.access_token, ...(body ? { body } : {}) });

  beforeAll(async () => {
    smtp = await startSmtp();
    stub = await startOpenAiStub();
    stub.reply.text = ANSWER;
    [app, browser] = await Promise.all([startApp({ smtp, env }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Кофейня' });
    spaceId = (await api<{ spaces: { id: number }[] }>('GET', '/v1/config')).spaces[0]!.id;
    // Auto-rules come with a special tariff: the operator moves the space there.
    const dataDir = app.dataDir;
    await app.stop({ keepData: true });
    runAdmin(dataDir, ['set-tariff', String(spaceId), '20']);
    app = await startApp({ smtp, env, dataDir });
    await api('PUT', `/v1/spaces/${spaceId}/features`, { flags: { templates: true, ai: true, bots: true } });
    const account = await api<{ sandbox_url: string }>('POST', '/v1/objects', {
      provider: 'sandbox',
      name: 'Кофейня «Зерно»',
    });
    sandboxToken = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
    await api('POST', '/v1/ai/agents', {
      space_id: spaceId,
      name: 'Помощник кофейни',
      base_url: stub.baseUrl,
      model: 'stub-model',
      api_key: 'sk-e2e-automation',
      instructions: 'Отвечай коротко.',
      knowledge: [],
    });
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await stub?.close();
    await smtp?.close();
  });

  test('a rule with "Reply with an AI suggestion" answers a matching comment with the stub’s text', async () => {
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error.message));
    await page.goto('/settings/rules');
    await page.getByTestId('rules-empty').waitFor({ timeout: 60_000 });
    await page.getByTestId('rule-add').click();
    await page.getByTestId('rule-name').fill('Вопросы о доставке');
    await page.getByTestId('rule-add-condition').click();
    await page.getByRole('option', { name: 'Текст содержит', exact: true }).click();
    await page.getByTestId('rule-words').fill('доставк');
    await page.getByTestId('rule-words').press('Enter');
    await page.getByTestId('rule-add-action').click();
    await page.getByRole('option', { name: 'Ответить с помощью ИИ', exact: true }).click();
    // Without an agent the form says so.
    await page.getByTestId('rule-save').click();
    await page.getByText('Выберите ИИ-агента').waitFor();
    await page.getByTestId('rule-ai-agent').click();
    await page.getByRole('option', { name: 'Помощник кофейни' }).click();
    await page.getByTestId('rule-ai-fallback').fill('Спасибо! Оператор ответит в течение часа.');
    await screenshot(page, 'ai-rule-form-ru-1381');
    await page.getByTestId('rule-save').click();
    await page.getByTestId('rule-row').filter({ hasText: 'Вопросы о доставке' }).waitFor({ timeout: 60_000 });
    const [rule] = (await api<{ items: { actions: unknown[] }[] }>('GET', `/v1/rules?space_id=${spaceId}`))
      .items;
    expect(rule!.actions).toEqual([
      expect.objectContaining({
        type: 'ai_reply',
        mode: 'send',
        fallback_text: 'Спасибо! Оператор ответит в течение часа.',
      }),
    ]);

    await apiOk(app.url, 'POST', `/v1/sandbox/${sandboxToken}/comments`, {
      body: { author_name: 'Пётр Соколов', text: 'Сколько идёт доставка в Казань?' },
    });
    const question = async () =>
      (
        await api<{ items: { id: number; text: string }[] }>('GET', '/v1/items?status=new&status=closed')
      ).items.find((x) => x.text === 'Сколько идёт доставка в Казань?')?.id;
    await expect.poll(question, { timeout: 30_000 }).toBeDefined();
    const itemId = (await question())!;
    // The item with its replies (ours included): the stub's text, and the comment closed with a reply.
    const replies = async () => {
      const body = await api<{ item: { status: string }; thread: { text: string; is_own: boolean }[] }>(
        'GET',
        `/v1/items/${itemId}`,
      );
      return body.thread.filter((x) => x.is_own).map((x) => x.text);
    };
    await expect.poll(replies, { timeout: 60_000 }).toContain(ANSWER);
    await context.close();
  }, 600_000);

  test('a bot with the step "AI answer" sends the stub’s text to the customer', async () => {
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error.message));
    await page.goto('/settings/bots');
    await page.getByTestId('bots-empty').waitFor({ timeout: 60_000 });
    await page.getByTestId('bot-add').click();
    await page.getByTestId('bot-name').fill('Бот с ИИ');
    await page.getByTestId('bot-account').click();
    await page.getByRole('option', { name: /Кофейня «Зерно»/ }).click();
    await page.getByTestId('bot-step-text').nth(0).fill('Здравствуйте! Сейчас отвечу.');
    await page.getByTestId('bot-add-step-steps').click();
    await page.getByTestId('bot-add-ai').click();
    const step = page.getByTestId('bot-step').nth(2);
    await step.getByTestId('bot-step-ai-agent').click();
    await page.getByRole('option', { name: 'Помощник кофейни' }).click();
    await step.getByRole('button', { name: 'Выше' }).click();
    await screenshot(page, 'ai-bot-form-ru-1381');
    await page.getByTestId('bot-save').click();
    await page.getByTestId('bot-row').filter({ hasText: 'Бот с ИИ' }).waitFor({ timeout: 60_000 });

    await apiOk(app.url, 'POST', `/v1/sandbox/${sandboxToken}/messages`, {
      body: { author_name: 'Анна Белова', text: 'Привезёте заказ завтра?', peer: 'anna' },
    });
    await expect
      .poll(async () => (await api<{ items: { id: number }[] }>('GET', '/v1/chats')).items.length, {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    const chatId = (await api<{ items: { id: number }[] }>('GET', '/v1/chats')).items[0]!.id;
    const own = async () =>
      (await api<{ items: { text: string; is_own: boolean }[] }>('GET', `/v1/chats/${chatId}/messages`)).items
        .filter((m) => m.is_own)
        .map((m) => m.text);
    await expect.poll(own, { timeout: 60_000 }).toContain(ANSWER);
    expect((await own())[0]).toBe('Здравствуйте! Сейчас отвечу.');
    await context.close();
  }, 600_000);
});
