import net from 'node:net';

export interface SinkMessage {
  from: string;
  to: string[];
  data: string;
}

/**
 * A minimal SMTP server on 127.0.0.1 standing in for the outside relay: it accepts every
 * message and keeps it, so a test can read what the API really sent over SMTP.
 */
export async function startSmtpSink(): Promise<{ url: string; messages: SinkMessage[]; close(): Promise<void> }> {
  const messages: SinkMessage[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current: SinkMessage = { from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 sink ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          messages.push(current);
          current = { from: '', to: [], data: '' };
          inData = false;
          reply('250 queued');
          continue;
        }
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO') socket.write('250-sink\r\n250 8BITMIME\r\n');
        else if (cmd === 'HELO') reply('250 sink');
        else if (cmd === 'MAIL') {
          current.from = line.slice(10).trim();
          reply('250 ok');
        } else if (cmd === 'RCPT') {
          current.to.push(line.slice(8).trim());
          reply('250 ok');
        } else if (cmd === 'DATA') {
          inData = true;
          reply('354 go ahead');
        } else if (cmd === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('250 ok');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
