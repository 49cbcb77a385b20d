import {
  can,
  listWireSchema,
  QA_APPROVALS_EVENT,
  type QaApprovalMemberDto,
  qaApprovalEditBody,
  qaApprovalMemberBody,
  qaApprovalMemberWireSchema,
  qaApprovalsQuery,
  qaApprovalWireSchema,
  qaApproveBody,
  qaRejectBody,
} from '@otklik/shared';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { memberships, users } from '../../db/schema';
import type { ZodApp } from '../../http/auth';
import { taskClock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../audit/record';
import type { AppDeps } from '../deps';
import type { ActionDeps } from '../inbox/actions/send';
import { scopeFor } from '../inbox/read/scope';
import { authorize, type ServerActor, spaceIdsWhere } from '../spaces/actor';
import { approve, editHeld, getApproval, listApprovals, reject } from './approval';
import { MANAGE, REVIEW } from './policy';

const TAG = ['qa'];
const idParams = z.object({ id: z.coerce.number().int().positive() });
const memberParams = z.object({ userId: z.coerce.number().int().positive() });
const spaceQuery = z.object({ space_id: z.coerce.number().int().positive() });

/** Who switches approval mode on a member: the scorecard managers and the reviewers of the space. */
function assertApprovalAdmin(actor: ServerActor, spaceId: number) {
  if (can(actor, MANAGE, spaceId)) return;
  authorize(actor, REVIEW, spaceId);
}

/** Approval mode (issue 21, docs/product/qa.md "Approval of replies"): members, the queue, decisions. */
export function registerApprovalRoutes(api: ZodApp, deps: AppDeps) {
  const { db } = deps.database;
  const actionDeps: ActionDeps = {
    db,
    bus: deps.bus,
    config: deps.config,
    sealer: deps.sealer,
    locks: deps.locks,
  };

  api.get(
    '/qa/approval-members',
    {
      schema: {
        tags: TAG,
        summary: 'Members of a space and whether their replies need approval',
        querystring: spaceQuery,
        response: { 200: listWireSchema(qaApprovalMemberWireSchema) },
      },
    },
    async (req) => {
      const { actor } = req;
      assertApprovalAdmin(actor, req.query.space_id);
      const now = taskClock.now();
      const rows = await db
        .select({
          userId: memberships.userId,
          name: users.name,
          required: memberships.approvalRequired,
          until: memberships.approvalUntil,
        })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(eq(memberships.spaceId, req.query.space_id))
        .orderBy(asc(users.name), asc(users.id));
      const items: QaApprovalMemberDto[] = rows.map((r) => ({
        user_id: r.userId,
        name: r.name ?? '',
        required: r.required,
        until: r.until?.toISOString() ?? null,
        active: r.required && (r.until === null || r.until > now),
      }));
      return { items };
    },
  );

  api.put(
    '/qa/approval-members/:userId',
    {
      schema: {
        tags: TAG,
        summary: 'Switch approval mode on or off for a member (optionally for the first N days)',
        params: memberParams,
        body: qaApprovalMemberBody,
        response: { 200: qaApprovalMemberWireSchema },
      },
    },
    async (req) => {
      const { actor } = req;
      const { space_id: spaceId, required, days } = req.body;
      assertApprovalAdmin(actor, spaceId);
      const now = taskClock.now();
      const until = required && days ? new Date(now.getTime() + days * 86_400_000) : null;
      const updated = await db.transaction(async (tx) => {
        const [before] = await tx
          .select()
          .from(memberships)
          .where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, req.params.userId)));
        if (!before) throw notFound();
        const [row] = await tx
          .update(memberships)
          .set({ approvalRequired: required, approvalUntil: until })
          .where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, req.params.userId)))
          .returning();
        const [user] = await tx
          .select({ name: users.name })
          .from(users)
          .where(eq(users.id, req.params.userId));
        await audit(tx, actor, {
          spaceId,
          kind: 'qa_approval.member',
          target: { type: 'user', id: req.params.userId, label: user?.name ?? '' },
          before: { required: before.approvalRequired, until: before.approvalUntil?.toISOString() ?? null },
          after: { required, until: until?.toISOString() ?? null },
        });
        return { row: row!, name: user?.name ?? '' };
      });
      await deps.bus.publish({ type: QA_APPROVALS_EVENT, spaceId, payload: { members: true } });
      const dto: QaApprovalMemberDto = {
        user_id: updated.row.userId,
        name: updated.name,
        required: updated.row.approvalRequired,
        until: updated.row.approvalUntil?.toISOString() ?? null,
        active: required && (until === null || until > now),
      };
      return dto;
    },
  );

  api.get(
    '/qa/approvals',
    {
      schema: {
        tags: TAG,
        summary: 'Replies waiting for approval (the reviewer queue), or the caller’s own held replies',
        querystring: qaApprovalsQuery,
        response: { 200: listWireSchema(qaApprovalWireSchema) },
      },
    },
    async (req) => {
      const { actor } = req;
      const { view, space_id: spaceId, status, limit } = req.query;
      if (view === 'mine') {
        if (spaceId !== undefined && !actor.rows.some((r) => r.space.id === spaceId)) throw notFound();
        return {
          items: await listApprovals(db, null, actor.userId, {
            spaceId,
            status,
            operatorId: actor.userId,
            limit,
          }),
        };
      }
      if (spaceId !== undefined) authorize(actor, REVIEW, spaceId);
      else if (spaceIdsWhere(actor, REVIEW).length === 0) authorize(actor, REVIEW, 0);
      const scope = await scopeFor(db, actor, REVIEW);
      return { items: await listApprovals(db, scope, actor.userId, { spaceId, status, limit }) };
    },
  );

  api.get(
    '/qa/approvals/:id',
    {
      schema: {
        tags: TAG,
        summary: 'One held reply',
        params: idParams,
        response: { 200: qaApprovalWireSchema },
      },
    },
    async (req) => getApproval(db, req.actor, req.params.id),
  );

  const DECIDE =
    'Only a `qa` reviewer who sees the account, never for their own reply (403 `qa.approval.own`). A reply decided already (or withdrawn): 409 `error_type` decided.';
  api.post(
    '/qa/approvals/:id/approve',
    {
      schema: {
        tags: TAG,
        summary: 'Approve a held reply (with `text`: edit and approve); it goes out as the operator’s',
        description: `${DECIDE} Past the network's reply window: 409 \`error_type\` window_passed, and the reply is marked failed with the network's reason.`,
        params: idParams,
        body: qaApproveBody,
        response: { 200: qaApprovalWireSchema },
      },
    },
    async (req) => approve(actionDeps, req.actor, req.params.id, req.body, taskClock.now()),
  );

  api.post(
    '/qa/approvals/:id/reject',
    {
      schema: {
        tags: TAG,
        summary: 'Reject a held reply with a comment: it is not sent, the operator is notified',
        description: DECIDE,
        params: idParams,
        body: qaRejectBody,
        response: { 200: qaApprovalWireSchema },
      },
    },
    async (req) => reject(actionDeps, req.actor, req.params.id, req.body, taskClock.now()),
  );

  api.put(
    '/qa/approvals/:id',
    {
      schema: {
        tags: TAG,
        summary: 'The author changes the text of their held reply',
        description:
          'To withdraw it, the author undoes it like an undoable send: POST /v1/items/{reply_id}/undo or /v1/messages/{reply_id}/undo.',
        params: idParams,
        body: qaApprovalEditBody,
        response: { 200: qaApprovalWireSchema },
      },
    },
    async (req) => {
      const { actor } = req;
      if (!req.body.text.trim()) throw new AppError(400, 'reply.empty', { errorType: 'validation' });
      return editHeld(actionDeps, actor, req.params.id, req.body);
    },
  );
}
