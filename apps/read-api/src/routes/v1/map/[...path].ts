import { PassThrough, type Readable } from 'node:stream';
import { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, errors } from '@guest/http-kit';
import { isActiveContentType, looksLikeMarkup, parseMapPath, type MapResource } from '../../../map/resources.ts';
import { PASSED_RESPONSE_HEADERS, type UpstreamAnswer } from '../../../map/upstream.ts';
import type { ReadRouteOptions } from '../../../services.ts';

const PREFIX = /^\/v1\/map\/([^?#]*)/;

const MapParams = z.object({
  '*': z.string().meta({
    description:
      'Resource path: `style.json`, `tiles.json`, `tiles/{z}/{x}/{y}.{pbf|png|webp}`, `relief.json`, ' +
      '`relief/{z}/{x}/{y}.{png|webp}`, `fonts/{fontstack}/{start}-{end}.pbf` (start a multiple of 256, ' +
      'end = start + 255), `sprites/{name}[@2x].{json|png}`. z from 0 to the configured maximum zoom, ' +
      'x and y from 0 to 2^z − 1.',
  }),
});

const Passed = z.unknown().meta({
  description:
    "The provider's body as is (JSON style or TileJSON, protobuf or image tile, glyph range, sprite), streamed, " +
    'with its Content-Encoding, Cache-Control, ETag, Last-Modified, Expires and Vary. The Content-Type is fixed by ' +
    'the resource kind: `application/json` for `style.json`, `tiles.json`, `relief.json` and sprite JSON, ' +
    '`application/x-protobuf` for vector tiles and glyph ranges, `image/png` or `image/webp` for raster tiles and ' +
    'sprite images.',
});
const NoBody = z.null();

/**
 * GET /v1/map/{path} (spec 4.4): a caching pass-through to the map provider (MAP_UPSTREAM_URL),
 * the fallback for clients that cannot reach the provider directly.
 *
 * What the provider sends is served from the API's origin, where the web client's session lives,
 * so it must never be read as a document (issue 32 point 4: a provider answering `text/html` had
 * its script run here). Every answer carries `X-Content-Type-Options: nosniff` and
 * `Content-Security-Policy: sandbox` (opened directly, even a document would run in an opaque
 * origin, without scripts); the Content-Type is the resource kind's own, never the provider's;
 * and an answer the provider labels as HTML, XML or script, or whose first bytes are markup, is
 * refused with 502 `bad_gateway` without passing a byte of it.
 */
export default async function mapRoutes(app: FastifyInstance, { services, config }: ReadRouteOptions): Promise<void> {
  // Tiles come by the dozen per screen: map resources have their own per-address budget
  // instead of the general one, so panning a map cannot lock a guest out of the API.
  async function mapRateLimit(req: FastifyRequest): Promise<void> {
    let result;
    try {
      result = await app.rateLimiter.hit('map', req.addressKey, config.MAP_RATE_LIMIT_PER_MIN, 60);
    } catch (err) {
      req.log.warn({ err }, 'rate limiter unavailable; map request let through');
      return;
    }
    if (!result.allowed) throw errors.rateLimited(result.retryAfterS, 'map');
  }

  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/map/*',
    {
      config: {
        errors: ['not_found', 'bad_gateway', 'gateway_timeout'],
        conditional: true,
        rateLimitExempt: true,
        example: {
          params: { path: 'style.json' },
          response: {
            version: 8,
            name: 'Streets',
            sources: { openmaptiles: { type: 'vector', url: 'https://tiles.example.com/v3.json' } },
            glyphs: 'https://tiles.example.com/fonts/{fontstack}/{range}.pbf',
            layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#f8f4f0' } }],
          },
        },
      },
      schema: {
        operationId: 'getMapResource',
        tags: ['map'],
        summary: 'Map resources through the API (style, TileJSON, tiles, fonts, sprites, relief)',
        description:
          'Passes one resource of the map provider through: the body is streamed unchanged with its caching ' +
          'headers, and `If-None-Match` / `If-Modified-Since` are forwarded, so 304 comes back as the provider ' +
          'sends it. Cache tiles exactly as on the direct route. This is the fallback when the provider is ' +
          'unreachable from the client. Only the path shapes listed for `path` are served; any other path, and any ' +
          'path with `..`, `//`, backslashes or encoded slashes, is 404 without contacting the provider. The query ' +
          'string is ignored. Map resources count against their own per-address rate limit. Every answer has ' +
          '`X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`; the Content-Type is the one of the ' +
          "resource kind (see the 200 answer), and a provider's HTML, XML or script is refused with 502. " +
          ` — 404 also when ` +
          'the provider has no such resource, 502 when it fails or cannot be reached, 504 when it does not answer in time.',
        params: MapParams,
        response: { 200: Passed, 204: NoBody, 304: NoBody },
      },
    },
    async (req, reply) => {
      // Before anything can fail: the error envelopes of this route carry them too.
      reply.header('x-content-type-options', 'nosniff').header('content-security-policy', 'sandbox');
      await mapRateLimit(req);
      const raw = PREFIX.exec(req.url)?.[1] ?? '';
      const resource = parseMapPath(raw, { maxZoom: config.MAP_MAX_ZOOM });
      if (!resource) {
        throw new AppError('not_found', 'No such map resource.', { path: req.url.split('?')[0] });
      }
      const clientGone = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) clientGone.abort(new Error('client closed the connection'));
      });
      const method = req.method === 'HEAD' ? 'HEAD' : 'GET';
      const res = await services.map.get(resource.upstreamPath, req.headers, clientGone.signal, method);
      return pass(reply, res, resource);
    },
  );
}

const markupRefused = () =>
  new AppError('bad_gateway', 'The map provider answered with a document, not a map resource.', {
    upstream: 'map',
    reason: 'not_a_map_resource',
  });

/** Lets go of a body not passed on: the connection closes, whatever the provider still sends. */
function discard(body: UpstreamAnswer['body']): void {
  // undici reports the abort as an error on the stream: expected here, not a failure.
  body.on('error', () => {});
  body.destroy();
}

/**
 * The body once its first chunk is looked at: refused when that is markup (`looksLikeMarkup`),
 * else a stream of that chunk and the rest, still streamed. Only an uncompressed body can be
 * read so; a compressed one reaches the browser as the kind's fixed type with `nosniff`, which
 * no browser renders as a document.
 */
async function withoutMarkup(body: UpstreamAnswer['body']): Promise<Readable> {
  const head = await new Promise<Buffer | null>((resolve, reject) => {
    const done = () => {
      body.off('data', onData).off('end', onEnd).off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      done();
      body.pause();
      resolve(chunk);
    };
    const onEnd = () => {
      done();
      resolve(null);
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    body.on('data', onData).once('end', onEnd).once('error', onError);
  });
  if (head === null) return body;
  if (looksLikeMarkup(head)) {
    discard(body);
    throw markupRefused();
  }
  // The chunk ahead of the rest, still streamed (`unshift` would be lost on a body already ended).
  const out = new PassThrough();
  out.write(head);
  body.on('error', (err) => out.destroy(err));
  return body.pipe(out);
}

async function pass(reply: FastifyReply, res: UpstreamAnswer, resource: MapResource) {
  const { statusCode, headers, body } = res;
  if (statusCode === 200 || statusCode === 204 || statusCode === 304) {
    if (isActiveContentType(headers['content-type'])) {
      discard(body);
      throw markupRefused();
    }
    for (const name of PASSED_RESPONSE_HEADERS) {
      const v = headers[name];
      if (v !== undefined) reply.header(name, v);
    }
    if (statusCode === 200) {
      const encoding = headers['content-encoding'];
      const encoded = encoding !== undefined && String(encoding).trim().toLowerCase() !== 'identity';
      const checked = reply.request.method === 'HEAD' || encoded ? body : await withoutMarkup(body);
      return reply.code(200).type(resource.contentType).send(checked);
    }
    body.resume(); // nothing to pass: drain it so the connection goes back to the pool
    reply.removeHeader('content-length');
    return reply.code(statusCode).send(null);
  }
  body.resume();
  if (statusCode === 404 || statusCode === 410) {
    throw new AppError('not_found', 'The map provider has no such resource.', { upstream_status: statusCode });
  }
  throw new AppError('bad_gateway', 'The map provider answered with an error.', {
    upstream: 'map',
    upstream_status: statusCode,
  });
}
