import type { ComponentType } from 'preact';

/**
 * Small pieces of the header that areas of the page add (the account's badges, the sign-up
 * link), shown before the session menu in `order`. Registered at module load, like screens.
 */
const items: Array<{ key: string; order: number; component: ComponentType }> = [];

export function registerHeaderItem(item: { key: string; order: number; component: ComponentType }): void {
  if (items.some((i) => i.key === item.key)) throw new Error(`header item ${item.key} registered twice`);
  items.push(item);
  items.sort((a, b) => a.order - b.order);
}

export function headerItems(): ReadonlyArray<{ key: string; component: ComponentType }> {
  return items;
}
