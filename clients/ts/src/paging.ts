/** What every cursor-paged list of the API answers. */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
  has_more: boolean;
}

/** An openapi-fetch answer: `data` on success, `error` (the envelope) otherwise. */
interface Answer<P> {
  data?: P;
  error?: unknown;
  response: Response;
}

/** The request of one page: the cursor of the page before, `undefined` for the first. */
export type FetchPage<P> = (cursor: string | undefined) => Promise<Answer<P>>;

/** Thrown when a page is refused; `body` is the error envelope as the API sent it. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`the API answered ${status} for a page`);
  }
}

/**
 * The pages of a list, following `next_cursor` until the last page:
 * `for await (const page of pages((cursor) => api.GET('/v1/me/favorites', { params: { query: { cursor } } })))`.
 * Keep the other query parameters the same on every call: a cursor belongs to its filters.
 */
export async function* pages<P extends Page<unknown>>(fetchPage: FetchPage<P>): AsyncGenerator<P> {
  let cursor: string | undefined;
  do {
    const { data, error, response } = await fetchPage(cursor);
    if (!data) throw new PageError(response.status, error);
    yield data;
    cursor = data.has_more && data.next_cursor ? data.next_cursor : undefined;
  } while (cursor);
}

/** The items of every page, one by one; stop early with `break`. */
export async function* items<P extends Page<unknown>>(fetchPage: FetchPage<P>): AsyncGenerator<P['items'][number]> {
  for await (const page of pages(fetchPage)) yield* page.items as Array<P['items'][number]>;
}
