import type { Actor, MenuContext } from '@otklik/shared';
import { isAdminAnywhere } from '@otklik/shared';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import type { AppConfig, ConfigSpace, Me, ObjectsData } from '../api/types';
import { actorFromConfig, menuContextOf } from './access';

// What every signed-in screen may read about the user, their spaces and permissions (docs/product/entities.md Config, §6).

export interface ShellData {
  config: AppConfig;
  user: Me;
  actor: Actor;
  menu: MenuContext;
  /** GET /v1/objects?tags=true, once loaded. */
  objects: ObjectsData | undefined;
  isAdmin: boolean;
  /** Unix seconds, ticking every minute (billing states, the access gate). */
  nowS: number;
  space(id: number): ConfigSpace | undefined;
}

const ShellContext = createContext<ShellData | null>(null);

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Unix seconds, re-rendering every `intervalMs`. */
export function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(nowSeconds);
  useEffect(() => {
    const timer = setInterval(() => setNow(nowSeconds()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export function ShellDataProvider(props: {
  config: AppConfig;
  user: Me;
  objects: ObjectsData | undefined;
  children: ReactNode;
}) {
  const { config, user, objects } = props;
  const nowS = useNow();
  const actor = useMemo(() => actorFromConfig({ ...config, user }), [config, user]);
  const value = useMemo<ShellData>(
    () => ({
      config,
      user,
      actor,
      menu: menuContextOf(actor, objects),
      objects,
      isAdmin: isAdminAnywhere(actor),
      nowS,
      space: (id) => config.spaces.find((space) => space.id === id),
    }),
    [config, user, actor, objects, nowS],
  );
  return <ShellContext.Provider value={value}>{props.children}</ShellContext.Provider>;
}

export function useShell(): ShellData {
  const value = useContext(ShellContext);
  if (!value) throw new Error('useShell outside the signed-in shell');
  return value;
}
