import {
  addedUserWireSchema,
  invitationWireSchema,
  memberRefsWireSchema,
  memberWireSchema,
  okWireSchema,
  usersWireSchema,
} from '@otklik/shared';
import { asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { memberships, users } from '../../db/schema';
import { type Authenticate, signedInScope } from '../../http/auth';
import { requestLocale } from '../../http/locale';
import { notFound } from '../../lib/errors';
import type { AppDeps } from '../deps';
import { registerOrganisationModule } from '../organisation/routes';
import * as invitations from './invitations';
import { assertUsersManageable, authorizeUsers, scopeUsers } from './policy';
import { presentInvitation, presentMember } from './presenter';
import {
  createUserBody,
  idParams,
  requiredSpaceQuery,
  rolesFrom,
  spaceQuery,
  updateUserBody,
} from './schemas';
import * as members from './service';

const TAG = ['settings'];

/** Settings → users (docs/product/screens-and-routes.md users, users/new, users/{id}), and the organisation settings beside them. */
export async function registerUsersModule(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    const serviceDeps = { db, mailer: deps.mailer, config: deps.config, bus: deps.bus };

    // Colleagues' names for everyone (assignee picker, "who replied"): id, name and status only.
    app.get(
      '/members',
      {
        schema: {
          tags: ['data'],
          summary: "Members of the caller's spaces: id, name, status",
          response: { 200: memberRefsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const spaceIds = actor.rows.map((r) => r.space.id);
        if (spaceIds.length === 0) return { items: [] };
        const rows = await db
          .select({
            id: users.id,
            name: users.name,
            spaceId: memberships.spaceId,
            status: memberships.statusId,
          })
          .from(memberships)
          .innerJoin(users, eq(users.id, memberships.userId))
          .where(inArray(memberships.spaceId, spaceIds))
          .orderBy(asc(users.name));
        return {
          items: rows.map((r) => ({ id: r.id, name: r.name, space_id: r.spaceId, status: r.status })),
        };
      },
    );

    app.get(
      '/users',
      {
        schema: {
          tags: TAG,
          summary: 'Members and pending invitations of the spaces whose users the caller manages',
          querystring: spaceQuery,
          response: { 200: usersWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const spaceIds = scopeUsers(actor, req.query.space_id);
        const [items, pending] = await Promise.all([
          members.findMembers(db, spaceIds),
          invitations.findPendingInvitations(db, spaceIds),
        ]);
        return { items: items.map(presentMember), invitations: pending.map(presentInvitation) };
      },
    );

    app.get(
      '/users/:id',
      {
        schema: {
          tags: TAG,
          summary: 'One member (in space_id, or in the first space whose users the caller manages)',
          params: idParams,
          querystring: spaceQuery,
          response: { 200: memberWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const member = await members.getMember(db, scopeUsers(actor, req.query.space_id), req.params.id);
        if (!member) throw notFound();
        return presentMember(member);
      },
    );

    app.post(
      '/users',
      {
        schema: {
          tags: TAG,
          summary:
            'Add a person to a space: an existing account joins at once ({user}); anyone else is invited by mail ({invitation})',
          body: createUserBody,
          response: { 200: addedUserWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorizeUsers(actor, req.body.space_id);
        const user = req.auth!.user;
        const result = await members.addUserToSpace(serviceDeps, {
          spaceId: req.body.space_id,
          email: req.body.email,
          // The body schema requires role or roles.
          roles: rolesFrom(req.body)!,
          groupId: req.body.group_id,
          departmentIds: req.body.department_ids,
          invitedBy: { id: user.id, name: user.name },
          locale: requestLocale(req),
          by: actor,
        });
        return result.kind === 'member'
          ? { user: presentMember(result.member) }
          : { invitation: presentInvitation(result.invitation) };
      },
    );

    app.put(
      '/users/:id',
      {
        schema: {
          tags: TAG,
          summary: "Change a member's role, group or departments in one space",
          params: idParams,
          body: updateUserBody,
          response: { 200: memberWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorizeUsers(actor, req.body.space_id);
        const member = await members.updateMember(
          { db, bus: deps.bus },
          {
            spaceId: req.body.space_id,
            userId: req.params.id,
            roles: rolesFrom(req.body),
            groupId: req.body.group_id,
            departmentIds: req.body.department_ids,
            performedBy: actor.userId,
            by: actor,
          },
        );
        return presentMember(member);
      },
    );

    app.delete(
      '/users/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Remove a member from a space (the account stays)',
          params: idParams,
          querystring: requiredSpaceQuery,
          response: { 200: okWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorizeUsers(actor, req.query.space_id);
        await members.removeMember(
          { db, bus: deps.bus },
          { spaceId: req.query.space_id, userId: req.params.id, performedBy: actor.userId, by: actor },
        );
        return { message: 'ok' as const };
      },
    );

    app.delete(
      '/users/invitations/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Revoke a pending invitation',
          params: idParams,
          response: { 200: okWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const invitation = assertUsersManageable(
          actor,
          await invitations.getOpenInvitation(db, req.params.id),
        );
        await invitations.revokeInvitation(serviceDeps, invitation, actor.userId, actor);
        return { message: 'ok' as const };
      },
    );

    app.post(
      '/users/invitations/:id/resend',
      {
        schema: {
          tags: TAG,
          summary: 'Mail a pending invitation again with a new link (the old link stops working)',
          params: idParams,
          response: { 200: invitationWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const invitation = assertUsersManageable(
          actor,
          await invitations.getOpenInvitation(db, req.params.id),
        );
        const user = req.auth!.user;
        const renewed = await invitations.resendInvitation(serviceDeps, invitation, {
          invitedBy: { id: user.id, name: user.name },
          locale: requestLocale(req),
        });
        return presentInvitation(renewed);
      },
    );
  });
  await registerOrganisationModule(root, deps, authenticate);
}
