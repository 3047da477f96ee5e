/** The session list the OpenAPI examples of `/v1/auth/sessions` and `/v1/me/sessions` show. */
export const SESSION_LIST_EXAMPLE = [
  {
    id: 'f5722e55-9e43-4069-b79f-c6b777bc2adc',
    current: true,
    created_at: '2026-11-23T21:43:22.055Z',
    last_used_at: '2026-11-23T21:43:22.083Z',
    expires_at: '2026-12-23T21:43:22.083Z',
    ip: '127.0.0.1',
    user_agent: 'node',
  },
  {
    id: '803535e3-91c9-4d8b-a1f2-8b25e647399b',
    current: false,
    created_at: '2026-11-23T21:43:21.584Z',
    last_used_at: '2026-11-23T21:43:21.584Z',
    expires_at: '2026-12-23T21:43:21.584Z',
    ip: '127.0.0.1',
    user_agent: 'node',
  },
];
