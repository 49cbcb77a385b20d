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

/** Billing warnings (issue 14 item 5): the space expires, or its data is deleted, on `date`. */
export function renderBillingWarning(
  kind: 'expiry' | 'deletion',
  locale: Locale,
  vars: { name?: string; spaceName: string; date: string; days: number; link: string },
): Rendered {
  const ru = locale === 'ru';
  const hello = ru
    ? `Здравствуйте${vars.name ? `, ${vars.name}` : ''}!`
    : `Hello${vars.name ? `, ${vars.name}` : ''}!`;
  const days = ru ? ruDays(vars.days) : `${vars.days} day${vars.days === 1 ? '' : 's'}`;
  if (kind === 'expiry')
    return ru
      ? render(
          `Пространство «${vars.spaceName}»: оплаченный период заканчивается через ${days}`,
          [
            hello,
            `Оплаченный период пространства «${vars.spaceName}» в Otklik заканчивается ${vars.date}. После этого работа в нём остановится до оплаты.`,
            'Продлить можно на странице оплаты:',
          ],
          vars.link,
          'Перейти к оплате',
        )
      : render(
          `"${vars.spaceName}": the paid period ends in ${days}`,
          [
            hello,
            `The paid period of the "${vars.spaceName}" space in Otklik ends on ${vars.date}. After that, work in it stops until it is paid.`,
            'You can extend it on the billing page:',
          ],
          vars.link,
          'Go to billing',
        );
  return ru
    ? render(
        `Пространство «${vars.spaceName}» будет удалено через ${days}`,
        [
          hello,
          `Оплаченный период пространства «${vars.spaceName}» закончился. ${vars.date} все его данные будут удалены без возможности восстановления.`,
          'Чтобы сохранить пространство, оплатите его. Скачать архив данных можно на странице оплаты:',
        ],
        vars.link,
        'Оплатить или скачать архив',
      )
    : render(
        `"${vars.spaceName}" will be deleted in ${days}`,
        [
          hello,
          `The paid period of the "${vars.spaceName}" space is over. On ${vars.date} all its data will be deleted for good.`,
          'To keep the space, pay for it. You can download an archive of its data on the billing page:',
        ],
        vars.link,
        'Pay or download the archive',
      );
}

function ruDays(n: number): string {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return `${n} день`;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 10 || mod100 >= 20)) return `${n} дня`;
  return `${n} дней`;
}
