import type { ConnectField, MessageKey, ProviderId } from '@otklik/shared';

// The credentials form of a network (packages/shared CONNECT_FIELDS): its values, what is checked before
// the network is asked, the body sent, and where the server's field errors go. Pure, unit-tested.

export type FieldValues = Record<string, string>;

/** The server takes at most this many characters per credential (apps/server objects/schemas.ts). */
export const CREDENTIAL_MAX_LENGTH = 4096;

/**
 * Fields the network's OAuth popup needs too, carried on the callback address: VK's community flow
 * asks for the community before the dialog (`group_ids`), and the server reads it from `?group_id=`.
 */
export const OAUTH_CALLBACK_FIELDS: Partial<Record<ProviderId, string[]>> = { vk: ['group_id'] };

/** VK community ids the server understands on the popup path: 123, -123, club123, public123. */
const VK_GROUP_ID = /^(?:-|club|public|event)?\d+$/;

/** Why a field is not ready: empty though required, longer than the server takes, not a community id. */
export type FieldProblem = { kind: 'message'; key: MessageKey } | { kind: 'numericId' };

export function emptyValues(fields: readonly ConnectField[]): FieldValues {
  return Object.fromEntries(fields.map((field) => [field.name, '']));
}

/**
 * The form's problems, by field name. `only` limits the check to some fields (the popup button needs
 * only the ones it carries); with `forOAuth`, VK's community must be its numeric id.
 */
export function validateConnectFields(
  fields: readonly ConnectField[],
  values: FieldValues,
  opts: { only?: readonly string[]; forOAuth?: boolean } = {},
): Record<string, FieldProblem> {
  const problems: Record<string, FieldProblem> = {};
  for (const field of fields) {
    if (opts.only && !opts.only.includes(field.name)) continue;
    const value = (values[field.name] ?? '').trim();
    if (field.required && !value) problems[field.name] = { kind: 'message', key: 'field.required' };
    else if (value.length > CREDENTIAL_MAX_LENGTH)
      problems[field.name] = { kind: 'message', key: 'field.tooLong' };
    else if (opts.forOAuth && field.name === 'group_id' && !VK_GROUP_ID.test(value))
      problems[field.name] = { kind: 'numericId' };
  }
  return problems;
}

/** The `credentials` body: known fields, trimmed; empty optional ones are left out. */
export function credentialsFrom(
  fields: readonly ConnectField[],
  values: FieldValues,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of fields) {
    const value = (values[field.name] ?? '').trim();
    if (value) out[field.name] = value;
  }
  return out;
}

/** What the popup's callback address carries (e.g. VK's `group_id`), trimmed. */
export function oauthCallbackParams(provider: ProviderId, values: FieldValues): Record<string, string> {
  return Object.fromEntries(
    (OAUTH_CALLBACK_FIELDS[provider] ?? []).map((name) => [name, (values[name] ?? '').trim()]),
  );
}

/**
 * The server's field errors placed on this form's fields: `credentials.<name>` from connect and
 * reconnect, a bare `<name>` from the popup's start (VK's group_id). Texts arrive translated.
 */
export function serverFieldErrors(
  fields: readonly ConnectField[],
  serverFields: Record<string, string>,
): Record<string, string> {
  const names = new Set(fields.map((field) => field.name));
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(serverFields)) {
    const name = key.startsWith('credentials.') ? key.slice('credentials.'.length) : key;
    if (names.has(name)) out[name] = text;
  }
  return out;
}
