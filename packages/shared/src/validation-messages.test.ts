import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldErrors, loginFormSchema } from './forms';
import { translate } from './messages';
import { issueMessage } from './validation-messages';

// Issue 13 item 3: no form or API error shows the validation library's English.

const issuesOf = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error!.issues;

describe('issue messages', () => {
  it('keeps a schema key, and gives every unkeyed check a translated generic message', () => {
    expect(issueMessage(issuesOf(z.string().min(1, 'field.required'), '')[0]!).key).toBe('field.required');
    const cases: Array<[z.ZodType, unknown, string]> = [
      [z.number().positive(), 0, 'Значение должно быть больше 0'],
      [z.number().int().max(10), 11, 'Значение должно быть не больше 10'],
      [z.string().max(5), 'abcdefg', 'Не длиннее 5 символов'],
      [z.string().min(3), 'ab', 'Не короче 3 символов'],
      [z.string().min(1), '', 'Обязательное поле'],
      [z.array(z.number()).max(2), [1, 2, 3], 'Не больше 2 элементов'],
      [z.enum(['new', 'closed']), 'x', 'Допустимые значения: new, closed'],
      [z.email(), 'nope', 'Укажите корректный email'],
      [z.strictObject({}), { a: 1 }, 'Неизвестное поле'],
    ];
    for (const [schema, value, text] of cases) {
      const { key, params } = issueMessage(issuesOf(schema, value)[0]!);
      expect(translate('ru', key, params)).toBe(text);
    }
  });

  it('form errors are keys or translated text, never zod English', () => {
    const schema = z.object({ name: z.string().max(3), age: z.number() });
    const errors = fieldErrors(schema.safeParse({ name: 'abcdef' }).error!, (key, params) =>
      translate('en', key, params),
    );
    expect(errors).toEqual({ name: 'At most 3 characters', age: 'field.required' });
    expect(fieldErrors(loginFormSchema.safeParse({ username: '', password: '' }).error!)).toMatchObject({
      password: 'login.password.required',
    });
  });
});
