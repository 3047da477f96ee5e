import type { Config } from '@guest/config';
import { addGauge, runHttpServer } from '@guest/http-kit';
import {
  ASYNCAPI_PATH,
  asyncApiDocument,
  SOCKET_DOCS_CSP,
  SOCKET_DOCS_PATH,
  socketProtocolPage,
  startGateway,
} from '@guest/realtime';
import { socketAuthenticator } from '@guest/realtime/socket-auth';
import { allApps } from './app.ts';
import { forwardWebSocketUpgrades } from './ws-proxy.ts';
import { webClient } from './web.ts';

/**
 * Every app of the API in one process behind one base URL: the HTTP apps on PORT, the socket
 * gateway on REALTIME_PORT with `/v1/ws` upgrades on PORT passed through to it, and the web
 * client (apps/web, built) at `/`.
 */
export async function runAll(config?: Config, opts: { onClose?: () => Promise<void> } = {}) {
  return runHttpServer([...allApps, webClient], {
    ...(config ? { config } : {}),
    prepare: async (app, runtime) => {
      const gateway = await startGateway({
        config: runtime.config,
        authenticate: socketAuthenticator(runtime),
        port: runtime.config.REALTIME_PORT,
        host: '127.0.0.1',
        clock: runtime.clock,
      });
      addGauge(app.metrics, 'realtime_open_sockets', 'Sockets open on this gateway.', () => gateway.openSockets());
      const endUpgraded = forwardWebSocketUpgrades(app.server, { host: '127.0.0.1', port: gateway.port });
      // The socket's protocol is published where clients reach the socket: at the one base URL too.
      const socketProtocol = asyncApiDocument(runtime.config);
      app.get(
        ASYNCAPI_PATH,
        { schema: { hide: true } as never, config: { rateLimitExempt: true } },
        async () => socketProtocol,
      );
      // And as a page to read, linked from the API reference (`/docs`).
      const socketPage = socketProtocolPage(socketProtocol, ASYNCAPI_PATH);
      app.get(
        SOCKET_DOCS_PATH,
        { schema: { hide: true } as never, config: { rateLimitExempt: true } },
        async (_req, reply) =>
          reply
            .type('text/html; charset=utf-8')
            .header('content-security-policy', SOCKET_DOCS_CSP)
            .header('referrer-policy', 'same-origin')
            .send(socketPage),
      );
      app.addHook('preClose', async () => {
        endUpgraded();
        await gateway.close();
      });
      if (opts.onClose) app.addHook('onClose', opts.onClose);
    },
  });
}
