import { describe, expect, it } from 'vitest';
import { Parser } from '@asyncapi/parser';
import { PUBLISHED_TYPES } from '@guest/realtime-bus';
import { asyncApiDocument } from './asyncapi.ts';
import { CLIENT_MESSAGES, SERVER_MESSAGES } from './protocol.ts';

// Diagnostic severities of the parser (Spectral's): 0 error, 1 warning, 2 information, 3 hint.
const ERROR = 0;

const config = {
  PUBLIC_BASE_URL: 'https://api.example.test',
  HOST: '127.0.0.1',
  PORT: 8080,
  ACCESS_TOKEN_TTL_S: 900,
  WS_EXPIRY_WARNING_S: 60,
};

describe('the AsyncAPI document of /v1/ws', () => {
  it('is valid AsyncAPI 3 for the official parser: no error diagnostics', async () => {
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(asyncApiDocument(config)));
    const errors = diagnostics.filter((d) => d.severity === ERROR).map((d) => `${d.path.join('.')}: ${d.message}`);
    expect(errors).toEqual([]);
    expect(document).toBeDefined();
    const types = document!
      .allMessages()
      .all()
      .map((m) => m.name());
    expect(types.sort()).toEqual([...Object.keys(SERVER_MESSAGES), ...Object.keys(CLIENT_MESSAGES)].sort());
    expect(document!.allOperations().filterBySend().length).toBe(Object.keys(SERVER_MESSAGES).length);
    expect(document!.allOperations().filterByReceive().length).toBe(Object.keys(CLIENT_MESSAGES).length);
  });

  it('lists every message type other processes publish to the sockets', () => {
    expect(Object.keys(SERVER_MESSAGES)).toEqual(expect.arrayContaining([...PUBLISHED_TYPES]));
  });

  it('holds no reference a client cannot open (design notes, sections of the specification)', () => {
    expect(JSON.stringify(asyncApiDocument(config))).not.toMatch(/DESIGN|\bspec \d|\bG\d+[a-z]\b|\(rule \d|\bissue \d/);
  });

  it('names the server from PUBLIC_BASE_URL, wss for https, never from a request', () => {
    const doc = asyncApiDocument(config) as { servers: { api: { host: string; protocol: string } } };
    expect(doc.servers.api).toMatchObject({ host: 'api.example.test', protocol: 'wss' });
  });
});
