import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';

type Schema = { required?: string[] };
type Doc = {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>
  >;
};

let t: TestApp;
let doc: Doc;
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json() as Doc;
});
afterAll(async () => {
  await t.close();
});

/** The required keys of the documented success answer. */
const required = (method: string, path: string) =>
  doc.paths[path]?.[method]?.responses?.['200']?.content?.['application/json']?.schema?.required ?? [];

describe('/v1/openapi.json documents the sign-up, sign-in and profile answers', () => {
  it('the public flows', () => {
    expect(
      doc.paths['/v1/signup']?.post?.responses?.['201']?.content?.['application/json']?.schema?.required,
    ).toEqual(expect.arrayContaining(['message', 'email']));
    expect(required('post', '/v1/signup/{hash}')).toEqual(expect.arrayContaining(['message', 'token']));
    expect(required('post', '/v1/confirm_email')).toEqual(['message']);
    expect(required('post', '/v1/recovery')).toEqual(['message']);
    expect(required('post', '/v1/signup/resend')).toEqual(['message']);
    expect(required('post', '/v1/reset_password/check')).toEqual(['email']);
  });

  it('the signed-in user', () => {
    for (const method of ['get', 'put']) {
      const keys = required(method, '/v1/me');
      expect(keys).toEqual(
        expect.arrayContaining([
          'id',
          'name',
          'email',
          'email_status',
          'locale',
          'roles',
          'settings',
          'has_password',
        ]),
      );
    }
    expect(required('put', '/v1/me/email')).toEqual(['message']);
    expect(required('post', '/v1/send_confirm_email')).toEqual(['message']);
    expect(required('put', '/v1/me/password')).toEqual(expect.arrayContaining(['message', 'token']));
    expect(required('post', '/v1/me/otp/confirm')).toEqual(expect.arrayContaining(['message', 'token']));
    expect(required('delete', '/v1/me/otp')).toEqual(['message']);
  });
});
