import { companyWireSchema, departmentWireSchema, listWireSchema, userGroupWireSchema } from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { type Authenticate, signedInScope } from '../../http/auth';
import { registerManagedKind } from '../../http/managed-routes';
import { forbidden } from '../../lib/errors';
import type { AppDeps } from '../deps';
import { isMember, type ServerActor } from '../spaces/actor';
import { assertManageable, assertVisible, authorizeOrganisation, type OrganisationEntity } from './policy';
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
    const manage = <Row extends { spaceId: number }>(
      entity: OrganisationEntity,
      find: (id: number) => Promise<Row | undefined>,
    ) => ({
      tags: TAG,
      authorizeCreate: (actor: ServerActor, spaceId: number) => authorizeOrganisation(actor, entity, spaceId),
      manageable: async (actor: ServerActor, id: number) => assertManageable(actor, entity, await find(id)),
    });

    // ---------------------------------------------------------------- companies

    registerManagedKind(app, {
      path: '/companies',
      ...manage('companies', (id) => organisation.getCompany(db, id)),
      record: companyWireSchema,
      present: presentCompany,
      create: {
        summary: 'Create a company',
        body: createCompanyBody,
        run: (body, actor) =>
          organisation.createCompany(serviceDeps, {
            spaceId: body.space_id,
            name: body.name,
            settings: body.settings,
            performedBy: actor.userId,
          }),
      },
      update: {
        summary: 'Rename a company or change its settings',
        body: updateCompanyBody,
        run: (company, body, actor) => organisation.updateCompany(serviceDeps, company, body, actor.userId),
      },
      remove: {
        summary: 'Delete a company',
        run: (company, actor) => organisation.deleteCompany(serviceDeps, company, actor.userId),
      },
    });

    // ---------------------------------------------------------------- departments

    app.get(
      '/departments',
      {
        schema: {
          tags: TAG,
          summary: "Departments of the caller's spaces (or of one of them)",
          querystring: spaceQuery,
          response: { 200: listWireSchema(departmentWireSchema) },
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

    app.get(
      '/departments/:id',
      { schema: { tags: TAG, params: idParams, response: { 200: departmentWireSchema } } },
      async (req) => {
        const { actor } = req;
        return presentDepartment(assertVisible(actor, await organisation.getDepartment(db, req.params.id)));
      },
    );

    registerManagedKind(app, {
      path: '/departments',
      ...manage('departments', (id) => organisation.getDepartment(db, id)),
      record: departmentWireSchema,
      present: presentDepartment,
      create: {
        summary: 'Create a department',
        body: createDepartmentBody,
        run: (body, actor) =>
          organisation.createDepartment(serviceDeps, {
            spaceId: body.space_id,
            name: body.name,
            performedBy: actor.userId,
          }),
      },
      update: {
        body: updateDepartmentBody,
        run: (department, body, actor) =>
          organisation.updateDepartment(serviceDeps, department, body, actor.userId),
      },
      remove: {
        summary: 'Delete a department (members keep their other departments)',
        run: (department, actor) => organisation.deleteDepartment(serviceDeps, department, actor.userId),
      },
    });

    // ---------------------------------------------------------------- user groups

    registerManagedKind(app, {
      path: '/usergroups',
      ...manage('usergroups', (id) => organisation.getUserGroup(db, id)),
      record: userGroupWireSchema,
      present: presentUserGroup,
      create: {
        summary: 'Create a user group limited to some companies and accounts',
        body: createUserGroupBody,
        run: (body, actor) =>
          organisation.createUserGroup(serviceDeps, {
            spaceId: body.space_id,
            name: body.name,
            companyIds: body.company_ids,
            objectIds: body.object_ids,
            performedBy: actor.userId,
          }),
      },
      update: {
        body: updateUserGroupBody,
        run: (group, body, actor) =>
          organisation.updateUserGroup(
            serviceDeps,
            group,
            { name: body.name, companyIds: body.company_ids, objectIds: body.object_ids },
            actor.userId,
          ),
      },
      remove: {
        summary: 'Delete a user group nobody is in (409 group_in_use otherwise)',
        run: (group, actor) => organisation.deleteUserGroup(serviceDeps, group, actor.userId),
      },
    });
  });
}
