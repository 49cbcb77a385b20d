import { randomBytes } from 'node:crypto';

// TEST-ONLY. What Avito's side keeps for the emulator (PROVIDERS.md §7a): API clients and their 24-hour
// tokens, accounts' chats and messages, webhook subscriptions, and the 1-hour delete window — all on
// the network's own clock.

export interface EmulatedMessage {
  id: string;
  chat_id: string;
  author_id: number;
  created: number;
  type: string;
  content: Record<string, unknown>;
  direction: 'in' | 'out';
}

export interface EmulatedChat {
  id: string;
  accountId: number;
  users: Array<{ id: number; name: string }>;
  created: number;
  updated: number;
  messages: EmulatedMessage[];
}

export interface ApiClient {
  clientId: string;
  secret: string;
  userId: number;
  name: string;
  revoked: boolean;
}

const TOKEN_TTL_S = 86_400;
const DELETE_WINDOW_S = 3_600;

export class AvitoNetwork {
  clock = Date.now();
  readonly clients = new Map<string, ApiClient>();
  readonly chats = new Map<string, EmulatedChat>();
  /** Account id → webhook URLs subscribed with POST /messenger/v3/webhook. */
  readonly subscriptions = new Map<number, Set<string>>();
  private readonly tokens = new Map<
    string,
    { clientId: string; expiresAt: number; account?: { userId: number; name: string } }
  >();
  /** OAuth: codes from the consent page and refresh tokens, each for an app and the account that agreed. */
  private readonly codes = new Map<string, { clientId: string; account: { userId: number; name: string } }>();
  private readonly refreshes = new Map<
    string,
    { clientId: string; account: { userId: number; name: string } }
  >();

  seconds() {
    return Math.floor(this.clock / 1000);
  }

  addClient(clientId: string, secret: string, account: { userId: number; name: string }) {
    this.clients.set(clientId, { clientId, secret, ...account, revoked: false });
  }

  /** The keys are revoked in Avito's settings: tokens stop working and no new ones are given. */
  revokeClient(clientId: string) {
    const client = this.clients.get(clientId);
    if (client) client.revoked = true;
  }

  /** New keys issued for the same account. */
  renewClient(clientId: string, secret: string) {
    const client = this.clients.get(clientId);
    if (client) Object.assign(client, { secret, revoked: false });
  }

  /** Every token issued so far runs out (as after 24 h). */
  expireTokens() {
    for (const token of this.tokens.values()) token.expiresAt = 0;
  }

  issueToken(clientId: string, secret: string) {
    const client = this.clients.get(clientId);
    if (!client || client.revoked || client.secret !== secret) return null;
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, { clientId, expiresAt: this.clock + TOKEN_TTL_S * 1000 });
    return { access_token: token, expires_in: TOKEN_TTL_S, token_type: 'Bearer' };
  }

  clientOf(token: string): ApiClient | undefined {
    const issued = this.tokens.get(token);
    const client = issued ? this.clients.get(issued.clientId) : undefined;
    if (!issued || !client || client.revoked || issued.expiresAt <= this.clock) return undefined;
    // An OAuth token acts for the account that agreed, not for the app's own account.
    return issued.account ? { ...client, ...issued.account } : client;
  }

  /** Who is signed in to Avito in the popup and agrees on the consent page; null: they refuse. */
  consenting: { userId: number; name: string } | null = null;

  /** The account owner agrees on the consent page (GET /oauth): the code the popup brings back. */
  authorize(clientId: string, account: { userId: number; name: string }): string {
    const code = randomBytes(12).toString('base64url');
    this.codes.set(code, { clientId, account });
    return code;
  }

  private grant(clientId: string, account: { userId: number; name: string }, refreshToken?: string) {
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, { clientId, account, expiresAt: this.clock + TOKEN_TTL_S * 1000 });
    const refresh = refreshToken ?? randomBytes(24).toString('base64url');
    this.refreshes.set(refresh, { clientId, account });
    return {
      access_token: token,
      expires_in: TOKEN_TTL_S,
      token_type: 'Bearer',
      refresh_token: refresh,
      scope: 'messenger:read,messenger:write,user:read',
    };
  }

  /** grant_type=authorization_code: a code works once, for the app it was given to. */
  exchangeCode(clientId: string, secret: string, code: string) {
    const client = this.clients.get(clientId);
    const found = this.codes.get(code);
    if (!client || client.revoked || client.secret !== secret || !found || found.clientId !== clientId)
      return null;
    this.codes.delete(code);
    return this.grant(clientId, found.account);
  }

  /** grant_type=refresh_token: a new access token for the same account (the refresh token stays). */
  refresh(clientId: string, secret: string, refreshToken: string) {
    const client = this.clients.get(clientId);
    const found = this.refreshes.get(refreshToken);
    if (!client || client.revoked || client.secret !== secret || !found || found.clientId !== clientId)
      return null;
    return this.grant(clientId, found.account, refreshToken);
  }

  /** Stores a message; the chat is created on its first message. */
  addMessage(opts: {
    chatId: string;
    accountId: number;
    author: { id: number; name: string };
    type?: string;
    content: Record<string, unknown>;
    id?: string;
  }): EmulatedMessage {
    const now = this.seconds();
    let chat = this.chats.get(opts.chatId);
    if (!chat) {
      chat = {
        id: opts.chatId,
        accountId: opts.accountId,
        users: [],
        created: now,
        updated: now,
        messages: [],
      };
      this.chats.set(opts.chatId, chat);
    }
    if (!chat.users.some((u) => u.id === opts.author.id)) chat.users.push(opts.author);
    const message: EmulatedMessage = {
      id: opts.id ?? randomBytes(16).toString('hex'),
      chat_id: chat.id,
      author_id: opts.author.id,
      created: now,
      type: opts.type ?? 'text',
      content: opts.content,
      direction: opts.author.id === opts.accountId ? 'out' : 'in',
    };
    chat.messages.push(message);
    chat.updated = now;
    return message;
  }

  /** PROVIDERS §7a: only the account's own messages, only within the last hour; the type becomes `deleted`. */
  deleteMessage(client: ApiClient, chatId: string, messageId: string): string | null {
    const message = this.chats.get(chatId)?.messages.find((m) => m.id === messageId);
    if (!message || message.author_id !== client.userId) return 'message not found';
    if (this.seconds() - message.created > DELETE_WINDOW_S)
      return 'message can be deleted only within an hour';
    Object.assign(message, { type: 'deleted', content: {} });
    return null;
  }

  chatsOf(userId: number) {
    return [...this.chats.values()]
      .filter((c) => c.accountId === userId)
      .sort((a, b) => b.updated - a.updated);
  }
}
