import type { FastifyRequest } from 'fastify';
import type { Config } from '@guest/config';
import { publicBaseUrl } from '@guest/http-kit';

export interface OriginAddresses {
  api_url: string;
  files_url: string;
}

const trim = (u: string) => u.replace(/\/+$/, '');

/**
 * The main server's pair of addresses (base URLs: scheme and host, `/v1/...` is appended):
 * ORIGIN_API_URL, else PUBLIC_BASE_URL (required in production), else the address this server is
 * configured to listen on; files at ORIGIN_FILES_URL, else the same address. Never the request's
 * Host header (issue 10 point 6), so neither a client nor a shared cache gets URLs a forged header chose.
 */
export function originOf(config: Config, req: FastifyRequest): OriginAddresses {
  const api = config.ORIGIN_API_URL ?? publicBaseUrl(req);
  return { api_url: trim(api), files_url: trim(config.ORIGIN_FILES_URL ?? api) };
}
