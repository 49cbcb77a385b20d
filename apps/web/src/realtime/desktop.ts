import { readStorage, writeStorage } from '../lib/storage';

// Browser desktop notifications (issue 18). Permission is asked only from a click in
// settings/subscriptions, never on load; a pop-up shows only while the tab is hidden (the toast is
// enough otherwise) and when the event's browser channel is on. The sound is the user's choice.

const SOUND_KEY = 'otklik.notify.sound';

export const desktopSupported = () => typeof window !== 'undefined' && 'Notification' in window;

export function desktopPermission(): NotificationPermission | 'unsupported' {
  return desktopSupported() ? Notification.permission : 'unsupported';
}

/** Must be called from a user's click. */
export async function askDesktopPermission(): Promise<NotificationPermission | 'unsupported'> {
  if (!desktopSupported()) return 'unsupported';
  return Notification.requestPermission();
}

export const soundOn = () => readStorage(SOUND_KEY) === '1';

export function setSound(on: boolean) {
  writeStorage(SOUND_KEY, on ? '1' : '0');
}

/** A short beep through Web Audio: no file to load. */
export function beep() {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.value = 0.05;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.15);
    osc.onended = () => void ctx.close();
  } catch {
    // No audio here.
  }
}

export function showDesktop(title: string, body: string, onClick?: () => void) {
  if (desktopPermission() !== 'granted' || !document.hidden) return;
  try {
    const popup = new Notification(title, { body, tag: `otklik-${title}-${body}`.slice(0, 120) });
    if (onClick)
      popup.onclick = () => {
        window.focus();
        onClick();
        popup.close();
      };
  } catch {
    // Some browsers allow notifications only from a service worker: the toast stays.
  }
}
