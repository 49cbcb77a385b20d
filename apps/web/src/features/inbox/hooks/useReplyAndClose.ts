import { useUpdateMySettings } from '../../../api/settings';
import { showError } from '../../../components/notify';
import { useShell } from '../../../shell/ShellContext';

/**
 * The reply box's main button (issue 13): "Send and close" or "Send", remembered in my settings
 * (`reply_and_close`). Until chosen, comments close on reply (docs/product/states.md) and chats stay open.
 */
export function useReplyAndClose(kind: 'comment' | 'message') {
  const { user } = useShell();
  const update = useUpdateMySettings();
  const stored = user.settings.reply_and_close;
  const close = typeof stored === 'boolean' ? stored : kind === 'comment';
  const remember = (next: boolean) => {
    if (next !== close) update.mutate({ reply_and_close: next }, { onError: showError });
  };
  return { close, remember };
}
