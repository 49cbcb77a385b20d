import { describe, expect, it } from 'vitest';
import { listRowKeys, openApiSuite, successSchema } from '../../../test/openapi-doc';

// Issue 12 point 4, the wire contract: /v1/openapi.json documents what the working-hours and
// user-status operations answer, from the shared schemas (packages/shared workinghours-wire.ts,
// statuses-wire.ts). The module's other tests drive the real answers through those schemas.

const suite = openApiSuite(240_000);

const success = (method: string, path: string) => successSchema(suite.doc, method, path);
/** The required keys of a list answer's rows. */
const rowKeys = (method: string, path: string) => listRowKeys(suite.doc, method, path);

describe('working hours and user statuses: documented answers', () => {
  it('user statuses: the list, create and update answer the status; delete answers ok', () => {
    const status = ['id', 'name', 'color', 'hidden', 'offline', 'workinghours', 'space_id', 'position'];
    expect(rowKeys('get', '/v1/user_statuses')).toEqual(status);
    expect(success('post', '/v1/user_statuses').required).toEqual(status);
    expect(success('put', '/v1/user_statuses/{id}').required).toEqual(status);
    expect(success('delete', '/v1/user_statuses/{id}').required).toEqual(['message']);
  });

  it('slots, templates, absences and holidays: list, create, update, delete', () => {
    const kinds: Array<[string, string[]]> = [
      [
        '/v1/workinghours',
        ['id', 'space_id', 'started_at', 'ended_at', 'status', 'user_id', 'applied_at', 'updated_at'],
      ],
      ['/v1/workinghours/templates', ['id', 'space_id', 'name', 'items']],
      ['/v1/workinghours/absences', ['id', 'space_id', 'user_id', 'started_at', 'ended_at', 'reason']],
      ['/v1/workinghours/holidays', ['id', 'space_id', 'day', 'name']],
    ];
    for (const [path, keys] of kinds) {
      expect(rowKeys('get', path), path).toEqual(keys);
      expect(success('post', path).required, path).toEqual(keys);
      expect(success('put', `${path}/{id}`).required, path).toEqual(keys);
      expect(success('delete', `${path}/{id}`).required, path).toEqual(['message']);
    }
    const template = success('post', '/v1/workinghours/templates');
    expect(template.properties?.items?.items?.required).toEqual(['weekday', 'start', 'end', 'status_id']);
    expect(success('post', '/v1/workinghours/templates/{id}/apply').required).toEqual(['created']);
  });

  it('business hours: read, set and remove answer the schedule and the overrides', () => {
    for (const method of ['get', 'put', 'delete']) {
      const answer = success(method, '/v1/workinghours/business');
      expect(answer.required, method).toEqual(['space_id', 'timezone', 'schedule', 'companies']);
      expect(answer.properties?.companies?.items?.required, method).toEqual(
        expect.arrayContaining(['company_id', 'week', 'special_days', 'updated_at']),
      );
    }
  });
});
