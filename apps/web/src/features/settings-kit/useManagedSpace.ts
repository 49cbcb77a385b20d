import { type Ability, can } from '@otklik/shared';
import { useSearchParams } from 'react-router';
import { useShell } from '../../shell/ShellContext';

/**
 * The spaces where the user holds `ability` (docs/product/roles.md), with the one chosen in `?space_id=`
 * (else `preferred`, else the first). A settings list shows the chosen space; a new record is created in
 * it. Without an ability: every space of the user (their own settings, such as subscriptions).
 * `preferred`: the space to open on when the address names none (back from installing Slack for one).
 */
export function useManagedSpace(ability?: Ability, preferred?: number) {
  const { config, actor } = useShell();
  const [params, setParams] = useSearchParams();
  const spaces = ability ? config.spaces.filter((space) => can(actor, ability, space.id)) : config.spaces;
  const requested = Number(params.get('space_id'));
  const space = spaces.find((s) => s.id === requested) ?? spaces.find((s) => s.id === preferred) ?? spaces[0];
  const setSpace = (id: number) => {
    const next = new URLSearchParams(params);
    next.set('space_id', String(id));
    setParams(next, { replace: true });
  };
  return { spaces, space, spaceId: space?.id ?? null, setSpace };
}

/** The colours offered by a settings colour field (tags, labels). */
export const SWATCHES = [
  '#fa5252',
  '#e64980',
  '#be4bdb',
  '#7950f2',
  '#4c6ef5',
  '#228be6',
  '#15aabf',
  '#12b886',
  '#40c057',
  '#82c91e',
  '#fab005',
  '#fd7e14',
  '#868e96',
];

/** A colour field's value as the API takes it: '#rrggbb', or null for anything else (cleared, half typed). */
export function colorOrNull(color: string): string | null {
  return /^#[0-9a-fA-F]{6}$/.test(color) ? color : null;
}
