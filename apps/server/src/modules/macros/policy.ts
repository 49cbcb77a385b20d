import type { Ability } from '@otklik/shared';
import { personalOrSpace } from '../tags/policy';

// Who sees, changes and runs a macro. A space macro (user_id null) is seen and run by members who may
// use macros and changed with `macros.manage` (administrators); a personal one exists only for its owner
// (anyone else, admin included, gets 404). Both need the space's `macros` flag (the abilities carry it).
// What a run may do to each item is decided per action by the inbox policies (runner.ts).

export const USE: Ability = 'macros.use';
export const MANAGE: Ability = 'macros.manage';

export const { assertUsable, assertManageable, authorizeCreate } = personalOrSpace(USE, MANAGE);
