import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import { isWebSocketHandshake, upgradeOnly } from '@guest/realtime/transport';

/**
 * A refused upgrade answered with the API's error envelope and `X-Request-Id`, as every HTTP
 * answer is: a client that asked for a socket at the wrong place learns why, not just "404".
 */
function refusal(req: IncomingMessage, status: number, code: string, message: string): string {
  const header = req.headers['x-request-id'];
  const requestId = (Array.isArray(header) ? header[0] : header) || randomUUID();
  const body = JSON.stringify({ error: { code, message, details: {}, request_id: requestId } });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Content-Type: application/json',
    `X-Request-Id: ${requestId}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * The socket gateway is a separate server on its own port; to keep one base URL, upgrade requests
 * for `/v1/ws` arriving at the HTTP server are piped, bytes unchanged, to the gateway's port.
 * Any other `Upgrade` (Java's HttpClient offers `h2c` on every plain-HTTP request) is ignored, as
 * RFC 9110 section 7.8 allows: the request is answered as the HTTP request it also is.
 * Returns a function that ends every passed-through socket (for shutdown).
 */
export function forwardWebSocketUpgrades(server: Server, target: { host: string; port: number }): () => void {
  upgradeOnly(server, (req) => isWebSocketHandshake(req, '/v1/ws'));
  // Upgraded sockets still count as the server's connections: close() would wait for them forever.
  const open = new Set<{ destroy(): void }>();
  server.on('upgrade', (req, socket, head) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    const upstream = net.connect(target.port, target.host, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    const drop = () => {
      socket.destroy();
      upstream.destroy();
    };
    upstream.on('error', () => {
      socket.end(refusal(req, 502, 'bad_gateway', 'The socket gateway did not answer; retry.'));
    });
    socket.on('error', drop);
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
  });
  return () => {
    for (const s of open) s.destroy();
  };
}
