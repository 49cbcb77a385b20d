import type { Dictionary } from './dictionary';
import type { referralRu } from './referral.ru';

export const referralEn: Dictionary<typeof referralRu> = {
  hint: 'Invite new customers with your link or code and get a share of what they pay.',
  link: 'Your link',
  code: 'Your promo code',
  codeHint: 'A new customer enters it in the “Promo code” field when signing up.',
  copy: 'Copy',
  copied: 'Copied',
  share: 'Your share: {{percent}}% of every payment of the spaces you referred.',
  stats: { signups: 'Signups', paid: 'Paying', earned: 'Earned', available: 'Available' },
  none: '—',
  payout: 'Request payout of {{amount}}',
  payoutRequested: 'Payout requested',
  signups: 'Referred spaces',
  signupsEmpty: 'Nobody has signed up through your link yet.',
  payments: "Referred spaces' payments",
  paymentsEmpty: 'No payments yet.',
  payouts: 'Payouts',
  payoutsEmpty: 'No payout requests yet.',
  columns: {
    date: 'Date',
    space: 'Space',
    paid: 'Payment',
    amount: 'Amount',
    share: 'Your share',
    state: 'Status',
  },
  paidYes: 'Paying',
  paidNo: 'Trial',
  payoutStates: { requested: 'Requested', paid: 'Paid', rejected: 'Rejected' },
};
