// Issue #2 item 17 — what the public screens say, in Russian (the default) and English (?locale=en):
// every docs/product/validation.md validation message on its form, the browser-language choice for signed-out visitors
// (docs/product/errors.md), the not-found page (docs/product/screens-and-routes.md), page titles "<Screen> — Otklik" (docs/product/overview.md); and screenshots of
// login, signup and the signed-in shell at the docs/product/limits.md breakpoints (test-results/screens/).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AppHandle,
  apiOk,
  apiRequest,
  type BrowserHandle,
  type ConfirmedUser,
  createConfirmedUser,
  extractLink,
  launchBrowser,
  type SmtpHandle,
  screenshot,
  signInThroughUi,
  startApp,
  startSmtp,
  waitForFieldError,
  waitForPath,
  waitForTitle,
  webClient,
} from '../harness';

type Locale = 'ru' | 'en';

// Labels (apps/web/src/i18n/{ru,en}.ts), titles (titles.{ru,en}.ts) and messages: Russian verbatim from
// docs/product/validation.md, English from the en dictionary of packages/shared/src/messages.ts.
const text = {
  ru: {
    login: {
      title: 'Вход — Otklik',
      heading: 'Вход в Otklik',
      email: 'Email',
      password: 'Пароль',
      submit: 'Войти',
      emailRequired: 'Введите email',
      emailInvalid: 'Укажите корректный email',
      passwordRequired: 'Введите пароль',
    },
    passwordMin: 'Пароль должен содержать не менее 8 символов',
    signup: {
      title: 'Регистрация — Otklik',
      name: 'Имя',
      email: 'Email',
      password: 'Пароль',
      company: 'Компания',
      submit: 'Зарегистрироваться',
      nameRequired: 'Укажите имя',
      companyRequired: 'Укажите компанию',
      emailInvalid: 'Введите корректный email',
      passwordRequired: 'Задайте пароль',
      passwordComplexity: 'Должен содержать хотя бы одну цифру и один спецсимвол',
    },
    recovery: {
      title: 'Восстановление пароля — Otklik',
      email: 'Email',
      submit: 'Отправить ссылку',
      emailRequired: 'Укажите email',
      emailInvalid: 'Введите корректный email',
    },
    reset: {
      title: 'Новый пароль — Otklik',
      password: 'Новый пароль',
      confirm: 'Подтверждение пароля',
      submit: 'Сохранить пароль',
      mismatch: 'Подтверждение не совпадает с паролем',
    },
    notFound: { title: 'Страница не найдена — Otklik', heading: 'Страница не найдена' },
    wrongPassword: 'Введен неверный пароль',
  },
  en: {
    login: {
      title: 'Sign in — Otklik',
      heading: 'Sign in to Otklik',
      email: 'Email',
      password: 'Password',
      submit: 'Sign in',
      emailRequired: 'Enter email',
      emailInvalid: 'Enter a valid email',
      passwordRequired: 'Enter password',
    },
    passwordMin: 'Password must be at least 8 characters',
    signup: {
      title: 'Sign up — Otklik',
      name: 'Name',
      email: 'Email',
      password: 'Password',
      company: 'Company',
      submit: 'Sign up',
      nameRequired: 'Enter your name',
      companyRequired: 'Enter your company',
      emailInvalid: 'Enter a valid email',
      passwordRequired: 'Set a password',
      passwordComplexity: 'Must contain at least one digit and one special character',
    },
    recovery: {
      title: 'Password recovery — Otklik',
      email: 'Email',
      submit: 'Send link',
      emailRequired: 'Enter email',
      emailInvalid: 'Enter a valid email',
    },
    reset: {
      title: 'New password — Otklik',
      password: 'New password',
      confirm: 'Confirm password',
      submit: 'Save password',
      mismatch: 'Confirmation does not match the password',
    },
    notFound: { title: 'Page not found — Otklik', heading: 'Page not found' },
    wrongPassword: 'Wrong password',
  },
} as const;

/** The browser language that goes with each interface language; en pages also get ?locale=en. */
const browserLocale: Record<Locale, string> = { ru: 'ru-RU', en: 'en-US' };
const withLocale = (path: string, locale: Locale) =>
  locale === 'ru' ? path : `${path}${path.includes('?') ? '&' : '?'}locale=en`;

