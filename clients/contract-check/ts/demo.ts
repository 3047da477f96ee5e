/**
 * A guest's session written against the TypeScript client OpenAPI Generator makes from the live
 * document (`typescript-fetch`, in `./generated`, never edited): registers, logs in, reads the
 * profile, pages the feed with two filters, reads the calendar and the upcoming list with a
 * category filter, and registers a second account with the captcha the server demands.
 * Arguments: the API's base URL, the captcha solver's URL (the check script's stand-in for a
 * person and a browser, as test/support's solvedCaptcha), an email prefix. Exits 1 with the step
 * that failed.
 */
import {
  AuthApi,
  Configuration,
  ErrorEnvelopeFromJSON,
  EventsApi,
  MeApi,
  ResponseError,
  SearchApi,
  type RegisterRequest,
} from './generated/index';

const [base, solver, prefix] = process.argv.slice(2) as [string, string, string];
const PASSWORD = 'plum harbor lantern 57';
let token: string | undefined;
const config = new Configuration({ basePath: base.replace(/\/$/, ''), accessToken: async () => token ?? '' });
const auth = new AuthApi(config);

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

/** Registers, answering the captcha when the server demands one (403 `captcha_required`); true if it did. */
async function register(email: string): Promise<boolean> {
  const body: RegisterRequest = { firstName: 'Anna', lastName: 'Lee', email, password: PASSWORD, acceptTerms: true };
  try {
    await auth.register({ registerRequest: body });
    return false;
  } catch (err) {
    if (!(err instanceof ResponseError)) throw err;
    const envelope = ErrorEnvelopeFromJSON(await err.response.json());
    if (err.response.status !== 403 || envelope.error.code !== 'captcha_required') throw err;
  }
  const captcha = await auth.createCaptcha({ captchaRequest: { email } });
  const solved = (await (await fetch(`${solver}/${captcha.captchaId}`)).json()) as { answer: string; nonce: string };
  await auth.register({
    registerRequest: {
      ...body,
      captchaId: captcha.captchaId,
      captchaAnswer: solved.answer,
      captchaNonce: solved.nonce,
    },
  });
  return true;
}

async function run(): Promise<void> {
  const email = `${prefix}-a@example.com`;
  await register(email);
  // Without `X-Session: cookie` the answer is the token pair (204 and no body is the web session's).
  const pair = await auth.login({ loginRequest: { email, password: PASSWORD } });
  if (!pair) throw new Error('login answered without a token pair');
  token = pair.accessToken;
  console.log(`ts demo: logged in, session ${pair.sessionId}`);

  const me = await new MeApi(config).getProfile({ lang: 'en' });
  check(me.email?.toLowerCase() === email, `the profile is the account's: ${me.email}`);
  console.log(`ts demo: profile of ${me.email}`);

  const search = new SearchApi(config);
  const feed = { kind: 'stay', guests: 2, limit: 5, lang: 'en' } as const;
  const first = await search.searchListings(feed);
  check(first.items.length === 5 && first.hasMore, 'a full first page with more');
  const second = await search.searchListings({ ...feed, cursor: first.nextCursor ?? undefined });
  check(second.items.length > 0 && second.items[0]!.id !== first.items[0]!.id, 'a second page, another');
  console.log(`ts demo: feed kind=stay guests=2, two pages of ${first.items.length} and ${second.items.length}`);

  const events = new EventsApi(config);
  const categories = await events.listEventCategories({ lang: 'en' });
  check(categories.length > 0, 'event categories');
  const category = [categories[0]!.code];
  const calendar = await events.getEventCalendar({ category, days: 14 });
  check(calendar.days.length === 14, 'a 14-day calendar strip');
  const upcoming = await events.listUpcomingEvents({ category, limit: 5, withTotal: true });
  console.log(
    `ts demo: calendar and upcoming of category ${category[0]}: ${upcoming.items?.length} cards, ${upcoming.total} events`,
  );

  token = undefined;
  check(await register(`${prefix}-b@example.com`), 'the second registration from this address was asked for a captcha');
  console.log('ts demo: registered with a captcha pair');
}

run().then(
  () => console.log('ts demo: ok'),
  async (err: unknown) => {
    const detail =
      err instanceof ResponseError ? `HTTP ${err.response.status} ${await err.response.text()}` : String(err);
    console.error(`ts demo: failed: ${detail}`);
    process.exit(1);
  },
);
