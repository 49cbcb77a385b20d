import { isIP } from 'node:net';
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

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isTrustedProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n >= 0 && n <= (family === 4 ? 32 : 128);
}

const envSchema = z.object({
  NODE_ENV: z.string().default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  /**
   * Embedded database only: a PGlite tarball (dumpDataDir) to start a new DATA_DIR from instead of an
   * empty one — the e2e suite seeds every server with one migrated database. Ignored once DATA_DIR has one.
   */
  PGLITE_SEED: z.string().optional(),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  /**
   * Start of every Redis key and pub/sub channel this install uses (events, locks, rate limits): installs
   * that share one Redis server keep apart by giving each its own (the e2e suite gives each worker one).
   */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,64}$/, { message: 'letters, digits and : _ . - only, at most 64' })
    .default('otklik:'),
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
  /** The public key of the widget. reCAPTCHA is on only with both this and RECAPTCHA_SECRET. */
  RECAPTCHA_SITE_KEY: z.string().optional(),
  /** Google's widget script; a test serves a stub instead. Its origin joins the CSP only when reCAPTCHA is on. */
  RECAPTCHA_SCRIPT_URL: z.string().url().default('https://www.google.com/recaptcha/api.js?render=explicit'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  /** Login and recovery attempts one client address may make per AUTH_RATE_LIMIT_WINDOW_S. */
  AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().positive().default(30),
  /**
   * Attempts on one account from one address per window. Keyed by (address, account), never by the
   * account alone, so nobody can lock a colleague out by failing on purpose (modules/auth/throttle.ts).
   */
  AUTH_RATE_LIMIT_PER_USER: z.coerce.number().int().positive().default(10),
  AUTH_RATE_LIMIT_WINDOW_S: z.coerce.number().int().positive().default(60),
  /**
   * Calls that create accounts or send mail to any address (signup, invitation and provider signup,
   * recovery, confirmation mails): per client address and for the whole instance, per window — so
   * nobody can flood the mail server or fill the database with accounts.
   */
  SIGNUP_RATE_LIMIT_PER_IP: z.coerce.number().int().positive().default(10),
  SIGNUP_RATE_LIMIT_GLOBAL: z.coerce.number().int().positive().default(200),
  SIGNUP_RATE_LIMIT_WINDOW_S: z.coerce.number().int().positive().default(3_600),
  /**
   * Failed logins (wrong password, unknown email, wrong code) an address may make per
   * AUTH_FAILURE_WINDOW_S before it waits between attempts: 1 s, 2 s, 4 s, … up to AUTH_BACKOFF_MAX_S.
   */
  AUTH_FAILURES_PER_IP: z.coerce.number().int().positive().default(10),
  AUTH_FAILURE_WINDOW_S: z.coerce.number().int().positive().default(3600),
  AUTH_BACKOFF_MAX_S: z.coerce.number().int().positive().default(600),
  /**
   * Which peers may tell us the client's address and protocol (X-Forwarded-For/-Proto/-Host): a
   * comma-separated list of addresses, CIDRs and the names loopback, linklocal, uniquelocal; `none`
   * trusts nobody. Default `loopback`: a reverse proxy on the same host; anything that can connect from
   * loopback is already on the machine. Requests from other peers are taken at their socket address.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('loopback')
    .transform((v) => (v === '' || v === 'none' ? [] : v.split(',').map((part) => part.trim())))
    .refine((list) => list.every(isTrustedProxyEntry), {
      message: 'must be none or a comma-separated list of addresses, CIDRs, loopback, linklocal, uniquelocal',
    }),
  /**
   * Origins besides APP_URL's (and the request's own) whose pages may open the live socket /v1/ws,
   * comma-separated (e.g. the Vite dev server). A request without Origin (not a browser) is allowed.
   */
  ALLOWED_ORIGINS: z
    .string()
    .trim()
    .default('')
    .transform((v) => (v ? v.split(',').map((part) => part.trim().replace(/\/$/, '')) : []))
    .refine((list) => list.every((o) => /^https?:\/\/[^/]+$/.test(o)), {
      message: 'must be a comma-separated list of origins like https://app.example.com',
    }),
  VK_CLIENT_ID: z.string().optional(),
  VK_CLIENT_SECRET: z.string().optional(),
  VK_OAUTH_URL: z.string().url().default('https://oauth.vk.com'),
  VK_API_URL: z.string().url().default('https://api.vk.com'),
  FACEBOOK_CLIENT_ID: z.string().optional(),
  FACEBOOK_CLIENT_SECRET: z.string().optional(),
  FACEBOOK_OAUTH_URL: z.string().url().default('https://www.facebook.com'),
  FACEBOOK_GRAPH_URL: z.string().url().default('https://graph.facebook.com'),
  /** Graph API version in every Facebook Page call and in the OAuth dialog's path (PROVIDERS §4). */
  FACEBOOK_API_VERSION: z.string().default('v21.0'),
  /** What Meta's app dashboard sends as hub.verify_token when the Page webhook callback is saved. */
  FACEBOOK_VERIFY_TOKEN: z.string().optional(),
  /**
   * Instagram API with Instagram Login (professional accounts without a Facebook Page): the Instagram
   * app id and secret from the Meta app dashboard (Instagram → API setup with Instagram login); the
   * secret also signs that product's webhooks. Without them only the Facebook login is offered.
   */
  INSTAGRAM_APP_ID: z.string().optional(),
  INSTAGRAM_APP_SECRET: z.string().optional(),
  INSTAGRAM_OAUTH_URL: z.string().url().default('https://www.instagram.com'),
  INSTAGRAM_TOKEN_URL: z.string().url().default('https://api.instagram.com'),
  INSTAGRAM_GRAPH_URL: z.string().url().default('https://graph.instagram.com'),
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
  /** Issue 18: the bot that sends users their notifications in Telegram (linked from settings/subscriptions). */
  NOTIFY_TELEGRAM_BOT_TOKEN: z.string().min(1).optional(),
  /**
   * Issue 18: the Slack app an administrator installs into a workspace (settings/notifications) so a
   * space's notifications go to a chosen channel. Without the id and secret Slack is not offered.
   */
  SLACK_CLIENT_ID: z.string().min(1).optional(),
  SLACK_CLIENT_SECRET: z.string().min(1).optional(),
  /** Verifies the requests Slack sends (`/v1/slack/events`: the app uninstalled, tokens revoked). */
  SLACK_SIGNING_SECRET: z.string().min(1).optional(),
  SLACK_API_URL: z.string().url().default('https://slack.com/api'),
  SLACK_OAUTH_URL: z.string().url().default('https://slack.com/oauth/v2/authorize'),
  VK_OAUTH_GROUP_SCOPE: z.string().default('messages,wall,photos,video,manage'),
  VK_API_VERSION: z.string().default('5.199'),
  WHATSAPP_GRAPH_URL: z.string().url().default('https://graph.facebook.com'),
  WHATSAPP_API_VERSION: z.string().default('v21.0'),
  MAX_API_URL: z.string().url().default('https://platform-api2.max.ru'),
  AVITO_API_URL: z.string().url().default('https://api.avito.ru'),
  /** Avito app keys for connecting accounts by OAuth (authorization code; PROVIDERS §7a). */
  AVITO_CLIENT_ID: z.string().optional(),
  AVITO_CLIENT_SECRET: z.string().optional(),
  /** Where Avito's consent page lives (UNCONFIRMED in PROVIDERS: avito.ru/oauth, as Avito's guides say). */
  AVITO_OAUTH_URL: z.string().url().default('https://avito.ru/oauth'),
  /** YouTube Data API v3 (PROVIDERS §5); the Google OAuth consent page and token endpoint for connecting. */
  YOUTUBE_API_URL: z.string().url().default('https://www.googleapis.com/youtube/v3'),
  YOUTUBE_OAUTH_URL: z.string().url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  YOUTUBE_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
  /** The Google Cloud project's OAuth client (web application) for connecting channels. */
  YOUTUBE_CLIENT_ID: z.string().optional(),
  YOUTUBE_CLIENT_SECRET: z.string().optional(),
  /** The project's YouTube quota, units per day (10,000 by default); each channel is paced within it. */
  YOUTUBE_DAILY_QUOTA: z.coerce.number().int().min(100).default(10_000),
  /** The shortest wait between two polls of one channel, seconds (longer as the day's quota is used). */
  YOUTUBE_POLL_INTERVAL_S: z.coerce.number().int().min(1).default(60),
  /** The Threads API host (graph.threads.net: /oauth/access_token, /access_token, /v1.0/...) and consent page. */
  THREADS_API_URL: z.string().url().default('https://graph.threads.net'),
  THREADS_OAUTH_URL: z.string().url().default('https://threads.net/oauth/authorize'),
  /** The Threads app id and secret (Meta app dashboard, "Threads app ID"); without them Threads is not offered. */
  THREADS_APP_ID: z.string().optional(),
  THREADS_APP_SECRET: z.string().optional(),
  /** Seconds between two polls of one Threads profile. */
  THREADS_POLL_S: z.coerce.number().int().min(1).default(300),
  /** Google Business Profile (PROVIDERS §6c): reviews (My Business v4), accounts and locations APIs. */
  GMAPS_API_URL: z.string().url().default('https://mybusiness.googleapis.com/v4'),
  GMAPS_ACCOUNTS_URL: z.string().url().default('https://mybusinessaccountmanagement.googleapis.com/v1'),
  GMAPS_LOCATIONS_URL: z.string().url().default('https://mybusinessbusinessinformation.googleapis.com/v1'),
  GMAPS_OAUTH_URL: z.string().url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GMAPS_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
  /** The Google Cloud project's OAuth client with the Business Profile APIs enabled. */
  GMAPS_CLIENT_ID: z.string().optional(),
  GMAPS_CLIENT_SECRET: z.string().optional(),
  /** Seconds between two polls of one location's reviews. */
  GMAPS_POLL_S: z.coerce.number().int().min(1).default(600),
  VIBER_API_URL: z.string().url().default('https://chatapi.viber.com'),
  /**
   * Pulse sign-in (POST v1/tpulse/check_auth, providers/tpulse/check.ts): the secret the partner signs
   * its `check` with, and where its sign-in page lives. Without the secret Pulse connects by ingest token
   * only. Both are our own contract, UNCONFIRMED against anything Pulse publishes.
   */
  TPULSE_CHECK_SECRET: z.string().optional(),
  TPULSE_AUTH_URL: z.string().url().default('https://www.tbank.ru/invest/social/otklik-connect/'),
  /** Jivo Bot API (providers/jivo): replies go to `{base}/webhooks/{provider_id}/{token}`. */
  JIVO_API_URL: z.string().url().default('https://bot.jivosite.com'),
  /** Discord REST (`{base}/api/v10`) and the Gateway websocket (PROVIDERS §7c). */
  DISCORD_API_URL: z.string().url().default('https://discord.com'),
  DISCORD_GATEWAY_URL: z.string().url().default('wss://gateway.discord.gg'),
  /** OK (Odnoklassniki) group Bot API (PROVIDERS §7d): `{base}/graph/me/...`. */
  OK_API_URL: z.string().url().default('https://api.ok.ru'),
  /** TikTok API for Business (PROVIDERS §7g): `{base}/open_api/v1.3/...`. */
  TIKTOK_API_URL: z.string().url().default('https://business-api.tiktok.com'),
  /** The TikTok for Business app (app id and secret) that business accounts authorize; without them TikTok is not offered. */
  TIKTOK_CLIENT_ID: z.string().optional(),
  TIKTOK_CLIENT_SECRET: z.string().optional(),
  /** Where TikTok's consent page for business accounts lives (UNCONFIRMED in PROVIDERS §7g). */
  TIKTOK_OAUTH_URL: z.string().url().default('https://www.tiktok.com/v2/auth/authorize/'),
  /** X API v2 (PROVIDERS §7f): `{base}/2/...`, and the OAuth 2.0 consent page (PKCE). */
  TWITTER_API_URL: z.string().url().default('https://api.x.com'),
  TWITTER_OAUTH_URL: z.string().url().default('https://x.com/i/oauth2/authorize'),
  /** The X app's OAuth 2.0 client (secret for a confidential client); without the id X is not offered. */
  TWITTER_CLIENT_ID: z.string().optional(),
  TWITTER_CLIENT_SECRET: z.string().optional(),
  /** The shortest wait between two polls of one X account, seconds (longer when the plan's window is short). */
  TWITTER_POLL_INTERVAL_S: z.coerce.number().int().min(1).default(60),
  /** Google Play Developer API (PROVIDERS §6a) and the OAuth token endpoint its service accounts use. */
  GOOGLEPLAY_API_URL: z.string().url().default('https://androidpublisher.googleapis.com/androidpublisher/v3'),
  GOOGLEPLAY_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
  /** Seconds between two polls of one Google Play app (quota: 200 GETs an hour per app). */
  GOOGLEPLAY_POLL_S: z.coerce.number().int().min(1).default(300),
  RUSTORE_API_URL: z.string().url().default('https://public-api.rustore.ru'),
  /** Seconds between two polls of one RuStore app. */
  RUSTORE_POLL_S: z.coerce.number().int().min(1).default(300),
  /** A UserEcho project's API; `{site}` is the project's alias (https://<alias>.userecho.com). */
  USERECHO_API_URL: z.string().includes('{site}').default('https://{site}.userecho.com/api/v2'),
  /** Seconds between two polls of one UserEcho project. */
  USERECHO_POLL_S: z.coerce.number().int().min(1).default(120),
  /** A UseResponse site's API; `{site}` is the site's host (cloud `<name>.useresponse.com` or its own domain). */
  USERESPONSE_API_URL: z.string().includes('{site}').default('https://{site}/api/4.0'),
  /** Seconds between two polls of one UseResponse site. */
  USERESPONSE_POLL_S: z.coerce.number().int().min(1).default(120),
  /** AppFollow API v2 (review aggregator; 1000 requests an hour per token, billed in credits). */
  APPFOLLOW_API_URL: z.string().url().default('https://api.appfollow.io'),
  /** Seconds between two polls of one app followed in AppFollow. */
  APPFOLLOW_POLL_S: z.coerce.number().int().min(1).default(600),
  /** Asodesk API (review aggregator; its reviews routes are UNCONFIRMED, see providers/asodesk). */
  ASODESK_API_URL: z.string().url().default('https://api.asodesk.com'),
  /** Seconds between two polls of one app followed in Asodesk. */
  ASODESK_POLL_S: z.coerce.number().int().min(1).default(600),
  /**
   * How accounts learn about new content: 'webhook' (the network pushes to APP_URL), 'polling' (we ask),
   * or 'auto' — webhooks when APP_URL is reachable from outside, polling when it is a local address.
   */
  PROVIDER_UPDATES: z.enum(['auto', 'webhook', 'polling']).default('auto'),
  /** Seconds a long poll may wait at the network (Telegram getUpdates timeout, VK wait). */
  POLL_TIMEOUT_S: z.coerce.number().int().min(0).max(90).default(25),
  /**
   * How long a call to a network may take before it is given up as a temporary failure (then retried
   * with backoff); a long poll gets this on top of its wait (providers/http.ts).
   */
  NETWORK_TIMEOUT_MS: z.coerce.number().int().min(50).max(300_000).default(30_000),
  /** How long a suggestion may wait for the AI provider's chat-completions answer (issue 21). */
  AI_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
  /** Largest network file the media proxy fetches and keeps (Telegram bots get at most 20 MB). */
  MEDIA_MAX_MB: z.coerce.number().int().min(1).max(100).default(20),
  /**
   * The operator's opt-in to file links at private addresses (127.0.0.1, 10.x, fc00::/7, …), e.g. files
   * their own systems post to the ingestion API. Off: a file link can never make the server call into
   * its own network. Link-local (cloud metadata) and unspecified addresses stay refused even when on.
   * Tests do not use it for public hosts: they resolve fixture hosts through createTestApp's mediaNetwork.
   */
  MEDIA_FETCH_PRIVATE: z.enum(['true', 'false']).default('false'),
  /**
   * Outgoing webhooks (issue 14 item 9) go to public https addresses only. 'true' is the operator's
   * opt-in to endpoints on their own network (http, 127.0.0.1, 10.x, …) — and what tests use for a
   * receiver on loopback. Link-local (cloud metadata) stays refused even then.
   */
  WEBHOOKS_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  /**
   * HelpDeskEddy (issue 21) is reached on public addresses only; 'true' allows http and private hosts
   * (a self-hosted helpdesk on the operator's network, and the emulator in tests).
   */
  HDE_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  /**
   * RSS/Atom sources of monitoring (issue 21) are fetched from public addresses only; 'true' allows
   * private and loopback hosts (feeds on the operator's own network, and the feed server in tests).
   */
  FEEDS_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  /** YouScan's API (issue 21, modules/youscan); tests point it at the emulator on loopback. */
  YOUSCAN_API_URL: z.string().url().default('https://api.youscan.io'),
  /**
   * Memory for list pages reused while the database is unchanged (lib/snapshot-cache.ts); 0 turns
   * the reuse off.
   */
  LIST_CACHE_MB: z.coerce.number().int().min(0).max(1024).default(32),
  /**
   * Memory for statistics answers reused while the database is unchanged (modules/stats/answer-reuse.ts);
   * 0 turns the reuse off.
   */
  STATS_CACHE_MB: z.coerce.number().int().min(0).max(1024).default(16),
  /**
   * Freshness window for statistics answers (seconds): the same caller's identical request within it
   * gets the answer already read even though the data changed since (the screen shows its age and
   * Refresh reads anew); 0 = only while the database is unchanged. The live wall is always read.
   */
  STATS_FRESH_S: z.coerce.number().int().min(0).max(600).default(30),
  /**
   * The tariff the first space of a fresh instance starts on, paid and not expiring (the self-hoster
   * owns the instance); 0: the first space is a trial like every other.
   */
  FIRST_SPACE_TARIFF_ID: z.coerce.number().int().min(0).default(20),
  // Payments (issue 14 item 3). A provider is offered only when its keys are set. Base URLs point the
  // clients at an emulator in tests.
  YOOKASSA_SHOP_ID: z.string().trim().optional(),
  YOOKASSA_SECRET_KEY: z.string().trim().optional(),
  YOOKASSA_API_URL: z.string().url().default('https://api.yookassa.ru'),
  /**
   * Addresses YooKassa sends HTTP notifications from (its documented list); a notification from any
   * other client address (after the trusted proxy) is refused. Comma-separated IPs and CIDR ranges.
   */
  YOOKASSA_NOTIFY_IPS: z
    .string()
    .default(
      '185.71.76.0/27,185.71.77.0/27,77.75.153.0/25,77.75.156.11,77.75.156.35,77.75.154.128/25,2a02:5180::/32',
    ),
  STRIPE_SECRET_KEY: z.string().trim().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().trim().optional(),
  STRIPE_API_URL: z.string().url().default('https://api.stripe.com'),
  /** Currency Stripe Checkout charges in (a key of tariffs.prices). */
  STRIPE_CURRENCY: z.string().trim().toUpperCase().default('USD'),
  /** Partners' share of the payments of spaces they referred, percent (issue 14 item 6). */
  REFERRAL_SHARE_PERCENT: z.coerce.number().min(0).max(100).default(20),
  /** Seconds a Stripe-Signature timestamp may be old (Stripe's default is 300). */
  STRIPE_WEBHOOK_TOLERANCE_S: z.coerce.number().int().min(1).max(3600).default(300),
  /**
   * Turns on `GET /metrics` (Prometheus text format), answered only to `Authorization: Bearer <this>`.
   * Unset: /metrics answers 404 like any unknown path.
   */
  METRICS_TOKEN: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || v.length >= 16, { message: 'must be at least 16 characters' }),
  /**
   * Tests only (e2e): `POST /v1/test/clock` moves this process's task clock (due dates, expired counts)
   * forward. Never set it in production.
   */
  TEST_CLOCK: z.enum(['0', '1']).default('0'),
  /**
   * On SIGTERM/SIGINT: seconds /readyz answers 503 while requests are still served, so the load balancer
   * stops sending new ones first (Kubernetes: a few seconds; alone on a machine: 0).
   */
  SHUTDOWN_DELAY_S: z.coerce.number().min(0).max(120).default(0),
  /** On SIGTERM/SIGINT: seconds running requests and jobs get to finish before the process exits anyway (code 1). */
  SHUTDOWN_TIMEOUT_S: z.coerce.number().min(1).max(600).default(25),
});

/** Every environment variable the server reads (the deployment files are checked against it). */
export const ENV_NAMES: readonly string[] = Object.keys(envSchema.shape);

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
    // Test files share databases: no test may depend on being the instance's first space.
    FIRST_SPACE_TARIFF_ID: '0',
    // Tests re-read figures right after writing: statistics are served no older than the data unless a
    // test asks for the window (answer-reuse.test.ts).
    STATS_FRESH_S: '0',
    ...overrides,
  });
}
