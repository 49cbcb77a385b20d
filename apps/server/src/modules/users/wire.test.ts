import { describe, expect, it } from 'vitest';
import { openApiSuite, requiredKeys, successSchema } from '../../../test/openapi-doc';
import { companies } from '../../db/schema';
import { buildAdmin } from './testing';

const suite = openApiSuite();

/** The required keys of the documented success answer. */
const required = (method: string, path: string) => requiredKeys(suite.doc, method, path);

/** The required keys of each alternative of a documented union answer. */
const alternatives = (method: string, path: string) =>
  successSchema(suite.doc, method, path).anyOf?.map((s) => s.required ?? []) ?? [];

const MEMBER = [
  'id',
  'name',
  'email',
  'space_id',
  'role',
  'roles',
  'group_id',
  'department_ids',
  'joined_at',
];

describe('/v1/openapi.json documents the members and organisation answers', () => {
  it('members, users and invitations', () => {
    expect(required('get', '/v1/members')).toEqual(['items']);
    expect(required('get', '/v1/users')).toEqual(expect.arrayContaining(['items', 'invitations']));
    expect(required('get', '/v1/users/{id}')).toEqual(expect.arrayContaining(MEMBER));
    expect(required('put', '/v1/users/{id}')).toEqual(expect.arrayContaining(MEMBER));
    expect(alternatives('post', '/v1/users')).toEqual([['user'], ['invitation']]);
    expect(required('delete', '/v1/users/{id}')).toEqual(['message']);
    expect(required('delete', '/v1/users/invitations/{id}')).toEqual(['message']);
    expect(required('post', '/v1/users/invitations/{id}/resend')).toEqual(
      expect.arrayContaining(['id', 'email', 'space_id', 'role', 'roles', 'created_at', 'expires_at']),
    );
  });

  it('departments and companies', () => {
    expect(required('get', '/v1/departments')).toEqual(['items']);
    expect(required('get', '/v1/departments/{id}')).toEqual(
      expect.arrayContaining(['id', 'name', 'space_id']),
    );
    expect(required('get', '/v1/companies')).toEqual(['items']);
  });
});

describe('GET /v1/companies', () => {
  it('sends a company stored without settings with the defaults (presentCompany)', async () => {
    const admin = await buildAdmin(suite.t);
    const [row] = await suite.t.deps.database.db
      .insert(companies)
      .values({ spaceId: admin.space.id, name: 'Acme', settings: {} })
      .returning();
    const res = await suite.t.app.inject({ method: 'GET', url: '/v1/companies', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toEqual([
      {
        id: row!.id,
        name: 'Acme',
        space_id: admin.space.id,
        settings: { items_assigned_to: null, status_open: false, tags_mode: 'space' },
      },
    ]);
  });
});
