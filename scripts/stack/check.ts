import { httpJson, type Log, line } from './util.ts';

/**
 * Smoke test of the analysis the project relies on: the ICU plugin (icu_tokenizer segments Thai
 * and Chinese into words) and the built-in analysis-common module (russian stemmer, cjk, thai).
 * Creates and deletes a throw-away index. Throws with the tokens seen when something is off.
 */
export async function checkOpenSearch(url: string, log: Log): Promise<void> {
  const index = `stack-check-${process.pid}-${Date.now()}`;
  const call = async (method: string, p: string, body?: unknown): Promise<unknown> => {
    const res = await httpJson(`${url}${p}`, method, body, 30_000);
    if (res.status >= 300) throw new Error(`${method} ${p}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const tokens = async (analyzer: string, text: string): Promise<string[]> => {
    const r = (await call('POST', `/${index}/_analyze`, { analyzer, text })) as { tokens: { token: string }[] };
    return r.tokens.map((t) => t.token);
  };
  const expect = (what: string, got: string[], wanted: string[]): void => {
    const missing = wanted.filter((w) => !got.includes(w));
    if (missing.length > 0) throw new Error(`${what}: expected ${wanted.join(' ')} among [${got.join(' ')}]`);
    log(line('check', `${what}: ${got.join(' | ')}`));
  };

  await call('PUT', `/${index}`, {
    settings: {
      number_of_shards: 1,
      number_of_replicas: 0,
      analysis: { analyzer: { icu_text: { type: 'custom', tokenizer: 'icu_tokenizer', filter: ['lowercase'] } } },
    },
  });
  try {
    expect('icu_tokenizer (th)', await tokens('icu_text', 'สวัสดีครับ ภูเก็ต'), ['สวัสดี', 'ครับ', 'ภูเก็ต']);
    expect('icu_tokenizer (zh)', await tokens('icu_text', '我们去普吉岛的海滩'), ['我们', '海滩']);
    expect('thai analyzer', await tokens('thai', 'สวัสดีครับ ภูเก็ต'), ['สวัสดี', 'ภูเก็ต']);
    expect('russian analyzer', await tokens('russian', 'Красивые пляжи Пхукета'), ['красив', 'пляж']);
    expect('cjk analyzer', await tokens('cjk', '普吉岛的海滩'), ['普吉', '海滩']);
    expect('english analyzer', await tokens('english', 'running on the beaches'), ['run', 'beach']);
  } finally {
    await call('DELETE', `/${index}`).catch(() => undefined);
  }
}
