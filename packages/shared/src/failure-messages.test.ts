import { describe, expect, it } from 'vitest';
import { decodeFailure, encodeFailure, failureText, translate } from './messages';

describe('stored failures', () => {
  it('an encoded reason reads in each language, the network words quoted', () => {
    const stored = encodeFailure({
      key: 'failure.unreachable',
      params: { network: 'VK' },
      detail: 'ECONNREFUSED',
    });
    expect(decodeFailure(stored)).toEqual({
      key: 'failure.unreachable',
      params: { network: 'VK' },
      detail: 'ECONNREFUSED',
    });
    expect(failureText('ru', stored)).toBe('VK недоступен: «ECONNREFUSED»');
    expect(failureText('en', stored)).toBe('VK is unreachable: “ECONNREFUSED”');
  });

  it("the network's own text is a quoted detail, framed or in the surrounding message's context", () => {
    expect(decodeFailure('Unauthorized')).toBeNull();
    expect(failureText('ru', 'Unauthorized')).toBe('Ответ сети: «Unauthorized»');
    expect(failureText('en', 'Unauthorized')).toBe('The network answered: “Unauthorized”');
    expect(failureText('ru', 'Unauthorized', { inContext: true })).toBe('«Unauthorized»');
  });

  it('a stored failure given as a message param is put into words in that message’s language', () => {
    const reason = encodeFailure({ key: 'failure.privateAddress', params: { host: '10.0.0.1' } });
    expect(translate('ru', 'media.unavailable', { reason })).toBe(
      'Файл недоступен: 10.0.0.1 — внутренний адрес, запрос к нему запрещён',
    );
    expect(translate('en', 'media.unavailable', { reason })).toBe(
      'The file is not available: 10.0.0.1 is an internal address; requests to it are not allowed',
    );
    const network = encodeFailure({ key: 'failure.network', detail: 'Unauthorized' });
    expect(translate('ru', 'account.connectFailed', { reason: network })).toBe(
      'Не удалось подключить аккаунт: «Unauthorized»',
    );
    expect(failureText('en', network)).toBe('The network answered: “Unauthorized”');
  });
});
