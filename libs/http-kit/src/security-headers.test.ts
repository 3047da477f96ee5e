import { describe, expect, it } from 'vitest';
import { carriesMetricsToken, metricsAccess, securityHeaders } from './security-headers.ts';

const TOKEN = 'a-metrics-token-of-at-least-32-bytes-long';

describe('securityHeaders (issue 32 point 8)', () => {
  it('always says nosniff; HSTS only when the API is served over https', () => {
    expect(securityHeaders({ PUBLIC_BASE_URL: undefined, HSTS_MAX_AGE_S: 31_536_000 })).toEqual({
      'x-content-type-options': 'nosniff',
    });
    expect(securityHeaders({ PUBLIC_BASE_URL: 'http://api.example.com', HSTS_MAX_AGE_S: 31_536_000 })).toEqual({
      'x-content-type-options': 'nosniff',
    });
    expect(securityHeaders({ PUBLIC_BASE_URL: 'https://api.example.com', HSTS_MAX_AGE_S: 31_536_000 })).toEqual({
      'x-content-type-options': 'nosniff',
      'strict-transport-security': 'max-age=31536000',
    });
  });
});

describe('metricsAccess (issue 32 point 8)', () => {
  it('takes the token when there is one, else is open on loopback in development only', () => {
    expect(metricsAccess({ METRICS_TOKEN: TOKEN, APP_ENV: 'production', HOST: '0.0.0.0' })).toBe('token');
    expect(metricsAccess({ METRICS_TOKEN: TOKEN, APP_ENV: 'development', HOST: '127.0.0.1' })).toBe('token');
    expect(metricsAccess({ METRICS_TOKEN: undefined, APP_ENV: 'development', HOST: '127.0.0.1' })).toBe('open');
    expect(metricsAccess({ METRICS_TOKEN: undefined, APP_ENV: 'production', HOST: '127.0.0.1' })).toBe('closed');
    expect(metricsAccess({ METRICS_TOKEN: undefined, APP_ENV: 'development', HOST: '0.0.0.0' })).toBe('closed');
  });

  it('accepts exactly the bearer of the token', () => {
    expect(carriesMetricsToken(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(carriesMetricsToken(`bearer  ${TOKEN}`, TOKEN)).toBe(true);
    for (const h of [
      undefined,
      '',
      TOKEN,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      `Basic ${TOKEN}`,
      'Bearer ',
    ]) {
      expect(carriesMetricsToken(h, TOKEN), String(h)).toBe(false);
    }
  });
});
