import type { Config } from '../lib/config';
import { ConnectorError } from './types';

// The one request timeout of every call to a network (issue 22, Faults): a network that accepts the
// connection and never answers must not hold an outbox row or a poll round for ever. Contexts handed to
// connectors (connectorContext, connecting, the OAuth exchange) carry a fetch that adds it; a call that
// brings its own signal (a long poll holding the request at the network) builds it with `requestTimeout`.

/** A fetch whose calls give up after NETWORK_TIMEOUT_MS unless they bring their own signal. */
export function networkFetch(
  config: Pick<Config, 'NETWORK_TIMEOUT_MS'>,
  f: typeof fetch = fetch,
): typeof fetch {
  const timed: typeof fetch = (input, init) =>
    f(input, init?.signal ? init : { ...init, signal: AbortSignal.timeout(config.NETWORK_TIMEOUT_MS) });
  return timed;
}

/**
 * The signal of a call the network may hold for `holdMs` (a long poll's wait): that plus the request
 * timeout, joined with `signal` (the poller's stop) when given.
 */
export function requestTimeout(
  config: Pick<Config, 'NETWORK_TIMEOUT_MS'>,
  holdMs = 0,
  signal?: AbortSignal,
): AbortSignal {
  const timeout = AbortSignal.timeout(holdMs + config.NETWORK_TIMEOUT_MS);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/**
 * A 2xx answer without what the network's API always sends back (not JSON, or no id for what we sent):
 * not the network's own answer (a proxy, a captive portal, a half-deployed API), so nothing says the
 * call was made — a temporary failure, retried with backoff, never taken as done.
 */
export function badAnswer(network: string, detail: string): ConnectorError {
  return new ConnectorError('temporary', `${network} answered something unexpected: ${detail}`, {
    reason: { key: 'failure.badAnswer', params: { network }, detail },
  });
}

/**
 * One call to a network: not reaching it is a temporary failure (`failure.unreachable`; `name` begins
 * its message, `network` by default). The answer, and its body read as JSON (undefined when empty or
 * not JSON): each network reads its own envelope.
 */
export async function fetchJson(
  fetcher: typeof fetch,
  url: string,
  init: RequestInit,
  network: string,
  name = network,
): Promise<{ response: Response; body: unknown }> {
  let response: Response;
  try {
    response = await fetcher(url, init);
  } catch (error) {
    // fetch's own "fetch failed" says why only in its cause (refused, reset, DNS).
    const cause = (error as Error & { cause?: { message?: string } }).cause?.message;
    const text = cause ? `${(error as Error).message}: ${cause}` : (error as Error).message;
    throw new ConnectorError('temporary', `${name} unreachable: ${text}`, {
      reason: { key: 'failure.unreachable', params: { network }, detail: text },
    });
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { response, body };
}
