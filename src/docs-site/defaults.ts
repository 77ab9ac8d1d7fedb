/**
 * The defaults the site applies when a list parameter is left out (spec section 4.7). The client
 * does not send them; they are here so scripts can rely on them by name.
 *
 * @group Docs site
 */
export const LIST_DEFAULTS = {
  posts: {
    per_page: 10,
    order: 'desc',
    orderby: 'date',
    status: 'publish',
    context: 'view',
    ignore_sticky: true,
  },
  pages: { per_page: 10, order: 'desc', orderby: 'date', status: 'publish', context: 'view' },
  media: { per_page: 10, order: 'desc', orderby: 'date', status: 'inherit', context: 'view' },
  menuItems: { per_page: 100, order: 'asc', orderby: 'menu_order', status: 'publish', context: 'view' },
  blocks: { per_page: 10, order: 'desc', orderby: 'date', status: 'publish', context: 'view' },
} as const;
