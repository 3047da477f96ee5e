import { envSchema } from '@guest/config';

/**
 * Prints the configuration table of the README from the one config schema, so the README
 * cannot drift from what the service really accepts: `npx tsx scripts/config-doc.ts`.
 */
const rows: string[] = ['| variable | default | rule |', '| --- | --- | --- |'];
for (const [name, field] of Object.entries(envSchema.shape)) {
  const json = (field as any).toJSONSchema?.({ io: 'input', unrepresentable: 'any' }) ?? {};
  let def = '';
  try {
    const parsed = (field as any).safeParse(undefined);
    def = parsed.success && parsed.data !== undefined ? String(parsed.data) : '';
  } catch {
    def = '';
  }
  if (/SECRET/.test(name)) def = '(development value; required in production)';
  const rule: string[] = [];
  if (json.enum) rule.push(json.enum.join(' / '));
  if (json.minimum !== undefined || json.maximum !== undefined)
    rule.push(`${json.minimum ?? ''}…${json.maximum ?? ''}`);
  if (json.minLength) rule.push(`≥ ${json.minLength} chars`);
  if (json.pattern) rule.push(`\`${json.pattern}\``);
  rows.push(`| \`${name}\` | ${def ? `\`${def}\`` : '—'} | ${rule.join(', ')} |`);
}
console.log(rows.join('\n'));
