import { randomBytes } from 'node:crypto';
import type { GraphCall, RawCall } from '../facebook/emulator';
import { esc, FB_ERRORS } from '../facebook/emulator';
import type { IgAccount } from './emulator';

// TEST-ONLY. Instagram API with Instagram Login on the Instagram emulator's port, each of Meta's hosts
// under its own prefix so a test sees which host a call went to: `/ig-www` (www.instagram.com: the
// authorization window `GET /oauth/authorize`, Allow / Cancel), `/ig-api` (api.instagram.com: `POST
// /oauth/access_token`, form, code → one-hour token, `{data:[{access_token,user_id,permissions}]}`) and
// `/ig-graph` (graph.instagram.com: `GET /access_token` ig_exchange_token → 60-day token, `GET
// /refresh_access_token` ig_refresh_token for a token at least a day old and not expired, and under
// `/{version}`: `/me`, `/{ig-user-id}/subscribed_apps`, `/{ig-user-id}/messages`, and the comments,
// media and mention calls the Facebook-login side answers, with the account's own token). Error bodies
// are Instagram's (`error_type`, `code`, `error_message`) at api.instagram.com and Graph's elsewhere.

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
export const LONG_LIVED_S = 60 * 24 * 3600;
export const IG_LOGIN_PERMISSIONS = [
  'instagram_business_basic',
  'instagram_business_manage_comments',
  'instagram_business_manage_messages',
];

interface LoginToken {
  igId: string;
  long: boolean;
  issuedAt: number;
  expiresAt: number;
}

/** What the Instagram emulator lends this side: its clock, its accounts and its Graph routes. */
export interface LoginHost {
  clock(): number;
  accountByIgId(igId: string): IgAccount | undefined;
  graph(call: GraphCall): boolean;
}

export class InstagramLoginSide {
  readonly appId = 'ig-app-1';
  readonly appSecret = 'ig-app-secret-1';
  /** Who is signed in on Instagram's window and agrees; null: they press Cancel. */
  consenting: IgAccount | null = null;
  /** 'ask' shows the window (browser tests); 'allow' answers at once. */
  consent: 'ask' | 'allow' = 'allow';
  /** What the person leaves ticked on the window. */
  granted = [...IG_LOGIN_PERMISSIONS];
  /** Accounts that signed in this way: their deliveries are signed with the Instagram app secret. */
  readonly igIds = new Set<string>();
  readonly subscribed = new Map<string, string[]>();
  private readonly codes = new Map<string, { igId: string; redirectUri: string; granted: string[] }>();
  readonly tokens = new Map<string, LoginToken>();

  constructor(private readonly host: LoginHost) {}

  /** The person removes the app in Instagram's settings: every token of the account stops working. */
  revoke(igId: string) {
    for (const [token, owner] of this.tokens) if (owner.igId === igId) this.tokens.delete(token);
  }

  private issue(igId: string, long: boolean) {
    const token = `${long ? 'IGAALong' : 'IGAAShort'}${randomBytes(8).toString('hex')}`;
    const now = this.host.clock();
    this.tokens.set(token, {
      igId,
      long,
      issuedAt: now,
      expiresAt: now + (long ? LONG_LIVED_S * 1000 : HOUR_MS),
    });
    return token;
  }

  private live(token: string | undefined) {
    const found = token ? this.tokens.get(token) : undefined;
    return found && found.expiresAt > this.host.clock() ? found : undefined;
  }

  handle(call: RawCall): boolean {
    const { pathname } = call;
    if (pathname === '/ig-www/oauth/authorize') return this.authorize(call);
    if (pathname === '/ig-www/oauth/authorize/decide') return this.decide(call);
    if (pathname === '/ig-api/oauth/access_token' && call.method === 'POST') return this.code(call);
    if (pathname === '/ig-graph/access_token') return this.exchange(call);
    if (pathname === '/ig-graph/refresh_access_token') return this.refresh(call);
    if (pathname.startsWith('/ig-graph/')) return this.graph(call);
    return false;
  }

