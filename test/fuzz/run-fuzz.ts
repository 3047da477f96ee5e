import type fc from 'fast-check';
import { NoAnswer, RawClient } from './raw-client.ts';
import {
  checkAnswer,
  describeRequest,
  materialize,
  planArbitrary,
  planAt,
  type DocumentSchemas,
  type FuzzContext,
  type Operation,
  type Plan,
  type Tokens,
} from './openapi-fuzzer.ts';

/** The signed-in side of the fuzzer: the current access token, and a way to get a new one. */
export interface FuzzSession {
  tokens(): Tokens;
  /** Resolves when no sign-in is under way (requests wait for it rather than go out with a dead token). */
  ready(): Promise<void>;
  /** Called after an answer that may have ended the session (sign-out, 401 while signed in). */
  maybeEnded(op: Operation, plan: Plan, status: number): Promise<void>;
}

export interface FuzzOptions {
  baseUrl: string;
  ops: Operation[];
  ctx: FuzzContext;
  schemas: DocumentSchemas;
  session: FuzzSession;
  seed: number;
  count: number;
  /** Only these request numbers (to replay a failure). */
  only?: number[];
  concurrency: number;
  timeoutMs?: number;
  log?: (line: string) => void;
  /** Logs every request to operations whose key contains this, with its answer. */
  trace?: string;
}

export interface Failure {
  index: number;
  op: string;
  status: number | 'none';
  violation: { rule: string; detail: string };
  request: string;
  hostile: string[];
}

export interface FuzzReport {
  seed: number;
  sent: number;
  ms: number;
  /** Requests sent again on a new connection after theirs failed (see RawClient.send). */
  retried: number;
  perOperation: Map<string, { sent: number; statuses: Map<number | 'none', number> }>;
  failures: Failure[];
  /** Well-formed requests the server refused (4xx), by operation and error: how deep the fuzzer got. */
  refusedWellFormed: Map<string, Map<string, number>>;
}

/**
 * Sends `count` generated requests (request i is a pure function of the seed and i, so a failure
 * replays alone), `concurrency` at a time, and checks every answer.
 */
export async function runFuzz(o: FuzzOptions): Promise<FuzzReport> {
  const arbs = new Map<string, fc.Arbitrary<Plan>>(o.ops.map((op) => [op.key, planArbitrary(op, o.ctx)]));
  const client = new RawClient(o.baseUrl, { maxSockets: o.concurrency, timeoutMs: o.timeoutMs ?? 20_000 });
  const report: FuzzReport = {
    seed: o.seed,
    sent: 0,
    ms: 0,
    retried: 0,
    perOperation: new Map(),
    failures: [],
    refusedWellFormed: new Map(),
  };
  for (const op of o.ops) report.perOperation.set(op.key, { sent: 0, statuses: new Map() });
  const indices = o.only ?? Array.from({ length: o.count }, (_, i) => i);
  let next = 0;
  const started = performance.now();
  let lastLog = started;

  const one = async (i: number) => {
    const { op, plan } = planAt(o.ops, arbs, o.seed, i);
    await o.session.ready();
    const req = materialize(op, plan, o.session.tokens());
    const stats = report.perOperation.get(op.key)!;
    stats.sent++;
    report.sent++;
    // Node's own HTTP parser answers an over-long request (431) before any route is found.
    const fail = (status: number | 'none', violation: Failure['violation']) =>
      report.failures.push({
        index: i,
        op: status === 431 ? '(any operation)' : op.key,
        status,
        violation,
        request: describeRequest(req),
        hostile: plan.hostile,
      });
    let res;
    try {
      res = await client.send(req);
    } catch (err) {
      stats.statuses.set('none', (stats.statuses.get('none') ?? 0) + 1);
      if (err instanceof NoAnswer) fail('none', { rule: 'no answer', detail: err.message });
      else fail('none', { rule: 'no answer', detail: `the client could not send it: ${(err as Error).message}` });
      return;
    }
    stats.statuses.set(res.status, (stats.statuses.get(res.status) ?? 0) + 1);
    if (o.trace && op.key.includes(o.trace)) {
      o.log?.(
        `#${i} ${plan.hostile.join(' + ') || 'well-formed'} ${plan.auth}: ${describeRequest(req)}\n  → ${res.status} ${res.body.toString('utf8').slice(0, 200)}`,
      );
    }
    if (!plan.hostile.length && plan.auth.startsWith('signed-in') && res.status >= 400 && res.status < 500) {
      let why = String(res.status);
      try {
        const e = JSON.parse(res.body.toString('utf8')).error;
        why = `${res.status} ${e.code} ${JSON.stringify(e.details).slice(0, 100)}`;
      } catch {
        // not the envelope: the rules below report that
      }
      const m = report.refusedWellFormed.get(op.key) ?? new Map<string, number>();
      m.set(why, (m.get(why) ?? 0) + 1);
      report.refusedWellFormed.set(op.key, m);
    }
    // A path parameter can spell a fixed route (`/v1/events/{slug}` with slug `upcoming`): the
    // answer is then that route's, and is checked against its document.
    const served = routeOf(o.ops, op.method, req.path) ?? op;
    const broken = checkAnswer(o.schemas, served, plan, res);
    if (broken.length) {
      fail(res.status, {
        rule: broken.map((v) => v.rule).join(' + '),
        detail: broken.map((v) => v.detail).join(' | '),
      });
    }
    await o.session.maybeEnded(op, plan, res.status);
  };

  const worker = async () => {
    for (;;) {
      const k = next++;
      if (k >= indices.length) return;
      await one(indices[k]!);
      const now = performance.now();
      if (o.log && now - lastLog > 10_000) {
        lastLog = now;
        o.log(
          `fuzz: ${report.sent}/${indices.length} requests, ${report.failures.length} failures, ${Math.round((now - started) / 1000)} s`,
        );
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: o.concurrency }, worker));
  } finally {
    report.retried = client.retried;
    client.close();
  }
  report.ms = performance.now() - started;
  return report;
}

