import type { Config } from '../lib/config';
import type { Connector, ObjectRow, UpdatesMode } from './types';

const LOCAL_HOSTS = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)$/;

/**
 * Webhooks need the network to reach APP_URL; a server on a laptop or behind NAT cannot be reached,
 * so 'auto' polls there (where the network allows polling) and takes webhooks everywhere else.
 */
export function chooseUpdatesMode(config: Config, connector: Connector): UpdatesMode {
  const canPoll = typeof connector.poll === 'function';
  const canPush = typeof connector.handleWebhook === 'function';
  if (config.PROVIDER_UPDATES === 'polling' && canPoll) return 'polling';
  if (config.PROVIDER_UPDATES === 'webhook' && canPush) return 'webhook';
  if (!canPush) return 'polling';
  if (!canPoll) return 'webhook';
  return LOCAL_HOSTS.test(new URL(config.appUrl).hostname) ? 'polling' : 'webhook';
}

/** Where a network posts this account's updates; the account id routes it, the secret proves it. */
export function webhookUrl(config: Config, object: Pick<ObjectRow, 'id' | 'provider'>): string {
  return `${config.appUrl}/v1/webhooks/${object.provider}/${object.id}`;
}
