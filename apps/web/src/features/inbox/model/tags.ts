import type { Tag } from '../../../api/types';
import type { InboxData } from '../hooks/useInboxData';

/**
 * Tags of the record's space, children under their parents ("Доставка / Сроки"). With `companyOnly`
 * (the account's company has tags_mode 'company') only that company's tags are offered, plus those the
 * record already has (`keep`), so they still show and can be removed.
 */
export function tagOptions(
  tags: Tag[],
  spaceId: number,
  companyOnly: number | null = null,
  keep: number[] = [],
) {
  const inSpace = tags.filter((tag) => tag.space_id === spaceId);
  const byId = new Map(inSpace.map((tag) => [tag.id, tag]));
  const offered = inSpace.filter(
    (tag) => companyOnly === null || tag.company_id === companyOnly || keep.includes(tag.id),
  );
  const path = (tag: Tag, depth = 0): string => {
    const parent = tag.parent_id ? byId.get(tag.parent_id) : undefined;
    return parent && depth < 10 ? `${path(parent, depth + 1)} / ${tag.name}` : tag.name;
  };
  return offered
    .map((tag) => ({ value: String(tag.id), label: path(tag) }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** The company whose own tags are the only ones offered for this account (tags_mode 'company'), or null. */
export function companyTagsOnly(
  objectId: number | undefined,
  data: Pick<InboxData, 'objectsById' | 'companiesById'>,
): number | null {
  const companyId = objectId === undefined ? null : (data.objectsById.get(objectId)?.company_id ?? null);
  if (companyId === null) return null;
  return data.companiesById.get(companyId)?.settings.tags_mode === 'company' ? companyId : null;
}
