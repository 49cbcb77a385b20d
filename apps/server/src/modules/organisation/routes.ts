import type { FastifyInstance } from 'fastify';
import { type Authenticate, signedInScope } from '../../http/auth';
import { forbidden } from '../../lib/errors';
import type { AppDeps } from '../deps';
import { isMember } from '../spaces/actor';
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

const TAG = ['settings'];
const OK = { message: 'ok' } as const;

/**
 * Settings → companies, departments, user groups (docs/product/screens-and-routes.md, entities.md, roles.md). The read-only lists
 * GET /v1/companies and GET /v1/usergroups live in modules/spaces (every member reads them).
 */
export async function registerOrganisationModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    const serviceDeps = { db, bus: deps.bus };

    // ---------------------------------------------------------------- companies

    app.post(
      '/companies',
      {
        schema: { tags: TAG, summary: 'Create a company', body: createCompanyBody },
      },
      async (req) => {
        const { actor } = req;
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
        schema: {
          tags: TAG,
          summary: 'Rename a company or change its settings',
          params: idParams,
          body: updateCompanyBody,
        },
      },
      async (req) => {
        const { actor } = req;
        const company = assertManageable(
          actor,
          'companies',
          await organisation.getCompany(db, req.params.id),
        );
        return presentCompany(await organisation.updateCompany(serviceDeps, company, req.body, actor.userId));
      },
    );

    app.delete(
      '/companies/:id',
      {
        schema: { tags: TAG, summary: 'Delete a company', params: idParams },
      },
      async (req) => {
        const { actor } = req;
        const company = assertManageable(
          actor,
          'companies',
          await organisation.getCompany(db, req.params.id),
        );
        await organisation.deleteCompany(serviceDeps, company, actor.userId);
        return OK;
      },
    );

    // ---------------------------------------------------------------- departments

    app.get(
      '/departments',
      {
        schema: {
          tags: TAG,
          summary: "Departments of the caller's spaces (or of one of them)",
          querystring: spaceQuery,
        },
      },
      async (req) => {
        const { actor } = req;
        const spaceId = req.query.space_id;
        if (spaceId !== undefined && !isMember(actor, spaceId)) throw forbidden();
        const spaceIds = spaceId !== undefined ? [spaceId] : actor.rows.map((r) => r.space.id);
        const rows = await organisation.findDepartments(db, spaceIds);
        return { items: rows.map(presentDepartment) };
      },
    );

    app.get('/departments/:id', { schema: { tags: TAG, params: idParams } }, async (req) => {
      const { actor } = req;
      return presentDepartment(assertVisible(actor, await organisation.getDepartment(db, req.params.id)));
    });

    app.post(
      '/departments',
      {
        schema: { tags: TAG, summary: 'Create a department', body: createDepartmentBody },
      },
      async (req) => {
        const { actor } = req;
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
        schema: { tags: TAG, params: idParams, body: updateDepartmentBody },
      },
      async (req) => {
        const { actor } = req;
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
        schema: {
          tags: TAG,
          summary: 'Delete a department (members keep their other departments)',
          params: idParams,
        },
      },
      async (req) => {
        const { actor } = req;
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
        schema: {
          tags: TAG,
          summary: 'Create a user group limited to some companies and accounts',
          body: createUserGroupBody,
        },
      },
      async (req) => {
        const { actor } = req;
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
        schema: { tags: TAG, params: idParams, body: updateUserGroupBody },
      },
      async (req) => {
        const { actor } = req;
        const group = assertManageable(
          actor,
          'usergroups',
          await organisation.getUserGroup(db, req.params.id),
        );
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
        schema: {
          tags: TAG,
          summary: 'Delete a user group nobody is in (409 group_in_use otherwise)',
          params: idParams,
        },
      },
      async (req) => {
        const { actor } = req;
        const group = assertManageable(
          actor,
          'usergroups',
          await organisation.getUserGroup(db, req.params.id),
        );
        await organisation.deleteUserGroup(serviceDeps, group, actor.userId);
        return OK;
      },
    );
  });
}
