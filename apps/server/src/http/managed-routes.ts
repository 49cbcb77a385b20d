import { okWireSchema } from '@otklik/shared';
import { z } from 'zod';
import type { ServerActor } from './actor';
import type { ZodApp } from './auth';

const OK = { message: 'ok' } as const;
const idParams = z.object({ id: z.coerce.number().int().positive() });

/**
 * One kind of settings record of a space (companies, departments, user groups, tags, tag groups,
 * author labels) as the settings change it: POST `path` creates one in the space named in the body,
 * GET (when `read` is given), PUT and DELETE `path/:id` find one by id. Who may do it stays with the module: `authorizeCreate`
 * throws 403 for the space (it sees the body too, for a kind whose create asks more of some bodies),
 * `manageable` throws 404 for a record the actor may not manage.
 */
export interface ManagedKind<
  Row,
  Create extends z.ZodType<{ space_id: number }>,
  Update extends z.ZodType,
  Removed = unknown,
> {
  path: string;
  tags: string[];
  authorizeCreate: (actor: ServerActor, spaceId: number, body: z.output<Create>) => void;
  manageable: (actor: ServerActor, id: number) => Promise<Row>;
  /** The record as the create and update answers show it: the shared schema and its presenter. */
  record: z.ZodType;
  present: (row: Row) => unknown;
  /** GET `path/:id`: one record the actor may manage, as `present` shows it (omit where reading differs). */
  read?: { summary: string };
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
  remove: {
    summary: string;
    run: (row: Row, actor: ServerActor) => Promise<Removed>;
    /** The answer to DELETE and its schema; `{ message: 'ok' }` unless given. */
    answer?: (removed: Removed) => object;
    answerSchema?: z.ZodType;
  };
}

export function registerManagedKind<
  Row,
  Create extends z.ZodType<{ space_id: number }>,
  Update extends z.ZodType,
  Removed = unknown,
>(app: ZodApp, kind: ManagedKind<Row, Create, Update, Removed>) {
  const { path, tags } = kind;

  const answer = { 200: kind.record };
  if (kind.read) {
    app.get(
      `${path}/:id`,
      { schema: { tags, summary: kind.read.summary, params: idParams, response: answer } },
      async (req) => kind.present(await kind.manageable(req.actor, req.params.id)),
    );
  }

  app.post(
    path,
    { schema: { tags, summary: kind.create.summary, body: kind.create.body, response: answer } },
    async (req) => {
      const body = req.body as z.output<Create>;
      kind.authorizeCreate(req.actor, body.space_id, body);
      return kind.present(await kind.create.run(body, req.actor));
    },
  );

  app.put(
    `${path}/:id`,
    {
      schema: {
        tags,
        summary: kind.update.summary,
        params: idParams,
        body: kind.update.body,
        response: answer,
      },
    },
    async (req) => {
      const row = await kind.manageable(req.actor, req.params.id);
      return kind.present(await kind.update.run(row, req.body as z.output<Update>, req.actor));
    },
  );

  app.delete(
    `${path}/:id`,
    {
      schema: {
        tags,
        summary: kind.remove.summary,
        params: idParams,
        response: { 200: kind.remove.answerSchema ?? okWireSchema },
      },
    },
    async (req) => {
      const removed = await kind.remove.run(await kind.manageable(req.actor, req.params.id), req.actor);
      return kind.remove.answer ? kind.remove.answer(removed) : OK;
    },
  );
}
