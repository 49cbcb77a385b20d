export * from './access';
export * from './accounts';
export * from './constants';
export * from './forms';
export * from './i18n';
export * from './messages';
export * from './providers';
export * from './user-settings';
