import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';
import { ConnectorError, type VerifiedAccount, type VerifyContext } from '../types';
import { type VkApi, vkApi } from './client';

// Connecting a community: typed credentials (group id + community token, optional admin user token) or
// VK's community OAuth (authorization code flow: /authorize with group_ids → /access_token, which answers
// `access_token_{group_id}`). PROVIDERS §2 "Token types".

interface VkGroup {
  id: number;
  name: string;
  screen_name?: string;
  photo_200?: string;
  photo_100?: string;
}

/** "123", "-123", "club123", "public123" → 123; anything else is a screen name VK resolves itself. */
function normaliseGroupId(input: string): string {
  const match = /^(?:-|club|public|event)?(\d+)$/.exec(input.trim());
  return match ? match[1]! : input.trim();
}

async function communityIdentity(api: VkApi, groupId: string | undefined): Promise<VkGroup> {
  // 5.199 answers {groups, profiles}; older versions a bare array.
  const answer = await api<{ groups?: VkGroup[] } | VkGroup[]>('groups.getById', {
    group_id: groupId,
    fields: 'photo_200',
  });
  const group = Array.isArray(answer) ? answer[0] : answer.groups?.[0];
  if (!group)
    throw new ConnectorError('permanent', 'VK: community not found', {
      reason: { key: 'failure.communityNotFound', params: { network: 'VK' } },
    });
  return group;
}

function verifiedFrom(group: VkGroup, credentials: Record<string, string>): VerifiedAccount {
  return {
    externalId: String(group.id),
    name: group.name,
    screenName: group.screen_name,
    image: group.photo_200 ?? group.photo_100,
    url: `https://vk.com/${group.screen_name ?? `club${group.id}`}`,
    credentials: { ...credentials, group_id: String(group.id) },
  };
}

export async function verifyVkCredentials(
  ctx: VerifyContext,
  input: Record<string, string>,
): Promise<VerifiedAccount> {
  const accessToken = input.access_token ?? '';
  const group = await communityIdentity(vkApi(ctx, accessToken), normaliseGroupId(input.group_id ?? ''));
  const credentials: Record<string, string> = { access_token: accessToken };
  if (input.user_token) {
    // The admin token is checked now so a typo shows here, not at the first deletion.
    const [user] = await vkApi(ctx, input.user_token)<Array<{ id: number }>>('users.get', {});
    if (!user)
      throw new ConnectorError('auth', 'VK: the user token belongs to nobody', {
        reason: { key: 'failure.reconnect', params: { network: 'VK' } },
      });
    credentials.user_token = input.user_token;
  }
  return verifiedFrom(group, credentials);
}

const oauthBase = (config: Config) => config.VK_OAUTH_URL.replace(/\/$/, '');

/**
 * The community is chosen before the popup: VK's community flow needs `group_ids`, which the web app
 * passes as `?group_id=` on the callback address (the route compares only the address before `?`).
 */
export function vkAuthorizeUrl(config: Config, opts: { redirectUri: string; state: string }): string {
  if (!config.VK_CLIENT_ID) throw new AppError(400, 'account.notAvailable', { errorType: 'not_available' });
  const groupId = normaliseGroupId(new URL(opts.redirectUri).searchParams.get('group_id') ?? '');
  if (!/^\d+$/.test(groupId)) {
    throw new AppError(400, 'field.required', {
      errorType: 'validation',
      fields: { group_id: 'field.required' },
    });
  }
  const url = new URL(`${oauthBase(config)}/authorize`);
  url.search = new URLSearchParams({
    client_id: config.VK_CLIENT_ID,
    redirect_uri: opts.redirectUri,
    group_ids: groupId,
    scope: config.VK_OAUTH_GROUP_SCOPE,
    response_type: 'code',
    display: 'popup',
    v: config.VK_API_VERSION,
    state: opts.state,
  }).toString();
  return url.toString();
}

type TokenAnswer = Record<string, unknown> & {
  error?: string;
  error_description?: string;
  groups?: Array<{ group_id: number; access_token: string }>;
};

/** The community token from VK's answer: `access_token_{id}` keys, or `groups: [{group_id, access_token}]`. */
function tokenFrom(answer: TokenAnswer): { groupId: string; token: string } | undefined {
  for (const [key, value] of Object.entries(answer)) {
    const match = /^access_token_(\d+)$/.exec(key);
    if (match && typeof value === 'string') return { groupId: match[1]!, token: value };
  }
  const first = answer.groups?.[0];
  return first ? { groupId: String(first.group_id), token: first.access_token } : undefined;
}

export async function exchangeVkCode(
  ctx: VerifyContext,
  opts: { code: string; redirectUri: string },
): Promise<VerifiedAccount> {
  const { VK_CLIENT_ID, VK_CLIENT_SECRET } = ctx.config;
  if (!VK_CLIENT_ID || !VK_CLIENT_SECRET)
    throw new AppError(400, 'account.notAvailable', { errorType: 'not_available' });
  const url = new URL(`${oauthBase(ctx.config)}/access_token`);
  url.search = new URLSearchParams({
    client_id: VK_CLIENT_ID,
    client_secret: VK_CLIENT_SECRET,
    redirect_uri: opts.redirectUri,
    code: opts.code,
  }).toString();
  let answer: TokenAnswer;
  try {
    answer = (await (await ctx.fetch(url)).json()) as TokenAnswer;
  } catch (error) {
    throw new ConnectorError('temporary', `VK OAuth unreachable: ${(error as Error).message}`, {
      reason: { key: 'failure.unreachable', params: { network: 'VK' }, detail: (error as Error).message },
    });
  }
  if (answer.error) throw new ConnectorError('permanent', answer.error_description ?? answer.error);
  const found = tokenFrom(answer);
  if (!found)
    throw new ConnectorError('permanent', 'VK OAuth gave no community token', {
      reason: { key: 'failure.badAnswer', params: { network: 'VK' } },
    });
  const group = await communityIdentity(vkApi(ctx, found.token), found.groupId);
  return verifiedFrom(group, { access_token: found.token });
}
