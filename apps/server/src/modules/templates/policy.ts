import type { Ability } from '@otklik/shared';
import { personalOrSpace } from '../tags/policy';

// Who sees and changes a reply template. A space template (user_id null) is seen by members who may
// use templates and changed with `templates.manage`; a personal one exists only for its owner (anyone
// else, admin included, gets 404). Both need the space's `templates` flag (the abilities carry it).

export const USE: Ability = 'templates.use';
export const MANAGE: Ability = 'templates.manage';

export const { assertUsable, assertManageable, authorizeCreate } = personalOrSpace(USE, MANAGE);
