import { useEffect, useState } from 'preact/hooks';
import { api, errorCode, type Schemas } from '../api.ts';
import { currentLang, useT } from '../i18n.ts';
import { setQuery, type RouteProps } from '../router.ts';
import { ErrorNote, Loading } from '../ui/notice.tsx';

type Tx = Schemas['TransactionResponse'];
type Summary = Schemas['TransactionsSummary'];
const TYPES = ['all', 'payments', 'refunds'] as const;

/** An exact amount (transactions are records, not estimates): all the currency's minor digits. */
export function exactMoney(minor: number, currency: string): string {
  const f = new Intl.NumberFormat(currentLang(), { style: 'currency', currency });
  const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
  return f.format(minor / 10 ** digits);
}

/** The operation's own time in its place's zone (spec: never converted). */
const localTime = (tx: Tx) =>
  new Intl.DateTimeFormat(currentLang(), { dateStyle: 'medium', timeStyle: 'short', timeZone: tx.timezone }).format(
    new Date(tx.occurred_at),
  );

/**
 * Payments and refunds (`GET /v1/me/transactions`), newest first, with the month's `summary`;
 * the type filter lives in the URL (`?type=`), more pages on the cursor.
 */
export function TransactionsScreen({ query }: RouteProps) {
  const t = useT();
  const type = (TYPES as readonly string[]).includes(query.get('type') ?? '')
    ? (query.get('type') as (typeof TYPES)[number])
    : 'all';
  const [items, setItems] = useState<Tx[] | null>(null);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function load(from: string | null) {
    const { data, error: failed } = await api.GET('/v1/me/transactions', {
      params: { query: { type, limit: 20, ...(from ? { cursor: from } : {}) } },
    });
    if (!data) {
      setError(errorCode(failed));
      return;
    }
    setError(null);
    setSummary(data.summary);
    setItems((prev) => (from ? [...(prev ?? []), ...data.items] : data.items));
    setCursor(data.has_more ? data.next_cursor : null);
  }
  useEffect(() => {
    setItems(null);
    void load(null);
  }, [type]);

  const totals = (list: Schemas['MoneyTotal'][]) =>
    list.length ? list.map((m) => exactMoney(m.amount_minor, m.currency)).join(', ') : t('account.tx.zero');

  return (
    <section class="panel account">
      <h1>{t('account.tx.title')}</h1>
      {summary && (
        <dl class="tx-summary" aria-label={t('account.tx.summary', { month: summary.month })}>
          <div>
            <dt>{t('account.tx.paid_month', { month: summary.month })}</dt>
            <dd>{totals(summary.paid)}</dd>
          </div>
          <div>
            <dt>{t('account.tx.refunded_month', { month: summary.month })}</dt>
            <dd>{totals(summary.refunded)}</dd>
          </div>
        </dl>
      )}
      <label for="tx-type">{t('account.tx.type')}</label>
      <select
        id="tx-type"
        value={type}
        onChange={(e) => setQuery({ type: e.currentTarget.value === 'all' ? null : e.currentTarget.value })}
      >
        {TYPES.map((v) => (
          <option key={v} value={v}>
            {t(`account.tx.type_${v}`)}
          </option>
        ))}
      </select>
      <ErrorNote code={error} />
      {!items && !error && <Loading />}
      {items && items.length === 0 && <p class="empty">{t('account.tx.none')}</p>}
      {items && items.length > 0 && (
        <table class="tx">
          <thead>
            <tr>
              <th scope="col">{t('account.tx.when')}</th>
              <th scope="col">{t('account.tx.what')}</th>
              <th scope="col">{t('account.tx.amount')}</th>
              <th scope="col">{t('account.tx.state')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((tx) => (
              <tr key={tx.id} data-id={tx.id}>
                <td data-label={t('account.tx.when')}>
                  {localTime(tx)} <small class="hint">{tx.timezone}</small>
                </td>
                <td data-label={t('account.tx.what')}>
                  {t(`account.tx.kind_${tx.kind}`)}: {tx.target.title ?? tx.target.id}
                  <br />
                  <small class="hint">
                    {t('account.tx.method', { method: tx.method })}
                    {tx.bank_operation_id ? ` · ${t('account.tx.bank_op', { id: tx.bank_operation_id })}` : ''}
                  </small>
                </td>
                <td data-label={t('account.tx.amount')}>
                  {exactMoney(tx.amount_minor, tx.currency)}
                  {tx.order_currency !== tx.currency && (
                    <>
                      <br />
                      <small class="hint">
                        {t('account.tx.order', {
                          amount: exactMoney(tx.order_amount_minor, tx.order_currency),
                          rate: tx.exchange_rate,
                        })}
                      </small>
                    </>
                  )}
                </td>
                <td data-label={t('account.tx.state')}>{t(`account.tx.state_${tx.state}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cursor && (
        <button type="button" onClick={() => void load(cursor)}>
          {t('common.show_more')}
        </button>
      )}
    </section>
  );
}
