import { MultiSelect, type MultiSelectProps, Select, type SelectProps } from '@mantine/core';

// Pickers of records by their numeric ids (a template, a webhook, tags, accounts…): the options' values are
// the ids as text, as Mantine wants them; the form reads and writes numbers.

/** One record or none: `null` when nothing is picked. */
export function IdSelect({
  value,
  onChange,
  ...props
}: Omit<SelectProps, 'value' | 'onChange'> & {
  value: number | null | undefined;
  onChange: (id: number | null) => void;
}) {
  return (
    <Select
      value={value ? String(value) : null}
      onChange={(v) => onChange(v ? Number(v) : null)}
      {...props}
    />
  );
}

/** Any number of records. */
export function IdMultiSelect({
  value,
  onChange,
  ...props
}: Omit<MultiSelectProps, 'value' | 'onChange'> & { value: number[]; onChange: (ids: number[]) => void }) {
  return <MultiSelect value={value.map(String)} onChange={(ids) => onChange(ids.map(Number))} {...props} />;
}

/** The options of a picker: the records of one space, each with its label. */
export function spaceOptions<T extends { id: number; space_id: number }>(
  records: readonly T[] | undefined,
  spaceId: number,
  label: (record: T) => string,
) {
  return (records ?? [])
    .filter((x) => x.space_id === spaceId)
    .map((x) => ({ value: String(x.id), label: label(x) }));
}

/** A reply template as a picker names it: "folder / title", or the title alone. */
export const templateLabel = (x: { folder: string; title: string }) =>
  x.folder ? `${x.folder} / ${x.title}` : x.title;

/** A webhook as a picker offers it: its description and address; a switched-off one can't be picked. */
export const webhookOption = (w: { id: number; url: string; description: string; is_enabled: boolean }) => ({
  value: String(w.id),
  label: w.description ? `${w.description} — ${w.url}` : w.url,
  disabled: !w.is_enabled,
});
