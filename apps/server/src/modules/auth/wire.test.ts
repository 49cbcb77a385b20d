import { describe, expect, it } from 'vitest';
import { openApiSuite, requiredKeys } from '../../../test/openapi-doc';

const suite = openApiSuite();

/** The required keys of the documented success answer. */
const required = (method: string, path: string) => requiredKeys(suite.doc, method, path);

describe('/v1/openapi.json documents the sign-up, sign-in and profile answers', () => {
  it('the public flows', () => {
    expect(requiredKeys(suite.doc, 'post', '/v1/signup', '201')).toEqual(
      expect.arrayContaining(['message', 'email']),
    );
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
