import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app';
import { type AuthContext, requireAuth } from '../../http/auth';
import { forbidden } from '../../lib/errors';
import { isMember, loadActor } from '../spaces/actor';
import { assertManageable, assertVisible, authorizeOrganisation } from './policy';
import { presentCompany, presentDepartment, presentUserGroup } from './presenter';
import {
  createCompanyBody,
  createDepartmentBody,
  createUserGroupBody,
  idParams,
  spaceQuery,
  updateCompanyBody,
  updateDepartmentBody,
  updateUserGroupBody,
} from './schemas';
import * as organisation from './service';

const bearer = [{ bearer: [] }];
const TAG = ['settings'];
const OK = { message: 'ok' } as const;

/**
 * Settings → companies, departments, user groups (docs/product/screens-and-routes.md, entities.md, roles.md). The read-only lists
 * GET /v1/companies and GET /v1/usergroups live in modules/spaces (every member reads them).
 */
export async function registerOrganisationModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: (token: string) => Promise<AuthContext>,
) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const authenticated = requireAuth(authenticate);
  const { db } = deps.database;
  const serviceDeps = { db, bus: deps.bus };

  // ---------------------------------------------------------------- companies

  app.post(
    '/companies',
    {
      preHandler: authenticated,
      schema: { tags: TAG, security: bearer, summary: 'Create a company', body: createCompanyBody },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      authorizeOrganisation(actor, 'companies', req.body.space_id);
      const row = await organisation.createCompany(serviceDeps, {
        spaceId: req.body.space_id,
        name: req.body.name,
        settings: req.body.settings,
        performedBy: actor.userId,
      });
      return presentCompany(row);
    },
  );

  app.put(
    '/companies/:id',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security: bearer,
        summary: 'Rename a company or change its settings',
        params: idParams,
        body: updateCompanyBody,
      },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      const company = assertManageable(actor, 'companies', await organisation.getCompany(db, req.params.id));
      return presentCompany(await organisation.updateCompany(serviceDeps, company, req.body, actor.userId));
    },
  );

  app.delete(
    '/companies/:id',
    {
      preHandler: authenticated,
      schema: { tags: TAG, security: bearer, summary: 'Delete a company', params: idParams },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      const company = assertManageable(actor, 'companies', await organisation.getCompany(db, req.params.id));
      await organisation.deleteCompany(serviceDeps, company, actor.userId);
      return OK;
    },
  );

  // ---------------------------------------------------------------- departments

  app.get(
    '/departments',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security: bearer,
        summary: "Departments of the caller's spaces (or of one of them)",
        querystring: spaceQuery,
      },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      const spaceId = req.query.space_id;
      if (spaceId !== undefined && !isMember(actor, spaceId)) throw forbidden();
      const spaceIds = spaceId !== undefined ? [spaceId] : actor.rows.map((r) => r.space.id);
      const rows = await organisation.findDepartments(db, spaceIds);
      return { items: rows.map(presentDepartment) };
    },
  );

  app.get(
    '/departments/:id',
    { preHandler: authenticated, schema: { tags: TAG, security: bearer, params: idParams } },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      return presentDepartment(assertVisible(actor, await organisation.getDepartment(db, req.params.id)));
    },
  );

  app.post(
    '/departments',
    {
      preHandler: authenticated,
      schema: { tags: TAG, security: bearer, summary: 'Create a department', body: createDepartmentBody },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      authorizeOrganisation(actor, 'departments', req.body.space_id);
      const row = await organisation.createDepartment(serviceDeps, {
        spaceId: req.body.space_id,
        name: req.body.name,
        performedBy: actor.userId,
      });
      return presentDepartment(row);
    },
  );

  app.put(
    '/departments/:id',
    {
      preHandler: authenticated,
      schema: { tags: TAG, security: bearer, params: idParams, body: updateDepartmentBody },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      const department = assertManageable(
        actor,
        'departments',
        await organisation.getDepartment(db, req.params.id),
      );
      return presentDepartment(
        await organisation.updateDepartment(serviceDeps, department, req.body, actor.userId),
      );
    },
  );

  app.delete(
    '/departments/:id',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security: bearer,
        summary: 'Delete a department (members keep their other departments)',
        params: idParams,
      },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      const department = assertManageable(
        actor,
        'departments',
        await organisation.getDepartment(db, req.params.id),
      );
      await organisation.deleteDepartment(serviceDeps, department, actor.userId);
      return OK;
    },
  );

  // ---------------------------------------------------------------- user groups

  app.post(
    '/usergroups',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security: bearer,
        summary: 'Create a user group limited to some companies and accounts',
        body: createUserGroupBody,
      },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      authorizeOrganisation(actor, 'usergroups', req.body.space_id);
      const row = await organisation.createUserGroup(serviceDeps, {
        spaceId: req.body.space_id,
        name: req.body.name,
        companyIds: req.body.company_ids,
        objectIds: req.body.object_ids,
        performedBy: actor.userId,
      });
      return presentUserGroup(row);
    },
  );

  app.put(
    '/usergroups/:id',
    {
      preHandler: authenticated,
      schema: { tags: TAG, security: bearer, params: idParams, body: updateUserGroupBody },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      const group = assertManageable(actor, 'usergroups', await organisation.getUserGroup(db, req.params.id));
      const row = await organisation.updateUserGroup(
        serviceDeps,
        group,
        { name: req.body.name, companyIds: req.body.company_ids, objectIds: req.body.object_ids },
        actor.userId,
      );
      return presentUserGroup(row);
    },
  );

  app.delete(
    '/usergroups/:id',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security: bearer,
        summary: 'Delete a user group nobody is in (409 group_in_use otherwise)',
        params: idParams,
      },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      const group = assertManageable(actor, 'usergroups', await organisation.getUserGroup(db, req.params.id));
      await organisation.deleteUserGroup(serviceDeps, group, actor.userId);
      return OK;
    },
  );
}