/**
 * The failures grouped by operation, status and broken rule, with the kinds of hostile input
 * behind them and the first request that showed each, to replay by its number.
 */
export function failureSummary(report: FuzzReport, replay: string): string {
  const groups = new Map<string, { n: number; first: Failure; kinds: Set<string> }>();
  for (const f of report.failures) {
    const key = `${f.op} → ${f.status} ${f.violation.rule}`;
    const g = groups.get(key);
    const kind = f.hostile.length ? f.hostile.join(' + ') : 'well-formed';
    if (g) {
      g.n++;
      if (g.kinds.size < 4) g.kinds.add(kind);
    } else groups.set(key, { n: 1, first: f, kinds: new Set([kind]) });
  }
  const lines = [
    `${report.failures.length} failures in ${report.sent} requests, ${groups.size} classes (operation → status rule ×count [inputs]); replay one: ${replay}`,
  ];
  for (const [key, g] of [...groups].sort((a, b) => a[0].localeCompare(b[0]))) {
    lines.push(`${key} ×${g.n} [${[...g.kinds].join('; ')}]`);
    lines.push(`    #${g.first.index} ${g.first.request}\n    → ${g.first.violation.detail}`);
  }
  return lines.join('\n');
}

/** Requests and answers per operation, one line each. */
export function countsTable(report: FuzzReport): string {
  const lines = [
    `${report.sent} requests in ${(report.ms / 1000).toFixed(1)} s (seed ${report.seed}; ${report.retried} sent again after a connection failed):`,
  ];
  for (const [op, s] of report.perOperation) {
    if (!s.sent) continue;
    const statuses = [...s.statuses]
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])))
      .map(([st, n]) => `${st}:${n}`)
      .join(' ');
    lines.push(`  ${op.padEnd(40)} ${String(s.sent).padStart(6)}  ${statuses}`);
  }
  return lines.join('\n');
}

/** The operation a request path is routed to: fixed segments win over parameters, as in the router. */
export function routeOf(ops: Operation[], method: string, rawPath: string): Operation | undefined {
  const segments = rawPath.split('?')[0]!.split('/');
  let best: { op: Operation; params: number } | undefined;
  for (const op of ops) {
    if (op.method !== method) continue;
    const template = op.path.split('/');
    if (template.length !== segments.length && !op.path.endsWith('{*}')) continue;
    let params = 0;
    let ok = true;
    for (let k = 0; k < template.length; k++) {
      const t = template[k]!;
      if (t === '{*}') {
        params += 100;
        break;
      }
      if (/^\{.+\}$/.test(t)) {
        if (!segments[k]) ok = false;
        params++;
      } else if (t !== segments[k]) ok = false;
      if (!ok) break;
    }
    if (ok && (!best || params < best.params)) best = { op, params };
  }
  return best?.op;
}
