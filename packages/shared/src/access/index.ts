// Access rules shared by the server's policies and the web app: roles, abilities, menus, billing state
// and the access gate (docs/product/screens-and-routes.md, states.md, roles.md).
export * from './api-gate';
export * from './billing';
export * from './features';
export * from './gate';
export * from './labels';
export * from './menu';
export * from './permissions';
export * from './roles';
export * from './routes-used';
export * from './space-flags';
export * from './types';
