import type { FastifyRequest } from 'fastify';
import type { Config } from '@guest/config';
import { errors } from '@guest/http-kit';

export interface OriginAddresses {
  api_url: string;
  files_url: string;
}

const HOST = /^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?$/;

const trim = (u: string) => u.replace(/\/+$/, '');

/**
 * The main server's pair of addresses (base URLs: scheme and host, `/v1/...` is appended):
 * ORIGIN_API_URL, else PUBLIC_BASE_URL, else the address the request came to; files at
 * ORIGIN_FILES_URL, else the same address. Production sets one of the first two, so that a shared
 * cache never keeps an answer built from a client's Host header.
 */
export function originOf(config: Config, req: FastifyRequest): OriginAddresses {
  let api = config.ORIGIN_API_URL ?? config.PUBLIC_BASE_URL;
  if (!api) {
    if (!HOST.test(req.host)) throw errors.validation('Host', 'The Host header is not a valid host name.');
    api = `${req.protocol}://${req.host}`;
  }
  return { api_url: trim(api), files_url: trim(config.ORIGIN_FILES_URL ?? api) };
}
