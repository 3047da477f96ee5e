/**
 * A progress line on stderr for long work (import, reindex, demo load). Redrawn in place on a
 * terminal; elsewhere (CI logs) one line per 10 %, so logs stay readable.
 */
export interface Progress {
  tick(done: number, total?: number): void;
  done(summary?: string): void;
}

export function progressBar(label: string, opts: { enabled?: boolean; stream?: NodeJS.WriteStream } = {}): Progress {
  const stream = opts.stream ?? process.stderr;
  const enabled = opts.enabled ?? true;
  const tty = Boolean(stream.isTTY);
  const started = performance.now();
  let lastDraw = 0;
  let lastDecile = -1;
  let total = 0;
  let done = 0;
  const line = () => {
    const pct = total ? Math.min(100, Math.floor((done / total) * 100)) : 0;
    const width = 30;
    const filled = Math.round((pct / 100) * width);
    const rate = done / Math.max(0.001, (performance.now() - started) / 1000);
    return `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${pct}% ${done}/${total} ${Math.round(rate)}/s`;
  };
  return {
    tick(d, t) {
      done = d;
      if (t !== undefined) total = t;
      if (!enabled) return;
      const now = performance.now();
      if (tty) {
        if (now - lastDraw < 100 && done < total) return;
        lastDraw = now;
        stream.write(`\r${line()}`);
      } else {
        const decile = total ? Math.floor((done / total) * 10) : 0;
        if (decile === lastDecile) return;
        lastDecile = decile;
        stream.write(`${line()}\n`);
      }
    },
    done(summary) {
      if (!enabled) return;
      const secs = ((performance.now() - started) / 1000).toFixed(1);
      stream.write(`${tty ? '\r' : ''}${line()} ${secs}s${summary ? ` ${summary}` : ''}\n`);
    },
  };
}
