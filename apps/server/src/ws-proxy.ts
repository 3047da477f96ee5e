import net from 'node:net';
import type { Server } from 'node:http';

/**
 * The socket gateway is a separate server on its own port; to keep one base URL, upgrade requests
 * for `/v1/ws` arriving at the HTTP server are piped, bytes unchanged, to the gateway's port.
 * Returns a function that ends every passed-through socket (for shutdown).
 */
export function forwardWebSocketUpgrades(server: Server, target: { host: string; port: number }): () => void {
  // Upgraded sockets still count as the server's connections: close() would wait for them forever.
  const open = new Set<{ destroy(): void }>();
  server.on('upgrade', (req, socket, head) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/v1/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
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
      socket.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    });
    socket.on('error', drop);
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
  });
  return () => {
    for (const s of open) s.destroy();
  };
}
