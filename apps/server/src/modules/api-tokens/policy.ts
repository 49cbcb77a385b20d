import type { Ability } from '@otklik/shared';
import type { AuthContext } from '../../http/auth';
import { AppError, notFound } from '../../lib/errors';
import { authorize, type ServerActor, spaceIdsWhere } from '../spaces/actor';
import type { ApiTokenRow } from './service';

// Who sees and changes an API token. A personal token is its owner's alone (anyone else gets 404); a
// space token belongs to the space's administrators. Tokens are made and revoked from a login only: a
// leaked token must not be able to mint more.

export const MANAGE_SPACE_TOKENS: Ability = 'settings.manage';

export function assertSessionLogin(auth: AuthContext | null) {
  if (auth?.apiToken) throw new AppError(403, 'apiTokens.sessionOnly');
}

export function adminSpaceIds(actor: ServerActor): number[] {
  return spaceIdsWhere(actor, MANAGE_SPACE_TOKENS);
}

export function authorizeCreate(actor: ServerActor, kind: 'personal' | 'space', spaceId: number | null) {
  if (kind === 'space') authorize(actor, MANAGE_SPACE_TOKENS, spaceId ?? -1);
}

export function assertManageable(actor: ServerActor, row: ApiTokenRow | undefined): ApiTokenRow {
  if (!row || row.revokedAt) throw notFound();
  if (row.kind === 'personal') {
    if (row.userId !== actor.userId) throw notFound();
    return row;
  }
  if (row.spaceId === null || !adminSpaceIds(actor).includes(row.spaceId)) throw notFound();
  return row;
}
