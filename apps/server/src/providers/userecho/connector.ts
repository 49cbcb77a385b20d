import { AppError } from '../../lib/errors';
import { COMMENT, type ForumSource, importForum, parseSite, pollForum, topicOf } from '../forum';
import type { Connector, ConnectorContext, VerifyContext } from '../types';
import { changedTopics, listForums, NETWORK, postComment, topicComments, type UserEchoAuth } from './client';

// UserEcho (a feedback forum: ideas, problems, questions, helpdesk tickets as topics). Connected with the
// project's alias and an agent's API access token; no push (UserEcho's API has no webhooks), so topics
// changed since the cursor are polled every USERECHO_POLL_S with their comments. A topic is an item (its
// header and description), its comments items under it; any reply is a comment in the topic. The API
// allows no hiding, and we do not delete customers' topics or comments from the inbox.

const authOf = (ctx: Pick<VerifyContext, 'config' | 'fetch'>, credentials: Record<string, string>) => ({
  config: ctx.config,
  fetch: ctx.fetch,
  alias: credentials.alias ?? '',
  token: credentials.access_token ?? '',
});

const sourceOf = (a: UserEchoAuth): ForumSource => ({
  changedTopics: (since, limit) => changedTopics(a, since, limit),
  comments: (topicId) => topicComments(a, topicId),
});

const invalidField = (name: string) =>
  new AppError(400, 'field.invalid', {
    errorType: 'validation',
    fields: { [`credentials.${name}`]: 'field.invalid' },
  });

const auth = (ctx: ConnectorContext) => authOf(ctx, ctx.credentials);

export const userechoConnector: Connector = {
  id: 'userecho',

  /** The alias is well-formed and the token can read the project's forums. */
  async verifyCredentials(ctx, input) {
    const alias = parseSite(input.alias ?? '', '.userecho.com');
    if (!alias || alias.includes('.')) throw invalidField('alias');
    const token = (input.access_token ?? '').trim();
    if (!token) throw invalidField('access_token');
    const credentials = { alias, access_token: token };
    await listForums(authOf(ctx, credentials));
    return {
      externalId: alias,
      name: `UserEcho ${alias}`,
      url: `https://${alias}.userecho.com`,
      credentials,
    };
  },

  /** Nothing to subscribe to: the account is polled. */
  async activate() {},

  poll: (ctx, cursor) => pollForum(sourceOf(auth(ctx)), cursor, ctx.config.USERECHO_POLL_S),

  importRecent: (ctx, limit) => importForum(sourceOf(auth(ctx)), limit),

  async sendReply(ctx, target, content) {
    const topicId = topicOf(NETWORK, target.postExternalId);
    const text = [content.text, ...content.attachments.map((a) => a.url)].filter(Boolean).join('\n');
    const id = await postComment(auth(ctx), topicId, text);
    return { externalId: id === null ? null : `${COMMENT}${id}` };
  },
};
