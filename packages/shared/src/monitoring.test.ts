import { describe, expect, it } from 'vitest';
import {
  matchesMonitoring,
  monitoringQueryInputSchema,
  monitoringText,
  parseMonitoringQuery,
} from './monitoring';

const match = (query: string, text: string) => {
  const parsed = parseMonitoringQuery(query);
  if (!parsed.ok) throw new Error(parsed.error);
  return matchesMonitoring(parsed.node, monitoringText(text));
};

describe('monitoring query parser', () => {
  it('AND NOT', () => {
    expect(match('доставка AND NOT спасибо', 'Где моя Доставка?!')).toBe(true);
    expect(match('доставка AND NOT спасибо', 'Доставка пришла, спасибо')).toBe(false);
    expect(match('доставка AND NOT спасибо', 'Курьер опоздал')).toBe(false);
  });
  it('OR, implicit AND, precedence and parentheses', () => {
    expect(match('курьер OR доставка', 'курьер опоздал')).toBe(true);
    expect(match('заказ доставка', 'заказ потерян')).toBe(false);
    expect(match('заказ доставка', 'заказ и доставка')).toBe(true);
    expect(match('a OR b AND c', 'a')).toBe(true);
    expect(match('(a OR b) AND c', 'a')).toBe(false);
    expect(match('(a OR b) AND c', 'b c')).toBe(true);
  });
  it('phrases, whole words, ё, russian operators and minus', () => {
    expect(match('"служба доставки"', 'Служба  доставки молчит')).toBe(true);
    expect(match('"служба доставки"', 'доставки служба')).toBe(false);
    expect(match('кот', 'котлета')).toBe(false);
    expect(match('ещё', 'еще раз')).toBe(true);
    expect(match('доставка И НЕ спасибо', 'доставка')).toBe(true);
    expect(match('доставка -спасибо', 'доставка спасибо')).toBe(false);
    expect(match('Wi-Fi', 'no wi-fi here')).toBe(true);
  });
  it('errors', () => {
    const error = (q: string) => {
      const parsed = parseMonitoringQuery(q);
      return parsed.ok ? null : parsed.error;
    };
    expect(error('')).toBe('monitoring.query.empty');
    expect(error('  ')).toBe('monitoring.query.empty');
    expect(error('"open')).toBe('monitoring.query.quote');
    expect(error('(a OR b')).toBe('monitoring.query.paren');
    expect(error('a)')).toBe('monitoring.query.paren');
    expect(error('a AND')).toBe('monitoring.query.operator');
    expect(error('OR a')).toBe('monitoring.query.operator');
    expect(error('NOT a')).toBe('monitoring.query.onlyNot');
    expect(error('a OR NOT b')).toBe('monitoring.query.onlyNot');
    expect(error('x'.repeat(1001))).toBe('monitoring.query.tooLong');
    expect(error('a AND NOT b')).toBeNull();
  });
  it('input schema carries the message key', () => {
    const r = monitoringQueryInputSchema.safeParse({ space_id: 1, name: 'x', query: 'a AND' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('monitoring.query.operator');
  });
  it('NEAR/n: both words with at most n words between, either order; phrases; chains; NEAR alone is NEAR/5', () => {
    expect(match('доставка NEAR/2 курьер', 'доставка была и курьер опоздал')).toBe(true);
    expect(match('доставка NEAR/2 курьер', 'курьер, доставка')).toBe(true);
    expect(match('доставка NEAR/1 курьер', 'доставка была и курьер опоздал')).toBe(false);
    expect(match('доставка NEAR/0 курьер', 'доставка курьер')).toBe(true);
    expect(match('"служба доставки" NEAR/3 плохо', 'служба доставки работает очень плохо')).toBe(true);
    expect(match('"служба доставки" NEAR/1 плохо', 'служба доставки работает очень плохо')).toBe(false);
    expect(match('a NEAR b', 'a 1 2 3 4 5 b')).toBe(true);
    expect(match('a NEAR b', 'a 1 2 3 4 5 6 b')).toBe(false);
    expect(match('a РЯДОМ/1 b', 'b x a')).toBe(true);
    expect(match('a NEAR/1 b NEAR/1 c', 'a x b x c')).toBe(true);
    expect(match('a NEAR/1 b NEAR/1 c', 'a x b x x c')).toBe(false);
    expect(match('(a NEAR/1 b) AND NOT c', 'a b c')).toBe(false);
    expect(match('a NEAR/1 b OR z', 'z')).toBe(true);
    expect(match('a NEAR/3 a', 'a')).toBe(false);
    const error = (q: string) => {
      const parsed = parseMonitoringQuery(q);
      return parsed.ok ? null : parsed.error;
    };
    expect(error('a NEAR/51 b')).toBe('monitoring.query.near');
    expect(error('a NEAR/3')).toBe('monitoring.query.near');
    expect(error('NEAR/3 b')).toBe('monitoring.query.near');
    expect(error('a NEAR/3 (b OR c)')).toBe('monitoring.query.near');
    expect(error('a NEAR/3 b')).toBeNull();
  });
});
