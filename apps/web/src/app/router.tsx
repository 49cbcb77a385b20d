import { type RouteGroup, type RouteName, routeNames, routes } from '@otklik/shared/routes';
import { Fragment, lazy, type ReactNode, use } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { lazyScreen, loadChunk } from '../lib/lazyScreen';
import { hasRecordId, useRouteId } from '../shell/routeParams';
import { RequireAuth } from './RequireAuth';
import { RootLayout } from './RootLayout';
import { RouteError } from './RouteError';
import type { RouteHandle } from './routeHandle';

// The signed-in area (top bar, menus, dialogs) loads only when a signed-in route is opened.
const Shell = lazyScreen(() => import('./Shell'));

// Only for unbuilt and unknown routes: not in the first download either.
const ComingSoon = lazy(() =>
  loadChunk(() => import('./ComingSoon').then((m) => ({ default: m.ComingSoon }))),
);
const NotFound = lazyScreen(() => import('./NotFound').then((m) => ({ default: m.NotFound })));

// The table of screens (screens.ts) names every screen's chunk with the chunks it needs, for preloading:
// ~8 KB (gzip) that is not in the first download. It is requested as soon as this module runs, in parallel
// with the interface strings; a route rendered before it arrives shows the splash.
const screenTable = loadChunk(() => import('./screens')).then((module) => module.screens);

function RouteScreen({ name }: { name: RouteName }) {
  const Screen = use(screenTable)[name];
  return Screen ? <Screen /> : <ComingSoon name={name} bare={routes[name].group === 'callback'} />;
}

// Fetched the first time a malformed id is met (screens share the chunk: it is usually there already).
let recordNotFound: Promise<typeof import('../shell/RecordNotFound')> | undefined;

/**
 * A record route's `:id` is checked before its screen mounts: malformed → not-found at once (no query
 * is sent, nothing spins). The screen is keyed by the id, so moving between records starts it afresh.
 */
function IdGuard({ children }: { children: ReactNode }) {
  const id = useRouteId();
  if (id === null) {
    recordNotFound ??= loadChunk(() => import('../shell/RecordNotFound'));
    const { RecordNotFound } = use(recordNotFound);
    return <RecordNotFound />;
  }
  return <Fragment key={id}>{children}</Fragment>;
}

function routeObject(name: RouteName): RouteObject {
  const screen = <RouteScreen name={name} />;
  return {
    path: routes[name].path,
    handle: { name } satisfies RouteHandle,
    element: hasRecordId(name) ? <IdGuard>{screen}</IdGuard> : screen,
  };
}

/**
 * Split view (issue 13): a list route and its record route share a layout route, so on wide screens
 * the list stays mounted beside the open record (features/inbox/components/InboxSplit.tsx).
 */
const SPLIT_LAYOUTS: Array<{ names: RouteName[]; Layout: ReturnType<typeof lazyScreen> }> = [
  { names: ['items', 'item'], Layout: lazyScreen(() => import('../screens/items/ItemsSplit')) },
  { names: ['chats', 'chat-messages'], Layout: lazyScreen(() => import('../screens/chats/ChatsSplit')) },
];
const inSplit = new Set<RouteName>(SPLIT_LAYOUTS.flatMap((layout) => layout.names));

const inGroup = (...groups: RouteGroup[]): RouteObject[] => {
  const names = routeNames.filter((name) => groups.includes(routes[name].group));
  return [
    ...names.filter((name) => !inSplit.has(name)).map(routeObject),
    ...SPLIT_LAYOUTS.filter((layout) => layout.names.every((name) => names.includes(name))).map(
      ({ names: children, Layout }) => ({ element: <Layout />, children: children.map(routeObject) }),
    ),
  ];
};

export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      ...inGroup('public'),
      {
        element: <RequireAuth />,
        children: [...inGroup('callback'), { element: <Shell />, children: inGroup('main', 'settings') }],
      },
      { path: '*', handle: { name: 'not-found' } satisfies RouteHandle, element: <NotFound /> },
    ],
  },
];

export const router = createBrowserRouter(appRoutes);
