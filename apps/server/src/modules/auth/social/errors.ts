import { badRequest, conflict } from '../../../lib/errors';
import type { SocialProvider } from './types';

// The errors of social sign-in, in one place so login and linking answer alike.

export const providerUnavailable = () =>
  badRequest('error.providerUnavailable', { errorType: 'provider_unavailable' });

/** The network refused (bad or spent code, wrong credentials) or could not be reached. */
export const providerFailed = (provider: SocialProvider, errorType = 'provider_error') =>
  badRequest('error.providerFailed', { errorType, params: { provider: provider.title } });

// A forged, expired or mismatched state reads as a failed sign-in: the user starts again.
export const invalidState = () => badRequest('error.invalidState', { errorType: 'invalid_state' });

export const invalidRedirectUri = () =>
  badRequest('error.invalidRedirectUri', {
    errorType: 'invalid_redirect_uri',
    fields: { redirect_uri: 'error.invalidRedirectUri' },
  });

export const missingCode = () => badRequest('error.missingCode', { errorType: 'missing_code' });

export const accessDenied = () => badRequest('error.accessDenied', { errorType: 'access_denied' });

export const emailTaken = () =>
  badRequest('error.emailTaken', { errorType: 'email_taken', fields: { email: 'error.emailTaken' } });

export const socialTaken = () => conflict('error.socialTaken', { errorType: 'social_taken' });

/** The pending sign-in token (no_email, code_required) is unknown, spent, expired or for another provider. */
export const invalidPendingToken = () =>
  badRequest('error.socialPendingExpired', { errorType: 'invalid_token' });

export const lastSignInMethod = () =>
  conflict('error.lastSignInMethod', { errorType: 'last_sign_in_method' });
