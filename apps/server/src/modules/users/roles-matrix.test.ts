import { ROLE_PRESET_NAMES, type RolePresetName } from '@otklik/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, uniqueEmail } from '../../../test/harness';
import { buildAdmin, buildMember, setTariff } from './testing';

// docs/product/roles.md: the five named roles against sample API actions. A changed cell is a permission change:
// review it as one.

let t: TestApp;
let spaceId: number;
let targetId: number;
const headersOf = {} as Record<RolePresetName, Record<string, string>>;

beforeAll(async () => {
  t = await createTestApp();
  const owner = await buildAdmin(t);
  spaceId = owner.space.id;
  await setTariff(t, spaceId, 20); // unlimited seats: owner, five roles and a target
  for (const role of ROLE_PRESET_NAMES) headersOf[role] = (await buildMember(t, spaceId, role)).headers;
  targetId = (await buildMember(t, spaceId, 'read-only')).user.id;
});
afterAll(() => t.close());

type Request = (headers: Record<string, string>) => Promise<LightMyRequestResponse>;

const ADMIN_ONLY = {
  'read-only': 403,
  analyst: 403,
  moderator: 403,
  operator: 403,
  administrator: 200,
} as const satisfies Record<RolePresetName, number>;
const EVERYONE = {
  'read-only': 200,
  analyst: 200,
  moderator: 200,
  operator: 200,
  administrator: 200,
} as const satisfies Record<RolePresetName, number>;

const ACTIONS: Array<[string, Request, Record<RolePresetName, number>]> = [
  ['GET /v1/users', (headers) => t.app.inject({ url: `/v1/users?space_id=${spaceId}`, headers }), ADMIN_ONLY],
  [
    'POST /v1/users',
    (headers) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/users',
        headers,
        payload: { email: uniqueEmail('matrix'), space_id: spaceId, role: 'operator' },
      }),
    ADMIN_ONLY,
  ],
  [
    'PUT /v1/users/:id',
    (headers) =>
      t.app.inject({
        method: 'PUT',
        url: `/v1/users/${targetId}`,
        headers,
        payload: { space_id: spaceId, role: 'read-only' },
      }),
    ADMIN_ONLY,
  ],
  [
    'POST /v1/companies',
    (headers) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/companies',
        headers,
        payload: { space_id: spaceId, name: 'Co' },
      }),
    ADMIN_ONLY,
  ],
  [
    'POST /v1/usergroups',
    (headers) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/usergroups',
        headers,
        payload: { space_id: spaceId, name: 'G' },
      }),
    ADMIN_ONLY,
  ],
  [
    'POST /v1/user_statuses',
    (headers) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/user_statuses',
        headers,
        payload: { space_id: spaceId, name: 'Обед' },
      }),
    ADMIN_ONLY,
  ],
  ['GET /v1/config', (headers) => t.app.inject({ url: '/v1/config', headers }), EVERYONE],
];

const CELLS = ACTIONS.flatMap(([action, request, expected]) =>
  ROLE_PRESET_NAMES.map((role) => [action, role, expected[role], request] as const),
);

describe('named roles × API actions (docs/product/roles.md)', () => {
  it.each(CELLS)('%s as %s → %i', async (_action, role, status, request) => {
    const res = await request(headersOf[role]);
    expect(res.statusCode, res.body).toBe(status);
    if (status === 403) {
      expect(res.json().error).toBe('У вас нет доступа к этому разделу. Обратитесь к вашему администратору.');
    }
  });
});
