import { describe, expect, it } from 'vitest';
import { jsonAnswer, openApiSuite, requiredKeys, successSchema } from '../../../test/openapi-doc';

// Issue 12 point 4, the wire contract: the statistics operations (and the counters, emotions settings and
// the feature tabs' stats) document their success answers from the shared schemas in /v1/openapi.json.

const suite = openApiSuite();

/** The success schema an operation documents. */
const success = (method: string, path: string) => successSchema(suite.doc, method, path);
const required = (method: string, path: string) => requiredKeys(suite.doc, method, path);

describe('statistics answers in /v1/openapi.json', () => {
  it('documents every figures tab with its period and, where compared, the previous period', () => {
    const tabs: Record<string, string[]> = {
      overview: ['period', 'current', 'previous', 'backlog', 'by_provider', 'business'],
      volume: ['period', 'days', 'rows', 'previous'],
      hours: ['period', 'cells', 'previous'],
      operators: ['period', 'rows', 'previous'],
      tags: ['period', 'days', 'tags', 'rows', 'previous'],
      posts: ['period', 'rows'],
      closed: ['period', 'rows', 'previous'],
      emotions: ['period', 'totals', 'days', 'by_object', 'by_provider', 'by_post'],
      time: ['period', 'first_response', 'resolution', 'buckets', 'days', 'previous', 'business'],
      'operator-times': ['period', 'rows', 'previous'],
      my: ['period', 'user', 'row', 'closed', 'first_replies', 'first_replies_business', 'previous'],
      statuses: ['period', 'statuses', 'rows', 'previous'],
      'my/statuses': ['period', 'statuses', 'rows', 'previous'],
      workinghours: ['period', 'rows', 'previous'],
      dashboard: ['today', 'week', 'business', 'figures', 'backlog', 'expired_tasks', 'days'],
      live: ['now', 'today', 'figures', 'waiting', 'by_provider', 'by_account', 'longest', 'statuses'],
      explore: ['period', 'by', 'total', 'rows', 'previous'],
      csi: ['period', 'total', 'scores', 'by_day', 'by_user', 'by_object', 'by_provider'],
      'users/{id}': ['period', 'user', 'row', 'closed', 'first_replies', 'previous'],
      'users/{id}/statuses': ['period', 'statuses', 'rows', 'previous'],
      'users/{id}/workinghours': ['period', 'rows', 'previous'],
    };
    for (const [tab, keys] of Object.entries(tabs))
      expect(required('get', `/v1/stats/${tab}`), tab).toEqual(expect.arrayContaining(keys));
    const period = success('get', '/v1/stats/overview').properties?.period?.required;
    expect(period).toEqual(expect.arrayContaining(['from', 'to', 'timezone', 'start', 'end']));
    const statusRow = success('get', '/v1/stats/statuses').properties?.rows?.items?.required;
    expect(statusRow).toEqual(expect.arrayContaining(['user_id', 'seconds', 'working', 'total']));
  });

  it("documents the feature tabs' figures: tasks, auto-rules and chat-bots", () => {
    expect(required('get', '/v1/stats/issues')).toEqual(
      expect.arrayContaining(['days', 'by_assignee', 'by_department', 'close_hours']),
    );
    expect(required('get', '/v1/stats/rules')).toEqual(expect.arrayContaining(['days', 'rules']));
    const rule = success('get', '/v1/stats/rules').properties?.rules?.items?.required;
    expect(rule).toEqual(expect.arrayContaining(['rule_id', 'matches', 'actions', 'failed', 'by_day']));
    const bot = success('get', '/v1/stats/bots').properties?.bots?.items?.required;
    expect(bot).toEqual(expect.arrayContaining(['bot_id', 'started', 'completed', 'handed_off', 'steps']));
  });

  it('documents scheduled reports: the list, a report, a sending and the delete', () => {
    expect(required('get', '/v1/stats/reports')).toEqual(
      expect.arrayContaining(['space_id', 'timezone', 'items', 'runs']),
    );
    for (const [method, path] of [
      ['post', '/v1/stats/reports'],
      ['put', '/v1/stats/reports/{id}'],
    ] as const)
      expect(required(method, path), `${method} ${path}`).toEqual(
        expect.arrayContaining(['id', 'name', 'tabs', 'frequency', 'next_run_at', 'last_run']),
      );
    expect(required('post', '/v1/stats/reports/{id}/send')).toEqual(
      expect.arrayContaining(['id', 'report_id', 'sent_at', 'status', 'error']),
    );
    expect(required('delete', '/v1/stats/reports/{id}')).toEqual(['ok']);
  });

  it("documents background exports: the caller's list and a started export; the file is not JSON", () => {
    expect(required('get', '/v1/stats/exports')).toEqual(
      expect.arrayContaining(['space_id', 'available', 'items']),
    );
    expect(required('post', '/v1/stats/exports')).toEqual(
      expect.arrayContaining(['id', 'kind', 'tab', 'format', 'status', 'rows_done', 'expires_at']),
    );
    expect(jsonAnswer(suite.doc, 'get', '/v1/stats/exports/{id}/file')?.schema ?? {}).toEqual({});
  });

  it("documents the counters and a space's emotion settings", () => {
    const counts = success('get', '/v1/counts').properties ?? {};
    expect(Object.keys(counts)).toEqual(
      expect.arrayContaining(['items_count', 'chats_count', 'issues_count', 'monitoring_count']),
    );
    expect(required('get', '/v1/counts/views')).toEqual(expect.arrayContaining(['items', 'chats']));
    const view = success('get', '/v1/counts/views').properties?.items?.required;
    expect(view).toEqual(expect.arrayContaining(['all', 'mine', 'unassigned', 'mentions']));
    for (const method of ['get', 'put'])
      expect(required(method, '/v1/emotions/settings'), method).toEqual(
        expect.arrayContaining(['space_id', 'enabled', 'words']),
      );
  });
});
