import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { getLogoutTarget, loginPath, setLogoutTarget } from '../api/session';
import { useHasToken } from '../api/token';

/** docs/product/roles.md: routes flagged auth need a stored token, otherwise /login?redirect=<path>. */
export function RequireAuth() {
  const hasToken = useHasToken();
  const location = useLocation();
  useEffect(() => {
    if (!hasToken) setLogoutTarget(null);
  }, [hasToken]);
  if (!hasToken) {
    return <Navigate to={getLogoutTarget() ?? loginPath(location.pathname + location.search)} replace />;
  }
  return <Outlet />;
}
