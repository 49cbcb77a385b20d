// Business constants and limits — docs/product/limits.md. Both server and web import these; never repeat a number.

export const PASSWORD_MIN_LENGTH = 8;
export const OTP_CODE_MAX_LENGTH = 7;

export const TRIAL_DAYS = 14;
export const BILLING_PERIOD_DAYS = [30, 180, 365] as const;

export const COUNTS_REFRESH_MS = 120_000;
export const IDLE_TIMEOUT_MS = 1_200_000;
export const STATUS_POLL_MS = 180_000;
/** Poll the server status only when this long has passed since the last manual change (docs/product/states.md). */
export const STATUS_MANUAL_GUARD_S = 600;
/** A server status replaces the local one only after this long (docs/product/states.md). */
export const STATUS_SERVER_WINS_AFTER_S = 30;

export const CONFIG_RELOAD_MS = 28_800_000;
export const CONFIG_RELOAD_EXPIRED_MS = 600_000;

export const DELETION_AFTER_EXPIRY_TRIAL_S = 259_200;
export const DELETION_AFTER_EXPIRY_PAID_S = 604_800;
export const BILLING_RED_DAYS = 0;
export const BILLING_YELLOW_DAYS = 3;
export const BILLING_BLUE_DAYS = 7;

export const STANDARD_TARIFF_IDS = [1, 2, 10] as const;

export const RECENT_EMOJI_PER_PROVIDER = 18;

export const DEFAULT_ITEM_STATUSES = ['new', 'inprogress'] as const;
export const DEFAULT_CHAT_STATUSES = ['new', 'inprogress', 'open'] as const;

export const REDIRECT_NOTICE_MS = 2_500;
export const REDIRECT_AFTER_SIGNUP_MS = 1_000;
export const ERROR_TOAST_LONG_MS = 30_000;
export const ERROR_TOAST_SHORT_MS = 5_000;
export const SIGNUP_ERROR_TOAST_MS = 7_000;
export const NETWORK_ERROR_TOAST_MS = 10_000;

export const SPLASH_MS = 400;
export const SOCKET_RECONNECT_MS = 2_000;
/**
 * The server's WebSocket close codes (4000–4999 are the application's): the session ended (sign in
 * again), every space's paid period is over, two-factor setup required. The close reason is the same
 * error_type the API answers with.
 */
export const SOCKET_CLOSE_SESSION_ENDED = 4401;
export const SOCKET_CLOSE_PAID_OVER = 4402;
export const SOCKET_CLOSE_OTP_REQUIRED = 4403;

/**
 * "Who is answering" (docs/product/api.md lock): a lock is taken when someone starts typing a reply and lets go
 * after this long without typing, so a forgotten draft never blocks colleagues.
 */
export const LOCK_IDLE_MS = 120_000;
/** While someone keeps typing, the web tells the server at most this often (it keeps the lock alive). */
export const LOCK_ACTIVITY_PING_MS = 15_000;
export const WORKINGHOURS_NOTIFY_WINDOW_S = 7;
export const WORKINGHOURS_CHECK_MS = 60_000;
export const NOTIFICATION_DURATION_MS = { status: 30_000, issue: 300_000, comments_filter: 120_000 } as const;
export const SCHEDULE_REFRESH_S = 1_200;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export const BREAKPOINTS = { mobile: 768, tablet: 1025, laptop: 1381 } as const;
/** ISO weekday the week starts on: Monday. */
export const WEEK_STARTS_ON = 1;

export const IMPORT_ON_CONNECT_LIMIT = 100;
export const IMAGE_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const VIDEO_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;

export const EMAIL_DIGEST_INTERVAL_MS = 300_000;
export const NOTIFICATION_FREQUENCIES = [
  'never',
  'at_once',
  'hourly',
  'every_3h',
  'every_12h',
  'daily',
  'weekly',
] as const;

export const BLOCK_DURATIONS = ['hour', 'week', 'month', '3months', 'year', 'forever'] as const;
export type BlockDuration = (typeof BLOCK_DURATIONS)[number];
/** Seconds per block duration; null = forever. */
export const BLOCK_DURATION_SECONDS: Record<BlockDuration, number | null> = {
  hour: 3_600,
  week: 604_800,
  month: 2_592_000,
  '3months': 7_776_000,
  year: 31_536_000,
  forever: null,
};

export const EXCERPT_SHORT = 100;
export const EXCERPT_LONG = 800;

/**
 * A list row found by a text search carries `match`: the passage around the words found, with each
 * found word between these two characters (control characters, never in a customer's text as shown).
 */
export const MATCH_START = '\u0002';
export const MATCH_END = '\u0003';

/** Auth token lifetimes (server). */
export const ACCESS_TOKEN_TTL_S = 3_600;
export const REFRESH_TOKEN_TTL_S = 60 * 86_400;
export const RESET_PASSWORD_TTL_S = 86_400;
export const CONFIRM_EMAIL_TTL_S = 7 * 86_400;
export const INVITATION_TTL_S = 14 * 86_400;

/** The built-in web client (docs/product/api.md: every token call carries client_id + client_secret). */
export const WEB_CLIENT_ID = 'otklik-web';

/** Most comments one bulk reply may answer (docs/product/validation.md 'Выбрано слишком много комментариев для ответа'). */
export const BULK_REPLY_MAX = 50;

/** A space's time zone when none is known (the spaces table's default). */
export const DEFAULT_TIME_ZONE = 'Europe/Moscow';

/** A reply sent from the composer is held this long before it goes to the network; until then it can be undone. */
export const SEND_UNDO_SECONDS = 5;

/** From this window width the inbox shows the list and the open record side by side (issue 13). */
export const SPLIT_VIEW_MIN_WIDTH = 1381;
/** Items one macro run (or its preview) takes at most (issue 16, macros). */
export const MACRO_RUN_MAX_ITEMS = 100;