describe('public screens: validation messages, language, titles, not-found, screenshots', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let user: ConfirmedUser;
  let resetHash = '';

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      startApp({ smtp, env: { AUTH_RATE_LIMIT_PER_IP: '1000' } }),
      launchBrowser(),
    ]);
    user = await createConfirmedUser(app.url, smtp, { name: 'Вера Проверкина' });
    // A live reset link for the reset form (validation never submits it, so it stays usable).
    await apiOk(app.url, 'POST', '/v1/recovery', { body: { email: user.email } });
    const link = extractLink(await smtp.waitForMail({ to: user.email }), '/reset_password/');
    resetHash = new URL(link).pathname.split('/').pop()!;
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  /** A page in a fresh context; counts the API calls it makes, so tests can show a form stayed local. */
  async function openPage(locale: Locale, width = 1280) {
    const page = await browser.newPage({
      baseURL: app.url,
      locale: browserLocale[locale],
      viewport: { width, height: 900 },
    });
    const apiCalls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/v1/')) apiCalls.push(`${request.method()} ${url.pathname}`);
    });
    return { page, apiCalls };
  }

  for (const locale of ['ru', 'en'] as const) {
    const t = text[locale];

    describe(`in ${locale}`, () => {
      test('login: required email and password, a valid email, 8 characters', async () => {
        const { page, apiCalls } = await openPage(locale);
        try {
          await page.goto(withLocale('/login', locale));
          await waitForTitle(page, t.login.title);
          await page.getByRole('heading', { name: t.login.heading }).waitFor();
          const email = page.getByLabel(t.login.email, { exact: true });
          const password = page.getByLabel(t.login.password, { exact: true });
          const submit = page.getByRole('button', { name: t.login.submit, exact: true });

          await submit.click();
          await waitForFieldError(email, t.login.emailRequired);
          await waitForFieldError(password, t.login.passwordRequired);

          await email.fill('not-an-email');
          await password.fill('short');
          await submit.click();
          await waitForFieldError(email, t.login.emailInvalid);
          await waitForFieldError(password, t.passwordMin);

          // Seven characters are still too short; the form never reached the server.
          await password.fill('1234567');
          await submit.click();
          await waitForFieldError(password, t.passwordMin);
          expect(apiCalls.filter((call) => call.includes('/oauth2/token'))).toEqual([]);
        } finally {
          await page.context().close();
        }
      });

      test('signup: name, company, email, password required; 8 characters; a digit and a special character', async () => {
        const { page, apiCalls } = await openPage(locale);
        try {
          await page.goto(withLocale('/signup', locale));
          await waitForTitle(page, t.signup.title);
          const form = page.getByTestId('signup-form');
          const name = form.getByLabel(t.signup.name, { exact: true });
          const email = form.getByLabel(t.signup.email, { exact: true });
          const password = form.getByLabel(t.signup.password, { exact: true });
          const company = form.getByLabel(t.signup.company, { exact: true });
          const submit = form.getByRole('button', { name: t.signup.submit, exact: true });

          await submit.click();
          await waitForFieldError(name, t.signup.nameRequired);
          await waitForFieldError(company, t.signup.companyRequired);
          await waitForFieldError(email, t.signup.emailInvalid);
          await waitForFieldError(password, t.signup.passwordRequired);

          // Blanks are not a name or a company (values are trimmed).
          await name.fill('   ');
          await company.fill('   ');
          await email.fill('user@');
          await password.fill('Ab1!');
          await submit.click();
          await waitForFieldError(name, t.signup.nameRequired);
          await waitForFieldError(company, t.signup.companyRequired);
          await waitForFieldError(email, t.signup.emailInvalid);
          await waitForFieldError(password, t.passwordMin);

          await password.fill('longenoughpassword');
          await submit.click();
          await waitForFieldError(password, t.signup.passwordComplexity);
          await password.fill('longenough1');
          await submit.click();
          await waitForFieldError(password, t.signup.passwordComplexity);
          await password.fill('longenough!');
          await submit.click();
          await waitForFieldError(password, t.signup.passwordComplexity);
          expect(apiCalls.filter((call) => call.includes('/signup'))).toEqual([]);
        } finally {
          await page.context().close();
        }
      });

      test('recovery: email required and valid', async () => {
        const { page, apiCalls } = await openPage(locale);
        try {
          await page.goto(withLocale('/recovery', locale));
          await waitForTitle(page, t.recovery.title);
          const email = page.getByLabel(t.recovery.email, { exact: true });
          const submit = page.getByRole('button', { name: t.recovery.submit, exact: true });

          await submit.click();
          await waitForFieldError(email, t.recovery.emailRequired);
          await email.fill('nobody-at-example.test');
          await submit.click();
          await waitForFieldError(email, t.recovery.emailInvalid);
          expect(apiCalls.filter((call) => call.includes('/recovery'))).toEqual([]);
        } finally {
          await page.context().close();
        }
      });

      test('reset password: 8 characters; the confirmation must be given and match', async () => {
        const { page, apiCalls } = await openPage(locale);
        try {
          await page.goto(withLocale(`/reset_password/${resetHash}`, locale));
          await waitForTitle(page, t.reset.title);
          const password = page.getByLabel(t.reset.password, { exact: true });
          const confirm = page.getByLabel(t.reset.confirm, { exact: true });
          const submit = page.getByRole('button', { name: t.reset.submit, exact: true });
          // The link is checked first; the form is enabled once it is good.
          await page.waitForFunction(
            (label) =>
              [...document.querySelectorAll('button[type="submit"]')].some(
                (button) => button.textContent?.trim() === label && !(button as HTMLButtonElement).disabled,
              ),
            t.reset.submit,
          );

          await password.fill('Abcdefg1!');
          await submit.click();
          await waitForFieldError(confirm, t.reset.mismatch);

          await confirm.fill('Abcdefg2!');
          await submit.click();
          await waitForFieldError(confirm, t.reset.mismatch);

          await password.fill('Ab1!');
          await confirm.fill('Ab1!');
          await submit.click();
          await waitForFieldError(password, t.passwordMin);
          expect(apiCalls.filter((call) => call === 'POST /v1/reset_password')).toEqual([]);
        } finally {
          await page.context().close();
        }
      });

      test('an unknown path shows the not-found page', async () => {
        const { page } = await openPage(locale);
        try {
          await page.goto(withLocale('/definitely/not/a/page', locale));
          await page.getByTestId('not-found').waitFor();
          await page.getByRole('heading', { name: t.notFound.heading }).waitFor();
          await waitForTitle(page, t.notFound.title);
          expect(new URL(page.url()).pathname).toBe('/definitely/not/a/page');
        } finally {
          await page.context().close();
        }
      });

      // PRODUCT BUG (apps/web/src/forms/useZodForm.ts): a click on the submit button blurs the field the
      // user was typing in, and 150 ms later the blur handler re-validates that field with the client
      // schema, which clears any error on it — including the server's error that arrived meanwhile. With a
      // server answering within 150 ms, 'Введен неверный пароль' / 'Неверный код' flash and vanish. Here
      // the server's real answer is replayed at once and the page clock is paused, so the order (server
      // error first, then the blur timer) is deterministic; this test fails until a delayed blur
      // validation no longer erases an error set after it was scheduled.
      test('a server field error stays on the field after the submit click (the blur must not erase it)', async () => {
        const real = await apiRequest(app.url, 'POST', '/v1/oauth2/token', {
          locale,
          body: { grant_type: 'password', ...webClient, username: user.email, password: 'Wrong-pass-123' },
        });
        expect(real.status).toBe(400);
        expect(real.body).toMatchObject({ error: t.wrongPassword, fields: { password: t.wrongPassword } });

        const { page } = await openPage(locale);
        try {
          await page.clock.install();
          await page.route('**/v1/oauth2/token', (route) =>
            route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify(real.body) }),
          );
          await page.goto(withLocale('/login', locale));
          const password = page.getByLabel(t.login.password, { exact: true });
          await page.getByLabel(t.login.email, { exact: true }).fill(user.email);
          await password.fill('Wrong-pass-123');

          // Time stands still from here: the blur's 150 ms timer waits until the clock is run.
          await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
          await page.getByRole('button', { name: t.login.submit, exact: true }).click();
          await waitForFieldError(password, t.wrongPassword);
          await page.clock.runFor(1_000);
          await waitForFieldError(password, t.wrongPassword, 1_000);
        } finally {
          await page.context().close();
        }
      });
    });
  }

  test('a signed-out browser that prefers English gets English; one that prefers Russian gets Russian', async () => {
    for (const [browserLanguage, locale] of [
      ['en-US', 'en'],
      ['de-DE', 'en'],
      ['ru-RU', 'ru'],
    ] as const) {
      const page = await browser.newPage({ baseURL: app.url, locale: browserLanguage });
      try {
        await page.goto('/login');
        await page.getByRole('heading', { name: text[locale].login.heading }).waitFor();
        await waitForTitle(page, text[locale].login.title);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
      } finally {
        await page.context().close();
      }
    }
  });

  test('?locale= switches the language and is remembered for the next page', async () => {
    const page = await browser.newPage({ baseURL: app.url, locale: 'ru-RU' });
    try {
      await page.goto('/login?locale=en');
      await page.getByRole('heading', { name: text.en.login.heading }).waitFor();
      await page.goto('/recovery');
      await waitForTitle(page, text.en.recovery.title);
      await page.goto('/recovery?locale=ru');
      await waitForTitle(page, text.ru.recovery.title);
    } finally {
      await page.context().close();
    }
  });

  // docs/product/limits.md breakpoints: mobile 768, tablet 1025, laptop 1381; 375 is a phone.
  const widths = [375, 768, 1025, 1381];

  async function atWidth(page: Page, width: number) {
    await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
    await page.waitForFunction((w) => window.innerWidth === w, width);
    // Two frames: resize observers and media-query listeners have run and the layout is painted.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
  }

  /** Texts shown cut with an ellipsis (text-overflow) because they do not fit their box. */
  const cutTexts = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('body *')]
        .filter(
          (el) => getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1,
        )
        .map((el) => el.textContent?.trim() ?? ''),
    );

  for (const locale of ['ru', 'en'] as const) {
    test(`screenshots (${locale}): login, signup and the shell at ${widths.join(', ')} px`, async () => {
      const t = text[locale];
      const { page } = await openPage(locale, widths[0]);
      // Public screens show their texts whole at every width (checked after all screenshots are taken).
      const cut: string[] = [];
      try {
        await page.goto(withLocale('/signup', locale));
        await page.getByTestId('signup-form').waitFor();
        for (const width of widths) {
          await atWidth(page, width);
          await screenshot(page, `signup-${locale}-${width}`);
          for (const item of await cutTexts(page)) cut.push(`signup at ${width}px: "${item}"`);
        }
        await page.goto(withLocale('/login', locale));
        await page.getByRole('heading', { name: t.login.heading }).waitFor();
        for (const width of widths) {
          await atWidth(page, width);
          await screenshot(page, `login-${locale}-${width}`);
          for (const item of await cutTexts(page)) cut.push(`login at ${width}px: "${item}"`);
        }
        // Nothing overflows sideways on a phone.
        await atWidth(page, 375);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

        await signInThroughUi(page, user.email, user.password);
        await page.goto(withLocale('/', locale));
        await waitForPath(page, '/');
        await page.getByTestId('user-menu').waitFor();
        await waitForTitle(page, locale === 'ru' ? 'Статистика — Otklik' : 'Statistics — Otklik');
        // The overview itself, not its loader: the width check is about what a person gets to see.
        await page.getByTestId('stats-period').waitFor();
        for (const width of widths) {
          await atWidth(page, width);
          await page.getByTestId('user-menu').waitFor();
          await screenshot(page, `shell-${locale}-${width}`);
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        }
        // PRODUCT BUG (ru, 375 px): the signup trial badge "14 дней бесплатно, без привязки карты" is cut
        // to "14 дней бесплатно, без привязк…" (Mantine Badge never wraps) — SignupScreen.tsx.
        expect(cut).toEqual([]);
      } finally {
        await page.context().close();
      }
    });
  }
});
