import type { oauthRu } from './oauth.ru';

type Dictionary<T> = { [K in keyof T]: T[K] extends string ? string : Dictionary<T[K]> };

export const oauthEn: Dictionary<typeof oauthRu> = {
  title: 'Third-party apps',
  hint: 'Other software works with the API on behalf of a user who allows it. An administrator registers the app and gives its developer the client id and secret.',
  backToApp: 'Back to Otklik',
  apps: {
    heading: 'Registered apps',
    add: 'New app',
    edit: 'Edit app',
    empty: 'No apps yet. Register the first one so that another program can ask for access.',
    noSpace: 'A space administrator registers apps.',
    name: 'Name',
    namePlaceholder: 'Company CRM, for example',
    redirectUris: 'Redirect URIs',
    redirectHint:
      'Where the user returns after consent: https, or http://127.0.0.1 and localhost. Type an address and press Enter.',
    clientId: 'Client ID',
    created: 'Created {{date}}',
    lastUsed: 'Last used {{date}}',
    neverUsed: 'Not used yet',
    users_one: '{{count}} user allowed access',
    users_few: '{{count}} users allowed access',
    users_many: '{{count}} users allowed access',
    users_other: '{{count}} users allowed access',
    regenerate: 'New secret',
    regenerateTitle: 'Issue a new secret for “{{name}}”?',
    regenerateText:
      'The old secret stops working at once: the app will need the new one. Access already granted stays.',
    regenerateConfirm: 'Issue',
    deleteTitle: 'Delete the app “{{name}}”?',
    deleteText: 'All access users gave this app ends at once.',
    secretTitle: 'App secret',
    secretText:
      'Copy the secret now: it is shown only once. A lost secret can only be replaced with a new one.',
    secret: 'Client secret',
    copy: 'Copy',
    copied: 'Copied',
    secretDone: 'I have saved the secret',
  },
  grants: {
    heading: 'Apps you allowed',
    empty: 'You have not allowed any app.',
    granted: 'Allowed {{date}}',
    revoke: 'Revoke access',
    revokeTitle: 'Revoke access of “{{name}}”?',
    revokeText:
      'The app loses access to your data at once. To give it back, you will have to allow it again.',
    revoked: 'Access revoked',
  },
  consent: {
    title: 'Allow access?',
    asks: '“{{app}}” asks for access to your account in the space “{{space}}”.',
    may: 'On your behalf the app will be able to:',
    mayRead: 'read the space data you see (comments, messages, authors, statistics);',
    mayAct: 'do what your role allows (reply, close, change settings if you may).',
    mayNot:
      'The app does not learn your password and cannot change your email, password or two-factor authentication.',
    redirect: 'After you answer you will go to {{host}}.',
    revokeLater: 'You can revoke access at any time on the Third-party apps page.',
    allow: 'Allow',
    deny: 'Deny',
    errorTitle: 'Invalid access request',
    unknownClient: 'The app was not found or has been deleted. Tell the app developer.',
    badRedirect: 'The redirect URI is not registered for this app, so we will not send you anywhere.',
    notMember: 'The app is registered in a space you are not a member of.',
    redirecting: 'Taking you back to the app…',
  },
};
