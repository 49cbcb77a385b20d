/**
 * How a person's network handle is shown: `@name` for user names, a phone number (WhatsApp, Viber) as it
 * is — "@+7916…" reads as nonsense.
 */
export function handle(screenName: string): string {
  return /^\+?\d[\d\s()-]*$/.test(screenName) ? screenName : `@${screenName}`;
}
