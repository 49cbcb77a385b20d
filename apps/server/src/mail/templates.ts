import type { Locale } from '@otklik/shared';

// Mail texts in ru and en. Plain text first (the link must survive any client); HTML mirrors it.

export type MailKind = 'confirm_email' | 'reset_password' | 'invitation';

interface Rendered {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function render(subject: string, lines: string[], link: string, button: string): Rendered {
  const text = `${lines.join('\n\n')}\n\n${link}\n`;
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">${lines
    .map((l) => `<p>${escapeHtml(l)}</p>`)
    .join(
      '',
    )}<p><a href="${escapeHtml(link)}">${escapeHtml(button)}</a></p><p style="color:#888">${escapeHtml(
    link,
  )}</p></body></html>`;
  return { subject, text, html };
}

export function renderMail(
  kind: MailKind,
  locale: Locale,
  vars: { name?: string; link: string; spaceName?: string; inviterName?: string },
): Rendered {
  const hello =
    locale === 'ru'
      ? `Здравствуйте${vars.name ? `, ${vars.name}` : ''}!`
      : `Hello${vars.name ? `, ${vars.name}` : ''}!`;
  switch (kind) {
    case 'confirm_email':
      return locale === 'ru'
        ? render(
            'Подтвердите email в Otklik',
            [hello, 'Чтобы подтвердить адрес электронной почты, перейдите по ссылке:'],
            vars.link,
            'Подтвердить email',
          )
        : render(
            'Confirm your email for Otklik',
            [hello, 'To confirm your email address, open this link:'],
            vars.link,
            'Confirm email',
          );
    case 'reset_password':
      return locale === 'ru'
        ? render(
            'Восстановление пароля Otklik',
            [
              hello,
              'Мы получили запрос на восстановление пароля. Чтобы задать новый пароль, перейдите по ссылке (она действует 24 часа):',
              'Если вы не запрашивали восстановление, просто проигнорируйте это письмо.',
            ],
            vars.link,
            'Задать новый пароль',
          )
        : render(
            'Reset your Otklik password',
            [
              hello,
              'We received a request to reset your password. To set a new one, open this link (valid for 24 hours):',
              'If you did not ask for this, ignore this email.',
            ],
            vars.link,
            'Set a new password',
          );
    case 'invitation':
      return locale === 'ru'
        ? render(
            `Приглашение в пространство «${vars.spaceName ?? ''}» в Otklik`,
            [
              'Здравствуйте!',
              `${vars.inviterName ?? 'Администратор'} приглашает вас в пространство «${vars.spaceName ?? ''}» в Otklik. Чтобы принять приглашение, перейдите по ссылке:`,
            ],
            vars.link,
            'Принять приглашение',
          )
        : render(
            `Invitation to the "${vars.spaceName ?? ''}" space in Otklik`,
            [
              'Hello!',
              `${vars.inviterName ?? 'An administrator'} invites you to the "${vars.spaceName ?? ''}" space in Otklik. To accept, open this link:`,
            ],
            vars.link,
            'Accept invitation',
          );
  }
}
