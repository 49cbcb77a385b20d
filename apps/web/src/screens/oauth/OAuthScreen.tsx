import { useLocation } from 'react-router';
import { registerShellResources } from '../../i18n/shellResources';
import { ConsentScreen } from './ConsentScreen';
import { OAuthAppsScreen } from './OAuthAppsScreen';

// The screen's strings live with the settings' (the shell bundle); /oauth is outside the shell.
registerShellResources();

/**
 * /oauth: with an authorization request in the address (`response_type`, `client_id`, …) the consent
 * screen another program sent the user to; without one, the third-party apps management screen.
 */
export default function OAuthScreen() {
  const params = new URLSearchParams(useLocation().search);
  if (params.has('response_type') || params.has('client_id')) return <ConsentScreen params={params} />;
  return <OAuthAppsScreen />;
}
