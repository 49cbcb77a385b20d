import { AppError } from '../../lib/errors';
import { COMMENT, type ForumSource, importForum, parseSite, pollForum, topicOf } from '../forum';
import type { Connector, ConnectorContext, VerifyContext } from '../types';
import {
  changedObjects,
  checkAccess,
  createComment,
  NETWORK,
  objectComments,
  type UseResponseAuth,
} from './client';

// UseResponse (community and helpdesk: ideas, problems, questions, tickets are "objects"). Connected with
// the site's address and a user's API key; objects changed since the cursor are polled every
// USERESPONSE_POLL_S with their comments (UseResponse's webhooks are not used: we found no public
// description of their payload or signature — UNCONFIRMED). An object is an item, its comments items under
// it; a reply is a comment on the object as the key's user. Files are sent as links (the API's upload call
// is not used); hiding and deleting are not offered.

const authOf = (ctx: Pick<VerifyContext, 'config' | 'fetch'>, credentials: Record<string, string>) => ({
  config: ctx.config,
  fetch: ctx.fetch,
  site: credentials.site ?? '',
  apiKey: credentials.api_key ?? '',
});

const sourceOf = (a: UseResponseAuth): ForumSource => ({
  changedTopics: (since, limit) => changedObjects(a, since, limit),
  comments: (id) => objectComments(a, id),
});

const invalidField = (name: string) =>
  new AppError(400, 'field.invalid', {
    errorType: 'validation',
    fields: { [`credentials.${name}`]: 'field.invalid' },
  });

const auth = (ctx: ConnectorContext) => authOf(ctx, ctx.credentials);

export const useresponseConnector: Connector = {
  id: 'useresponse',

  /** The address is a host name (not an IP or localhost) and the key can read the site's objects. */
  async verifyCredentials(ctx, input) {
    const site = parseSite(input.site ?? '');
    if (!site?.includes('.')) throw invalidField('site');
    const apiKey = (input.api_key ?? '').trim();
    if (!apiKey) throw invalidField('api_key');
    const credentials = { site, api_key: apiKey };
    await checkAccess(authOf(ctx, credentials));
    return { externalId: site, name: `UseResponse ${site}`, url: `https://${site}`, credentials };
  },

  /** Nothing to subscribe to: the account is polled. */
  async activate() {},

  poll: (ctx, cursor) => pollForum(sourceOf(auth(ctx)), cursor, ctx.config.USERESPONSE_POLL_S),

  importRecent: (ctx, limit) => importForum(sourceOf(auth(ctx)), limit),

  async sendReply(ctx, target, content) {
    const objectId = topicOf(NETWORK, target.postExternalId);
    const text = [content.text, ...content.attachments.map((a) => a.url)].filter(Boolean).join('\n');
    const id = await createComment(auth(ctx), objectId, text);
    return { externalId: id === null ? null : `${COMMENT}${id}` };
  },
};
