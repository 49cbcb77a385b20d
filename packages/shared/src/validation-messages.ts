import type { z } from 'zod';
import { isMessageKey, type MessageKey } from './messages';

// What a failed zod check says, as a message key (ru + en in messages.ts), for the server's validation
// errors and the web's form errors alike: a schema's own key when it gave one, otherwise a generic key by
// issue code, with the limit as a parameter. The library's English never reaches a user.

type Issue = z.core.$ZodIssue;

export interface IssueMessage {
  key: MessageKey;
  params?: Record<string, string | number>;
}

const EXPECTED: Record<string, MessageKey> = {
  number: 'field.expectedNumber',
  int: 'field.expectedInteger',
  bigint: 'field.expectedInteger',
  nan: 'field.expectedNumber',
  string: 'field.expectedText',
  boolean: 'field.expectedBoolean',
  array: 'field.expectedList',
  tuple: 'field.expectedList',
  set: 'field.expectedList',
  object: 'field.expectedObject',
  record: 'field.expectedObject',
  map: 'field.expectedObject',
  date: 'field.expectedDate',
};

const COUNTED = new Set(['array', 'set']);

/** The message of an issue whose schema gave no message key: by code, with the limit where it helps. */
function genericMessage(issue: Issue): IssueMessage {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return { key: 'field.required' };
      return { key: EXPECTED[issue.expected] ?? 'field.invalid' };
    case 'too_small': {
      const limit = Number(issue.minimum);
      if (issue.origin === 'string')
        return limit <= 1 ? { key: 'field.required' } : { key: 'field.tooShort', params: { limit } };
      if (COUNTED.has(issue.origin)) return { key: 'field.tooFew', params: { limit } };
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint')
        return { key: issue.inclusive === false ? 'field.minExclusive' : 'field.min', params: { limit } };
      return { key: 'field.invalid' };
    }
    case 'too_big': {
      const limit = Number(issue.maximum);
      if (issue.origin === 'string') return { key: 'field.tooLongLimit', params: { limit } };
      if (COUNTED.has(issue.origin)) return { key: 'field.tooMany', params: { limit } };
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint')
        return { key: issue.inclusive === false ? 'field.maxExclusive' : 'field.max', params: { limit } };
      return { key: 'field.invalid' };
    }
    case 'invalid_format':
      if (issue.format === 'email') return { key: 'login.email.invalid' };
      if (issue.format === 'datetime' || issue.format === 'date') return { key: 'field.expectedDate' };
      return { key: 'field.format' };
    case 'invalid_value':
      // The allowed values are API codes (statuses, providers…), the same in every language.
      if (issue.values.length > 0 && issue.values.length <= 12)
        return { key: 'field.oneOf', params: { values: issue.values.map(String).join(', ') } };
      return { key: 'field.invalid' };
    case 'unrecognized_keys':
      return { key: 'field.unknown' };
    default:
      return { key: 'field.invalid' };
  }
}

/** The message key (and parameters) of one issue. */
export function issueMessage(issue: Issue): IssueMessage {
  if (issue.message && isMessageKey(issue.message)) {
    const limit =
      'maximum' in issue ? Number(issue.maximum) : 'minimum' in issue ? Number(issue.minimum) : undefined;
    return { key: issue.message, ...(limit !== undefined ? { params: { limit } } : {}) };
  }
  return genericMessage(issue);
}
