import { createHash } from 'node:crypto';

/** Where the page is served (beside Swagger UI's `/docs`, which links to it). */
export const SOCKET_DOCS_PATH = '/docs/socket';

type Schema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
  minimum?: number;
};

interface AsyncApiMessage {
  name: string;
  title?: string;
  summary?: string;
  payload: Schema;
}

interface AsyncApiDoc {
  info: { title: string; version: string; description?: string };
  components: { messages: Record<string, AsyncApiMessage> };
  operations: Record<string, { action: 'send' | 'receive'; messages: Array<{ $ref: string }> }>;
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The inline Markdown of the document's descriptions: `code`, **bold** and [links](/path). */
function inline(text: string): string {
  return text
    .split('`')
    .map((part, i) => {
      if (i % 2 === 1) return `<code>${escape(part)}</code>`;
      return escape(part)
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/\[([^\]]+)\]\((\/[^)\s]*|https?:\/\/[^)\s]+)\)/g, '<a href="$2">$1</a>');
    })
    .join('');
}

/** Paragraphs and pipe tables: all the block Markdown the document's description uses. */
function markdown(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((block) => {
      const lines = block.trim().split('\n');
      if (lines.every((l) => l.trim().startsWith('|'))) {
        const cells = (l: string) =>
          l
            .trim()
            .replace(/^\||\|$/g, '')
            .split('|')
            .map((c) => c.trim());
        const [head, , ...rows] = lines;
        return (
          `<table><thead><tr>${cells(head!)
            .map((c) => `<th>${inline(c)}</th>`)
            .join('')}</tr></thead><tbody>` +
          rows
            .map(
              (r) =>
                `<tr>${cells(r)
                  .map((c) => `<td>${inline(c)}</td>`)
                  .join('')}</tr>`,
            )
            .join('') +
          '</tbody></table>'
        );
      }
      return `<p>${inline(block.trim())}</p>`;
    })
    .join('\n');
}

function typeLabel(s: Schema): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return alternatives.map(typeLabel).join(' or ');
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const types = [s.type ?? 'any'].flat();
  return types
    .map((t) => {
      if (t === 'string' && s.format) return `string (${s.format})`;
      if (t === 'integer' && s.minimum !== undefined) return `integer ≥ ${s.minimum}`;
      if (t === 'array' && s.items) return `array of ${typeLabel(s.items)}`;
      return t;
    })
    .join(' or ');
}

const descriptionOf = (s: Schema): string | undefined =>
  s.description ?? (s.anyOf ?? s.oneOf ?? []).map(descriptionOf).find(Boolean);

/** One row per field of `data`, nested objects as `parent.child`, each alternative of a union in turn. */
function fieldRows(s: Schema, prefix: string, rows: string[]): void {
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives && alternatives.some((a) => a.properties)) {
    alternatives.forEach((a, i) => {
      rows.push(
        `<tr class="alt"><td colspan="4">${prefix || 'data'}, form ${i + 1} of ${alternatives.length}:</td></tr>`,
      );
      fieldRows(a, prefix, rows);
    });
    return;
  }
  for (const [name, field] of Object.entries(s.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    rows.push(
      `<tr><td><code>${escape(path)}</code></td><td>${escape(typeLabel(field))}</td>` +
        `<td>${s.required?.includes(name) ? 'yes' : 'no'}</td><td>${inline(descriptionOf(field) ?? '')}</td></tr>`,
    );
    if (field.properties && Object.keys(field.properties).length) fieldRows(field, path, rows);
  }
}

function messageSection(message: AsyncApiMessage): string {
  const data = message.payload.properties?.data ?? {};
  const rows: string[] = [];
  fieldRows(data, '', rows);
  const required = message.payload.required?.includes('data') ? '' : ' <code>data</code> may be omitted.';
  const fields = rows.length
    ? `<table><thead><tr><th><code>data</code> field</th><th>type</th><th>required</th><th>meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
    : `<p><code>data</code> is an empty object.${required}</p>`;
  return (
    `<section id="message-${escape(message.name)}"><h3><code>${escape(message.name)}</code></h3>` +
    `<p>${inline(message.summary ?? '')}</p>${fields}` +
    `<details><summary>JSON Schema of the whole message</summary><pre>${escape(JSON.stringify(message.payload, null, 2))}</pre></details></section>`
  );
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
code{font-family:ui-monospace,monospace;background:#f2f2f2;padding:0 .2em;border-radius:3px}
table{border-collapse:collapse;margin:1rem 0;width:100%}th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}
tr.alt td{background:#fafafa;font-style:italic}pre{background:#f6f6f6;padding:1rem;overflow:auto}
nav a{margin-right:1rem}section{border-top:1px solid #ddd;margin-top:1.5rem}`;

/** The page's Content-Security-Policy: no script at all, and only its own style (by hash). */
export const SOCKET_DOCS_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * The socket protocol as a page people read, rendered from the AsyncAPI document itself (not from
 * the gateway's schemas), so it shows exactly what a client generator sees: how to open and renew
 * the socket, the close codes (the document's description), and every message each way with the
 * fields of its `data`.
 */
export function socketProtocolPage(document: Record<string, unknown>, asyncApiPath: string): string {
  const doc = document as unknown as AsyncApiDoc;
  const byAction = (action: 'send' | 'receive') =>
    Object.values(doc.operations)
      .filter((o) => o.action === action)
      .flatMap((o) => o.messages.map((m) => m.$ref.split('/').pop()!))
      .map((name) => doc.components.messages[name]!);
  const list = (messages: AsyncApiMessage[]) =>
    `<ul>${messages.map((m) => `<li><a href="#message-${escape(m.name)}"><code>${escape(m.name)}</code></a></li>`).join('')}</ul>`;
  const sent = byAction('send');
  const received = byAction('receive');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(doc.info.title)}</title>
<link rel="icon" type="image/png" href="/docs/static/favicon-32x32.png" sizes="32x32">
<style>${STYLE}</style>
</head>
<body>
<nav><a href="/docs">API reference (HTTP)</a><a href="${escape(asyncApiPath)}">AsyncAPI document (JSON)</a></nav>
<h1>${escape(doc.info.title)}</h1>
<p>Protocol version <code>${escape(doc.info.version)}</code>.</p>
${markdown(doc.info.description ?? '')}
<h2>Messages the server sends</h2>
${list(sent)}
<h2>Messages a client sends</h2>
${list(received)}
<h2>Server to client</h2>
${sent.map(messageSection).join('\n')}
<h2>Client to server</h2>
${received.map(messageSection).join('\n')}
</body>
</html>
`;
}
