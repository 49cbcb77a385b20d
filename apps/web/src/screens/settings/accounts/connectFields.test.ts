import { CONNECT_FIELDS, connectFields } from '@otklik/shared';
import { describe, expect, it } from 'vitest';
import {
  CREDENTIAL_MAX_LENGTH,
  credentialsFrom,
  emptyValues,
  oauthCallbackParams,
  serverFieldErrors,
  validateConnectFields,
} from './connectFields';

const telegram = connectFields('telegram');
const vk = connectFields('vk');

describe('the credentials form of a network', () => {
  it('starts empty, one value per field', () => {
    expect(emptyValues(telegram)).toEqual({ bot_token: '' });
    expect(emptyValues(vk)).toEqual({ group_id: '', access_token: '', user_token: '' });
  });

  it('asks for every required field, blank counts as empty, optional ones may stay empty', () => {
    expect(validateConnectFields(telegram, { bot_token: '   ' })).toEqual({
      bot_token: { kind: 'message', key: 'field.required' },
    });
    expect(validateConnectFields(telegram, { bot_token: '123:ABC' })).toEqual({});
    expect(validateConnectFields(vk, { group_id: '1', access_token: '', user_token: '' })).toEqual({
      access_token: { kind: 'message', key: 'field.required' },
    });
    expect(validateConnectFields(vk, { group_id: '1', access_token: 'vk1.a.x' })).toEqual({});
  });

  it('refuses what the server would not take', () => {
    expect(validateConnectFields(telegram, { bot_token: 'x'.repeat(CREDENTIAL_MAX_LENGTH + 1) })).toEqual({
      bot_token: { kind: 'message', key: 'field.tooLong' },
    });
  });

  it("checks only the popup's fields for the popup, and VK's community must be its numeric id there", () => {
    const only = ['group_id'];
    expect(validateConnectFields(vk, { group_id: '' }, { only, forOAuth: true })).toEqual({
      group_id: { kind: 'message', key: 'field.required' },
    });
    expect(validateConnectFields(vk, { group_id: 'myshop' }, { only, forOAuth: true })).toEqual({
      group_id: { kind: 'numericId' },
    });
    for (const id of ['123', 'club123', 'public123', '-123', ' 123 '])
      expect(validateConnectFields(vk, { group_id: id }, { only, forOAuth: true }), id).toEqual({});
    // The manual way takes a screen name (VK resolves it).
    expect(validateConnectFields(vk, { group_id: 'myshop', access_token: 't' })).toEqual({});
  });

  it('sends known fields trimmed and leaves empty optional ones out', () => {
    expect(
      credentialsFrom(vk, { group_id: ' 42 ', access_token: ' tok ', user_token: '  ', stray: 'x' }),
    ).toEqual({ group_id: '42', access_token: 'tok' });
    expect(oauthCallbackParams('vk', { group_id: ' club42 ', access_token: 'secret' })).toEqual({
      group_id: 'club42',
    });
    expect(oauthCallbackParams('telegram', { bot_token: 'x' })).toEqual({});
  });

  it("puts the server's field errors on the fields they name", () => {
    expect(
      serverFieldErrors(vk, {
        'credentials.access_token': 'Обязательное поле',
        group_id: 'Обязательное поле',
        provider: 'Некорректное значение',
      }),
    ).toEqual({ access_token: 'Обязательное поле', group_id: 'Обязательное поле' });
    expect(serverFieldErrors(telegram, {})).toEqual({});
  });

  it('every network with fields has labels and hints in both languages, secrets marked', () => {
    for (const [provider, fields] of Object.entries(CONNECT_FIELDS)) {
      for (const field of fields ?? []) {
        expect(field.label.ru && field.label.en, `${provider}.${field.name}`).toBeTruthy();
        if (field.hint) expect(field.hint.ru && field.hint.en).toBeTruthy();
      }
    }
    expect(telegram[0]?.secret).toBe(true);
    expect(vk.find((f) => f.name === 'group_id')?.secret).toBe(false);
  });
});
