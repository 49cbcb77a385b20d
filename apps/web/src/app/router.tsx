import { type RouteGroup, type RouteName, routeNames, routes } from '@otklik/shared/routes';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { ComingSoon } from './ComingSoon';
import { lazyScreen } from './lazyScreen';
import { NotFound } from './NotFound';
import { RequireAuth } from './RequireAuth';
import { RootLayout } from './RootLayout';
import { RouteError } from './RouteError';
import type { RouteHandle } from './routeHandle';
import { screens } from './screens';

// The signed-in area (top bar, menus, dialogs) loads only when a signed-in route is opened.
const Shell = lazyScreen(() => import('./Shell'));

function routeObject(name: RouteName): RouteObject {
  const Screen = screens[name];
  return {
    path: routes[name].path,
    handle: { name } satisfies RouteHandle,
    element: Screen ? <Screen /> : <ComingSoon name={name} bare={routes[name].group === 'callback'} />,
  };
}

const inGroup = (...groups: RouteGroup[]) =>
  routeNames.filter((name) => groups.includes(routes[name].group)).map(routeObject);

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
