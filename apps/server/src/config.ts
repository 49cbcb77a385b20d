import { resolve } from 'node:path';
import { z } from 'zod';

// The one place that reads process.env (CONVENTIONS §9). A bad value stops start with one clear line.

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(`${p}://`)), {
      message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    });

const envSchema = z.object({
  NODE_ENV: z.string().default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  APP_URL: optionalUrl(['http', 'https']),
  SMTP_URL: optionalUrl(['smtp', 'smtps']),
  MAIL_FROM: z.string().default('Otklik <no-reply@otklik.local>'),
  SECRET_KEY: z
    .string()
    .optional()
    .refine((v) => v === undefined || v.length >= 32, { message: 'must be at least 32 characters' }),
  WEB_CLIENT_SECRET: z.string().min(1).default('otklik-web-public'),
  RECAPTCHA_SECRET: z.string().optional(),
  RECAPTCHA_VERIFY_URL: z.string().url().default('https://www.google.com/recaptcha/api/siteverify'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().positive().default(30),
  AUTH_RATE_LIMIT_PER_USER: z.coerce.number().int().positive().default(10),
  AUTH_RATE_LIMIT_WINDOW_S: z.coerce.number().int().positive().default(60),
  VK_CLIENT_ID: z.string().optional(),
  VK_CLIENT_SECRET: z.string().optional(),
  VK_OAUTH_URL: z.string().url().default('https://oauth.vk.com'),
  VK_API_URL: z.string().url().default('https://api.vk.com'),
  FACEBOOK_CLIENT_ID: z.string().optional(),
  FACEBOOK_CLIENT_SECRET: z.string().optional(),
  FACEBOOK_OAUTH_URL: z.string().url().default('https://www.facebook.com'),
  FACEBOOK_GRAPH_URL: z.string().url().default('https://graph.facebook.com'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_OAUTH_URL: z.string().url().default('https://accounts.google.com'),
  GOOGLE_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com'),
  GOOGLE_USERINFO_URL: z.string().url().default('https://openidconnect.googleapis.com'),
  YANDEX_CLIENT_ID: z.string().optional(),
  YANDEX_CLIENT_SECRET: z.string().optional(),
  YANDEX_OAUTH_URL: z.string().url().default('https://oauth.yandex.ru'),
  YANDEX_LOGIN_URL: z.string().url().default('https://login.yandex.ru'),
  // Networks' API base URLs (issue #5): point them at a self-hosted server (the Telegram local Bot API
  // server) or at an emulator in tests.
  TELEGRAM_API_URL: z.string().url().default('https://api.telegram.org'),
  VK_OAUTH_GROUP_SCOPE: z.string().default('messages,wall,photos,video,manage'),
  VK_API_VERSION: z.string().default('5.199'),
  WHATSAPP_GRAPH_URL: z.string().url().default('https://graph.facebook.com'),
  WHATSAPP_API_VERSION: z.string().default('v21.0'),
  MAX_API_URL: z.string().url().default('https://platform-api2.max.ru'),
  AVITO_API_URL: z.string().url().default('https://api.avito.ru'),
  VIBER_API_URL: z.string().url().default('https://chatapi.viber.com'),
  /**
   * How accounts learn about new content: 'webhook' (the network pushes to APP_URL), 'polling' (we ask),
   * or 'auto' — webhooks when APP_URL is reachable from outside, polling when it is a local address.
   */
  PROVIDER_UPDATES: z.enum(['auto', 'webhook', 'polling']).default('auto'),
  /** Seconds a long poll may wait at the network (Telegram getUpdates timeout, VK wait). */
  POLL_TIMEOUT_S: z.coerce.number().int().min(0).max(90).default(25),
  /** Largest network file the media proxy fetches and keeps (Telegram bots get at most 20 MB). */
  MEDIA_MAX_MB: z.coerce.number().int().min(1).max(100).default(20),
  /**
   * Whether network files at private addresses (127.0.0.1, 10.x, …) may be fetched. Off: a file link
   * can never make the server call into its own network. Tests turn it on for emulators on 127.0.0.1.
   */
  MEDIA_FETCH_PRIVATE: z.enum(['true', 'false']).default('false'),
  /**
   * Memory for list pages reused while the database is unchanged (modules/inbox/page-cache.ts); 0 turns
   * the reuse off.
   */
  LIST_CACHE_MB: z.coerce.number().int().min(0).max(1024).default(32),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  dataDir: string;
  appUrl: string;
  isTest: boolean;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  const cfg = parsed.data;
  return {
    ...cfg,
    dataDir: resolve(cfg.DATA_DIR),
    appUrl: (cfg.APP_URL ?? `http://localhost:${cfg.PORT}`).replace(/\/$/, ''),
    isTest: cfg.NODE_ENV === 'test',
  };
}

/** Config for tests: defaults plus overrides, never the developer's environment. */
export function testConfig(overrides: Partial<Record<keyof Env, string>> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SECRET_KEY: 'test-secret-key-0123456789abcdef0123456789',
    APP_URL: 'http://127.0.0.1:3000',
    ...overrides,
  });
}
