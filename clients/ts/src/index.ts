export { createGuestClient, type GuestClient, type GuestClientOptions } from './client.ts';
export { memoryTokenStore, sessionMiddleware, type TokenPair, type TokenStore } from './session.ts';
export { items, pages, PageError, type FetchPage, type Page } from './paging.ts';
export {
  connectSocket,
  SocketError,
  wsTicket,
  type Credential,
  type GuestSocket,
  type SocketMessage,
  type SocketOptions,
  type WebSocketConstructor,
  type WebSocketLike,
} from './socket.ts';
export type { components, operations, paths } from './generated/schema.ts';
export {
  SEARCH_FILTERS,
  type SearchFilterSpec,
  type SearchFilterType,
  type SearchQuery,
} from './generated/search-filters.ts';
