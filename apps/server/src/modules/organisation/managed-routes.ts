import type { z } from 'zod';
import type { ZodApp } from '../../http/auth';
import type { ServerActor } from '../spaces/actor';
import { assertManageable, authorizeOrganisation, type OrganisationEntity } from './policy';
import { idParams } from './schemas';

const TAG = ['settings'];
const OK = { message: 'ok' } as const;

/**
 * One kind of organisation record (companies, departments, user groups) as the settings manage it:
 * POST creates it in the space named in the body, PUT and DELETE find it by id, and each answers 404
 * for a record outside the spaces where the actor may manage `entity` (policy.ts).
 */
export interface ManagedKind<
  Row extends { spaceId: number },
  Create extends z.ZodType<{ space_id: number }>,
  Update extends z.ZodType,
> {
  path: string;
  entity: OrganisationEntity;
  find: (id: number) => Promise<Row | undefined>;
  present: (row: Row) => unknown;
  create: {
    summary: string;
    body: Create;
    run: (body: z.output<Create>, actor: ServerActor) => Promise<Row>;
  };
  update: {
    summary?: string;
    body: Update;
    run: (row: Row, body: z.output<Update>, actor: ServerActor) => Promise<Row>;
  };
  remove: { summary: string; run: (row: Row, actor: ServerActor) => Promise<unknown> };
}

export function registerManagedKind<
  Row extends { spaceId: number },
  Create extends z.ZodType<{ space_id: number }>,
  Update extends z.ZodType,
>(app: ZodApp, kind: ManagedKind<Row, Create, Update>) {
  const { path, entity } = kind;
  const manageable = async (actor: ServerActor, id: number) =>
    assertManageable(actor, entity, await kind.find(id));

  app.post(
    path,
    { schema: { tags: TAG, summary: kind.create.summary, body: kind.create.body } },
    async (req) => {
      const body = req.body as z.output<Create>;
      authorizeOrganisation(req.actor, entity, body.space_id);
      return kind.present(await kind.create.run(body, req.actor));
    },
  );

  app.put(
    `${path}/:id`,
    { schema: { tags: TAG, summary: kind.update.summary, params: idParams, body: kind.update.body } },
    async (req) => {
      const row = await manageable(req.actor, req.params.id);
      return kind.present(await kind.update.run(row, req.body as z.output<Update>, req.actor));
    },
  );

  app.delete(
    `${path}/:id`,
    { schema: { tags: TAG, summary: kind.remove.summary, params: idParams } },
    async (req) => {
      await kind.remove.run(await manageable(req.actor, req.params.id), req.actor);
      return OK;
    },
  );
}
