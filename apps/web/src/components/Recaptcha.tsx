import { Input } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AuthConfig, authApi } from '../api/auth';
import { useLocale } from '../i18n/useLocale';

// reCAPTCHA v2 on signup, login and recovery (issue 13 item 14). The server says at run time whether it
// is on (GET /v1/auth/config); only then is Google's script loaded (the CSP allows it only then too).

interface Grecaptcha {
  render(element: HTMLElement, options: { sitekey: string; hl?: string }): number;
  getResponse(widgetId?: number): string;
  reset(widgetId?: number): void;
  ready?(callback: () => void): void;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

export function useAuthConfig() {
  const locale = useLocale();
  return useQuery({
    queryKey: ['auth-config', locale],
    queryFn: () => authApi.config(locale),
    staleTime: 5 * 60_000,
  });
}

let scriptLoad: Promise<Grecaptcha> | undefined;

/** Loads the widget script once per page; a failed load may be retried by the next screen. */
function loadScript(url: string): Promise<Grecaptcha> {
  scriptLoad ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.onload = () => {
      const api = window.grecaptcha;
      if (!api) return reject(new Error('grecaptcha missing'));
      if (api.ready) api.ready(() => resolve(api));
      else resolve(api);
    };
    script.onerror = () => {
      scriptLoad = undefined;
      reject(new Error('reCAPTCHA script failed to load'));
    };
    document.head.appendChild(script);
  });
  return scriptLoad;
}

export interface RecaptchaControl {
  /** The widget, or nothing when reCAPTCHA is off here. */
  widget: React.ReactNode;
  /** Whether a form must carry a token. */
  enabled: boolean;
  /** The current token ('' before the user has solved it); undefined when off. */
  token(): string | undefined;
  /** A token is single-use: after every submit the widget starts over. */
  reset(): void;
  /** Shows the "confirm you are not a robot" message under the widget. */
  setError(message: string | null): void;
}

/** The widget and its token for one form. */
export function useRecaptcha(): RecaptchaControl {
  const { data: config } = useAuthConfig();
  const recaptcha = config?.recaptcha ?? null;
  return useRecaptchaWidget(recaptcha);
}

function useRecaptchaWidget(recaptcha: AuthConfig['recaptcha']): RecaptchaControl {
  const { t } = useTranslation();
  const locale = useLocale();
  const container = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: Grecaptcha; id: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);

  useEffect(() => {
    if (!recaptcha || !container.current || widget.current) return;
    let live = true;
    const element = container.current;
    loadScript(recaptcha.script_url).then(
      (api) => {
        if (!live || widget.current) return;
        widget.current = { api, id: api.render(element, { sitekey: recaptcha.site_key, hl: locale }) };
      },
      () => live && setLoadFailed(true),
    );
    return () => {
      live = false;
    };
  }, [recaptcha, locale]);

  const token = useCallback(() => {
    if (!recaptcha) return undefined;
    const current = widget.current;
    return current ? current.api.getResponse(current.id) : '';
  }, [recaptcha]);

  const reset = useCallback(() => {
    const current = widget.current;
    if (current) current.api.reset(current.id);
  }, []);

  const node = recaptcha ? (
    <Input.Wrapper error={error ?? (loadFailed ? t('account.captchaUnavailable') : undefined)}>
      <div ref={container} data-testid="recaptcha" />
    </Input.Wrapper>
  ) : null;
  return { widget: node, enabled: recaptcha !== null, token, reset, setError };
}