  private authorize(call: RawCall) {
    const q = call.query;
    if (q.client_id !== this.appId) {
      call.res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end('<p>Invalid app ID</p>');
      return true;
    }
    if (this.consent === 'allow' || !this.consenting) {
      const decide = new URLSearchParams({ ...q, decision: this.consenting ? 'allow' : 'deny' });
      return this.decide({ ...call, query: Object.fromEntries(decide) });
    }
    const hidden = Object.entries(q)
      .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
      .join('');
    call.res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
      `<!doctype html><html><head><title>Instagram</title></head><body>
<h1>Instagram</h1><p>@${esc(this.consenting.username)}: allow this app to read and answer your comments and messages?</p>
<form action="/ig-www/oauth/authorize/decide" method="get">${hidden}
<button name="decision" value="allow" data-testid="ig-allow">Allow</button>
<button name="decision" value="deny" data-testid="ig-cancel">Cancel</button></form></body></html>`,
    );
    return true;
  }

  private decide(call: RawCall) {
    const q = call.query;
    const back = new URL(q.redirect_uri ?? '');
    if (q.decision === 'allow' && this.consenting) {
      const code = `AQ${randomBytes(8).toString('hex')}`;
      this.codes.set(code, {
        igId: this.consenting.id,
        redirectUri: q.redirect_uri ?? '',
        granted: this.granted.filter((p) => (q.scope ?? '').split(',').includes(p)),
      });
      // Instagram appends `#_` to the redirect; browsers drop the fragment from what the page reads.
      back.searchParams.set('code', code);
    } else {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_reason', 'user_denied');
      back.searchParams.set('error_description', 'The user denied your request.');
    }
    if (q.state) back.searchParams.set('state', q.state);
    call.res.writeHead(302, { location: back.toString() }).end();
    return true;
  }

  private code(call: RawCall) {
    const b = (call.body ?? {}) as Record<string, string>;
    const refuse = (message: string) => {
      call.send(400, { error_type: 'OAuthException', code: 400, error_message: message });
      return true;
    };
    if (b.client_id !== this.appId || b.client_secret !== this.appSecret)
      return refuse('Error validating client secret.');
    if (b.grant_type !== 'authorization_code') return refuse('Unsupported grant_type');
    const found = this.codes.get(b.code ?? '');
    this.codes.delete(b.code ?? '');
    if (!found || found.redirectUri !== b.redirect_uri)
      return refuse('Error validating verification code. Please make sure your redirect_uri is identical.');
    this.igIds.add(found.igId);
    call.send(200, {
      data: [
        {
          access_token: this.issue(found.igId, false),
          user_id: `app-scoped-${found.igId}`,
          permissions: found.granted.join(','),
        },
      ],
    });
    return true;
  }

  private exchange(call: RawCall) {
    const q = call.query;
    if (q.grant_type !== 'ig_exchange_token' || q.client_secret !== this.appSecret) {
      call.fail({ status: 400, code: 101, message: 'Error validating client secret.' });
      return true;
    }
    const short = this.live(q.access_token);
    if (!short || short.long) {
      call.fail(FB_ERRORS.invalidToken);
      return true;
    }
    call.send(200, {
      access_token: this.issue(short.igId, true),
      token_type: 'bearer',
      expires_in: LONG_LIVED_S,
    });
    return true;
  }

  private refresh(call: RawCall) {
    const q = call.query;
    const long = this.live(q.access_token);
    if (q.grant_type !== 'ig_refresh_token' || !long?.long) {
      call.fail(FB_ERRORS.invalidToken);
      return true;
    }
    if (this.host.clock() - long.issuedAt < DAY_MS) {
      call.fail({ status: 400, code: 100, message: 'The access token is too new to be refreshed.' });
      return true;
    }
    call.send(200, {
      access_token: this.issue(long.igId, true),
      token_type: 'bearer',
      expires_in: LONG_LIVED_S,
    });
    return true;
  }

  private graph(call: RawCall) {
    const owner = this.live(call.token);
    const account = owner ? this.host.accountByIgId(owner.igId) : undefined;
    if (!owner?.long || !account) {
      call.fail(FB_ERRORS.invalidToken);
      return true;
    }
    const path = call.pathname.replace(/^\/ig-graph/, '').replace(/^\/v\d+\.\d+/, '');
    const parts = path.split('/').filter(Boolean);
    if (path === '/me') {
      call.send(200, {
        id: `app-scoped-${account.id}`,
        user_id: account.id,
        username: account.username,
        name: account.username,
        profile_picture_url: `https://ig.example/${account.id}.jpg`,
      });
      return true;
    }
    if (parts[0] === account.id && parts[1] === 'subscribed_apps' && call.method === 'POST') {
      this.subscribed.set(account.id, String(call.query.subscribed_fields ?? '').split(','));
      call.send(200, { success: true });
      return true;
    }
    // Direct goes through the account itself here; the Facebook-login side answers it for the Page.
    if (parts[0] === account.id && parts[1] === 'messages') parts[0] = account.pageId;
    const graphCall: GraphCall = {
      method: call.method,
      path: `/${parts.join('/')}`,
      parts,
      query: call.query,
      body: call.body,
      owner: { kind: 'page', pageId: account.pageId, long: true },
      send: call.send,
      fail: call.fail,
    };
    if (this.host.graph(graphCall)) return true;
    call.fail({ status: 400, code: 100, message: 'Unsupported request' });
    return true;
  }
}
