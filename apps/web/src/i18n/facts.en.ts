import type { Dictionary } from './dictionary';
import type { factsRu } from './facts.ru';

export const factsEn: Dictionary<typeof factsRu> = {
  hint: "Fields operators fill in on an author's page: order number, city, customer's plan…",
  noSpace: 'You are not an administrator of any space.',
  add: 'New field',
  edit: 'Edit field',
  empty: "No fields yet. Add the first one and it appears on every author's page.",
  name: 'Name',
  namePlaceholder: 'Order number, for example',
  kind: 'Type',
  kindFixed: 'The type of a field cannot be changed once it is created.',
  options: 'Options',
  optionsHint: 'Type an option and press Enter.',
  deleteTitle: 'Delete the field “{{name}}”?',
  deleteText: "Every author's value of this field will be deleted.",
  kinds: {
    text: 'Text',
    number: 'Number',
    date: 'Date',
    boolean: 'Yes / no',
    select: 'List',
    url: 'Link',
    email: 'Email',
    phone: 'Phone',
  },
  authorHeading: 'Fields',
  authorNone: 'Authors can have fields of your own.',
  authorSetUp: 'Set up fields',
  notSet: 'Not set',
  yes: 'Yes',
  no: 'No',
};
