export const PRODUCT_NAME = 'Otklik';

/** SPEC §1: the page title is the screen title followed by the product name. */
export function pageTitle(screen?: string): string {
  return screen ? `${screen} — ${PRODUCT_NAME}` : PRODUCT_NAME;
}
