import { describe, expect, it } from 'vitest';
import { WebhookRejected } from '../types';
import { graphFailure, metaHandshake, metaSignature, verifyMetaSignature } from './meta';

// The Meta pieces Facebook (and later Instagram) share: Graph error codes → what the outbox does,
// the hub.* handshake and X-Hub-Signature-256 over the raw bytes.

const graph = (code: number, subcode?: number) => ({
  error: { message: `(#${code}) x`, code, ...(subcode ? { error_subcode: subcode } : {}) },
});

describe('graphFailure', () => {
  it('rate limits (4, 17, 32, 613, 80001) and HTTP 429 wait, honouring Retry-After', () => {
    for (const code of [4, 17, 32, 613, 80001]) {
      expect(graphFailure('Facebook', 400, graph(code)).kind).toBe('rate_limited');
    }
    const bare = graphFailure('Facebook', 429, undefined, '7');
    expect(bare).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 7 });
  });

  it('190 is the account’s problem; code 10/2018278 is the 24-hour window with our reason', () => {
    expect(graphFailure('Facebook', 400, graph(190)).kind).toBe('auth');
    const window = graphFailure('Facebook', 400, graph(10, 2018278));
    expect(window.kind).toBe('permanent');
    expect(window.reason?.key).toBe('failure.messagingWindow');
    expect(graphFailure('Facebook', 400, graph(100)).kind).toBe('permanent');
    expect(graphFailure('Facebook', 503, graph(2)).kind).toBe('temporary');
  });
});

describe('webhook checks', () => {
  const request = (headers: Record<string, string>, body: string, query = {}) => ({
    method: 'POST',
    headers,
    query,
    rawBody: Buffer.from(body),
  });

  it('accepts the signature of the exact bytes, rejects another body or secret', () => {
    const body = '{"object":"page","entry":[{"id":"1","text":"\\u043f\\u0440"}]}';
    const good = metaSignature(body, 's3cret');
    expect(() =>
      verifyMetaSignature(request({ 'x-hub-signature-256': good }, body), 's3cret', 'Facebook'),
    ).not.toThrow();
    expect(() =>
      verifyMetaSignature(request({ 'x-hub-signature-256': good }, `${body} `), 's3cret', 'Facebook'),
    ).toThrow(WebhookRejected);
    expect(() =>
      verifyMetaSignature(request({ 'x-hub-signature-256': good }, body), 'other', 'Facebook'),
    ).toThrow(WebhookRejected);
    expect(() => verifyMetaSignature(request({}, body), 's3cret', 'Facebook')).toThrow(WebhookRejected);
  });

  it('echoes the challenge only for subscribe with the right token', () => {
    const q = (mode: string, token: string) => ({
      ...request({}, ''),
      method: 'GET',
      query: { 'hub.mode': mode, 'hub.verify_token': token, 'hub.challenge': '42' },
    });
    expect(metaHandshake(q('subscribe', 'tok'), 'tok', 'Facebook')).toBe('42');
    expect(() => metaHandshake(q('subscribe', 'bad'), 'tok', 'Facebook')).toThrow(WebhookRejected);
    expect(() => metaHandshake(q('unsubscribe', 'tok'), 'tok', 'Facebook')).toThrow(WebhookRejected);
    expect(() => metaHandshake(q('subscribe', ''), '', 'Facebook')).toThrow(WebhookRejected);
  });
});
