import multipart from '@fastify/multipart';
import {
  createIssueBody,
  ISSUE_ATTACHMENT_MAX_BYTES,
  ISSUE_LINK_KINDS,
  type IssueUploadDto,
  issueCommentBody,
  issueCommentWireSchema,
  issueListQuery,
  issueListWireSchema,
  issuePageWireSchema,
  issueSettingsBody,
  issueSettingsWireSchema,
  issueStatsWireSchema,
  issuesLinkedWireSchema,
  issueUploadWireSchema,
  issueWireSchema,
  okWireSchema,
  statsQuery,
  updateIssueBody,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { type Authenticate, signedInScope } from '../../http/auth';
import { rowId } from '../../http/validation';
import { taskClock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { AppDeps } from '../deps';
import { openStored, storeUpload } from '../inbox/actions/uploads';
import { authorize } from '../spaces/actor';
import { registerCounter } from '../spaces/counts';
import * as issueFiles from './files';
import { assertIssue, EDIT, issueInScope, issueScope, MANAGE, VIEW } from './policy';
import { presentComment, presentHistory, presentIssue } from './presenter';
import * as queries from './queries';
import * as service from './service';
import { issueStats } from './stats';

const TAG = ['issues'];
const idParams = z.object({ id: rowId });
const linkedQuery = z.object({
  kind: z.enum(ISSUE_LINK_KINDS),
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

async function present(db: Db, rows: service.IssueRow[], now = taskClock.now()) {
  const ids = rows.map((r) => r.id);
  const [links, counts] = await Promise.all([queries.linksOf(db, ids), queries.commentCounts(db, ids)]);
  return rows.map((r) => presentIssue(r, links, counts.get(r.id) ?? 0, now));
}

/** Tasks (issue 16): the list, the task page, comments, linked tasks of a record, stats/issues. */
export async function registerIssuesModule(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    const serviceDeps = { db, bus: deps.bus };

    // docs/product/entities.md Config issues_count / issues_expired_count: open tasks assigned to the caller, and past due.
    const inFlight = new WeakMap<object, Promise<{ open: number; expired: number }>>();
    const mine = (d: Db, actor: Parameters<typeof issueScope>[1]) => {
      let counts = inFlight.get(actor);
      if (!counts) {
        counts = issueScope(d, actor)
          .then((scope) => queries.countMine(d, scope))
          .finally(() => inFlight.delete(actor));
        inFlight.set(actor, counts);
      }
      return counts;
    };
    registerCounter('issues_count', async (d, actor) => (await mine(d, actor)).open);
    registerCounter('issues_expired_count', async (d, actor) => (await mine(d, actor)).expired);

    app.get(
      '/issues',
      {
        schema: {
          tags: TAG,
          summary: 'Tasks, filtered and sorted',
          querystring: issueListQuery,
          response: { 200: issueListWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        if (req.query.space_id !== undefined) authorize(actor, VIEW, req.query.space_id);
        const query = queries.withDefaults(req.query, await queries.userSettingsOf(db, actor.userId));
        const { rows, total, nextCursor } = await queries.findIssues(db, await issueScope(db, actor), query);
        return {
          items: await present(db, rows),
          total,
          next_cursor: nextCursor,
          applied: {
            assigned_to: query.assigned_to,
            department_id: query.department_id ?? null,
            sort: query.sort,
          },
        };
      },
    );

    app.put(
      '/issues/settings',
      {
        schema: {
          tags: TAG,
          summary: 'Task statuses and the default assignee',
          body: issueSettingsBody,
          response: { 200: issueSettingsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, MANAGE, req.body.space_id);
        // The web reloads its config after saving; other members see the change on their next load.
        const saved = await service.saveIssueSettings(db, actor, req.body.space_id, req.body);
        return saved;
      },
    );

    app.get(
      '/issues/linked',
      {
        schema: {
          tags: TAG,
          summary: 'Tasks about one item, chat or author',
          querystring: linkedQuery,
          response: { 200: issuesLinkedWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const rows = await queries.findLinked(db, await issueScope(db, actor), req.query.kind, req.query.id);
        return { items: await present(db, rows) };
      },
    );

    app.get(
      '/issues/:id',
      {
        schema: {
          tags: TAG,
          summary: 'One task with comments and history',
          params: idParams,
          response: { 200: issuePageWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = await assertIssue(db, actor, await queries.getIssue(db, req.params.id), VIEW);
        const [[dto], comments, history, editScope, manageScope] = await Promise.all([
          present(db, [row]),
          queries.commentsOf(db, row.id),
          queries.historyOf(db, row.id),
          issueScope(db, actor, EDIT),
          issueScope(db, actor, MANAGE),
        ]);
        return {
          ...dto!,
          comments: comments.map(presentComment),
          history: history.map(presentHistory),
          can_edit: issueInScope(editScope, row),
          can_delete: issueInScope(manageScope, row),
        };
      },
    );

    app.post(
      '/issues',
      {
        schema: {
          tags: TAG,
          summary: 'Create a task',
          body: createIssueBody,
          response: { 200: issueWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, EDIT, req.body.space_id);
        const row = await service.createIssue(serviceDeps, actor, req.body);
        return (await present(db, [row]))[0]!;
      },
    );

    app.put(
      '/issues/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Change a task',
          params: idParams,
          body: updateIssueBody,
          response: { 200: issueWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = await assertIssue(db, actor, await queries.getIssue(db, req.params.id), EDIT);
        const updated = await service.updateIssue(serviceDeps, actor, row, req.body);
        return (await present(db, [updated]))[0]!;
      },
    );

    app.delete(
      '/issues/:id',
      {
        schema: { tags: TAG, summary: 'Delete a task', params: idParams, response: { 200: okWireSchema } },
      },
      async (req) => {
        const { actor } = req;
        const row = await assertIssue(db, actor, await queries.getIssue(db, req.params.id), MANAGE);
        await service.deleteIssue(serviceDeps, actor, row);
        return { message: 'ok' as const };
      },
    );

    app.post(
      '/issues/:id/comments',
      {
        schema: {
          tags: TAG,
          summary: 'Comment on a task',
          params: idParams,
          body: issueCommentBody,
          response: { 200: issueCommentWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = await assertIssue(db, actor, await queries.getIssue(db, req.params.id), EDIT);
        return presentComment(await service.addComment(serviceDeps, actor, row, req.body, deps.config));
      },
    );

    // Files for a comment: uploaded first (multipart, field `file`), then named in the comment's
    // `attachments`; downloaded by members who see the task. The multipart parser is this scope's only.
    await app.register(async (scope) => {
      await scope.register(multipart, {
        limits: { fileSize: ISSUE_ATTACHMENT_MAX_BYTES, files: 1, fields: 5 },
        throwFileSizeLimit: false,
      });
      const files = scope.withTypeProvider<ZodTypeProvider>();
      const fileParams = idParams.extend({ file: z.string().max(100) });

      files.post(
        '/issues/:id/attachments',
        {
          schema: {
            tags: TAG,
            summary: "Upload a file for a task's comment (see ISSUE_ATTACHMENT_TYPES, up to 10 MB)",
            consumes: ['multipart/form-data'],
            params: idParams,
            response: { 200: issueUploadWireSchema },
          },
        },
        async (req): Promise<IssueUploadDto> => {
          const { actor } = req;
          const row = await assertIssue(db, actor, await queries.getIssue(db, req.params.id), EDIT);
          if (!req.isMultipart()) throw new AppError(400, 'upload.missing');
          const file = await req.file();
          if (!file) throw new AppError(400, 'upload.missing');
          const stored = await storeUpload(deps.config, file, issueFiles.issueUploadRules(row.spaceId));
          return { file: stored.file, name: stored.name, mime: stored.mime, size: stored.size };
        },
      );

      files.get(
        '/issues/:id/attachments/:file',
        {
          schema: {
            tags: TAG,
            summary: "A file of the task's comments, for members who see the task",
            params: fileParams,
          },
        },
        async (req, reply) => {
          const { actor } = req;
          const row = await assertIssue(db, actor, await queries.getIssue(db, req.params.id), VIEW);
          const found = await issueFiles.findIssueFile(db, row.id, req.params.file);
          const stored = found
            ? await openStored(deps.config, req.params.file, issueFiles.issueUploadRules(row.spaceId))
            : null;
          if (!found || !stored) throw new AppError(404, 'error.notFound');
          return reply
            .type(stored.mime)
            .header('content-length', stored.size)
            .header('x-content-type-options', 'nosniff')
            .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(found.name)}`)
            .header('cache-control', 'private, max-age=3600')
            .send(stored.stream);
        },
      );
    });

    app.get(
      '/stats/issues',
      {
        schema: {
          tags: ['stats'],
          summary: 'Tasks created, closed, expired; by assignee and department',
          querystring: statsQuery,
          response: { 200: issueStatsWireSchema },
        },
      },
      async (req) => issueStats(db, req.actor, req.query, taskClock.now()),
    );
  });
}
