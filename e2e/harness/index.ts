export { runAdmin } from './admin';
export {
  type ApiResult,
  type ApiTokens,
  apiOk,
  apiRequest,
  type ConfirmedUser,
  createConfirmedUser,
  moveSpaceToNoon,
  noonTimeZone,
  webClient,
} from './api';
export {
  type AppHandle,
  freePort,
  type StartAppOptions,
  startApp,
  uniqueEmail,
  usesSharedDatabase,
} from './app';
export {
  type BrowserHandle,
  type ContextOptions,
  chromiumArgs,
  chromiumPath,
  launchBrowser,
  screenshot,
  signedInContext,
} from './browser';
export { decodeHeader, parseMail } from './mail';
export { repoRoot, screensDir } from './paths';
export { extractLink, findLinks, type MailQuery, type ParsedMail, type SmtpHandle, startSmtp } from './smtp';
export {
  describedBy,
  loginFields,
  logOutThroughUserMenu,
  signInThroughUi,
  storedAccessToken,
  waitForFieldError,
  waitForPath,
  waitForSocket,
  waitForTitle,
} from './ui';
