import fc from 'fast-check';

/**
 * Hostile material, by kind. Each is a label (it names the failure class in the summary) and
 * the value. Strings are JavaScript strings: lone surrogates and NUL included; the request
 * builder encodes them (a URL gets their WTF-8 bytes percent-encoded, a JSON body their escapes).
 */
export interface Labelled<T> {
  label: string;
  value: T;
}

export const labelled = <T>(label: string, value: T): Labelled<T> => ({ label, value });

/** Strings that break parsers, number coercion, text columns and encodings. */
export const hostileString: fc.Arbitrary<Labelled<string>> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom(
      labelled('nul', '\u0000'),
      labelled('nul', 'ab\u0000cd'),
      labelled('nul', 'Anna\u0000'),
      labelled('lone-surrogate', '\uD800'),
      labelled('lone-surrogate', 'x\uDFFFy'),
      labelled('lone-surrogate', 'ab\uDBFF'),
    ),
  },
  {
    weight: 5,
    arbitrary: fc.constantFrom(
      labelled('hex-number', '0x10'),
      labelled('hex-number', '0X1F'),
      labelled('exponent', '1e3'),
      labelled('huge-number', '1e400'),
      labelled('huge-number', '99999999999999999999999999'),
      labelled('huge-number', '9007199254740993'),
      labelled('negative', '-1'),
      labelled('negative-zero', '-0'),
      labelled('signed', '+5'),
      labelled('padded-number', ' 12 '),
      labelled('fraction', '0.5'),
      labelled('not-a-number', 'NaN'),
      labelled('not-a-number', 'Infinity'),
      labelled('not-a-number', '12abc'),
      labelled('binary-number', '0b11'),
      labelled('octal-number', '0o17'),
      labelled('digits-unicode', '\u0661\u0662'),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(labelled('empty', ''), labelled('blank', '   '), labelled('blank', '\t\n')),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      labelled('noncharacter', '\uFFFF\uFFFE'),
      labelled('bom', '\uFEFFen'),
      labelled('list', '1,2,3'),
      labelled('json-literal', 'null'),
      labelled('json-literal', '{"$gt":""}'),
      labelled('percent', '%'),
      labelled('percent', '%zz'),
      labelled('traversal', '../../etc/passwd'),
      labelled('markup', '<script>alert(1)</script>'),
      labelled('sql', "' or 1=1--"),
      labelled('template', '${jndi:ldap://x}'),
      labelled('bidi', 'abc\u202Edef'),
      labelled('combining', 'e\u0301\u0301\u0301\u0301'),
      labelled('emoji', '\u{1F642}\u{1F3F3}\uFE0F\u200D\u{1F308}'),
      labelled('control', '\u0001\u001b[31m\u007f'),
      labelled('newline', 'a\r\nSet-Cookie: x=1'),
      labelled('date-out-of-range', '99999-12-31'),
      labelled('date-out-of-range', '2026-02-30'),
      labelled('date-out-of-range', '0000-00-00'),
      labelled('date-out-of-range', '10000-01-01'),
      labelled('coordinates', '91,181'),
      labelled('coordinates', 'NaN,NaN'),
      labelled('bbox', '180,90,-180,-90'),
      labelled('bbox', '1e308,1e308,-1e308,-1e308'),
      labelled('uuid-like', '00000000-0000-0000-0000-00000000000g'),
      labelled('proto', '__proto__'),
      labelled('timezone', 'Mars/Olympus'),
      labelled('timezone', '../../../../etc/localtime'),
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 12 })
      .map((s) => labelled('random-utf16', s)),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map((s) => labelled('random-unicode', s)) },
  { weight: 1, arbitrary: fc.integer({ min: 300, max: 5000 }).map((n) => labelled('overlong', 'a'.repeat(n))) },
);

/** Overlong strings for JSON bodies (they do not go in URLs, where Node caps the request line). */
export const overlongBodyString: fc.Arbitrary<Labelled<string>> = fc
  .integer({ min: 5_000, max: 200_000 })
  .map((n) => labelled('overlong', 'x'.repeat(n)));

/**
 * A JSON token written into the body text as is: numbers JavaScript cannot hold, nesting deeper
 * than a recursive serializer survives, and non-JSON.
 */
export const rawJsonToken: fc.Arbitrary<Labelled<string>> = fc.oneof(
  fc.integer({ min: 50, max: 20_000 }).map((n) => labelled('deep-nesting', '['.repeat(n) + ']'.repeat(n))),
  fc.integer({ min: 50, max: 5_000 }).map((n) => labelled('deep-nesting', '{"a":'.repeat(n) + '{}' + '}'.repeat(n))),
  fc.constantFrom(
    labelled('huge-number', '1e400'),
    labelled('huge-number', '-1e400'),
    labelled('huge-number', '123456789012345678901234567890'),
    labelled('huge-number', '9007199254740993'),
    labelled('negative-zero', '-0'),
    labelled('hex-number', '0x10'),
    labelled('not-json', 'NaN'),
    labelled('not-json', 'undefined'),
    labelled('not-json', "'single'"),
    labelled('lone-surrogate', '"\\ud800"'),
    labelled('nul', '"\\u0000"'),
    labelled('bad-escape', '"\\x41"'),
  ),
);

/** JSON values of the wrong type or shape for any field. */
export const hostileJsonValue: fc.Arbitrary<Labelled<unknown>> = fc.oneof(
  { weight: 8, arbitrary: hostileString.map((s) => ({ label: `string:${s.label}`, value: s.value })) },
  { weight: 1, arbitrary: overlongBodyString },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      labelled('wrong-type', null),
      labelled('wrong-type', true),
      labelled('wrong-type', 0),
      labelled('wrong-type', -1),
      labelled('wrong-type', 1.5),
      labelled('huge-number', 1e308),
      labelled('huge-number', -1e308),
      labelled('huge-number', Number.MAX_SAFE_INTEGER + 2),
      labelled('wrong-type', []),
      labelled('wrong-type', {}),
      labelled('wrong-type', [null]),
      labelled('wrong-type', ['a\u0000']),
      labelled('wrong-type', { a: { b: { c: 'd\u0000' } } }),
      labelled('proto', JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}')),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1000, max: 20_000 }).map((n) =>
      labelled(
        'big-array',
        Array.from({ length: n }, (_, i) => i),
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 500, max: 5000 })
      .map((n) => labelled('many-keys', Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])))),
  },
);

/** Whole bodies that are not what any JSON endpoint takes. */
export const garbageBody: fc.Arbitrary<Labelled<Buffer>> = fc.oneof(
  fc.constantFrom(
    labelled('garbage-json', Buffer.from('{')),
    labelled('garbage-json', Buffer.from('{"a":')),
    labelled('garbage-json', Buffer.from('{"a":1,}')),
    labelled('garbage-json', Buffer.from("{'a':1}")),
    labelled('garbage-json', Buffer.from('nul')),
    labelled('garbage-json', Buffer.from('\u0000')),
    labelled('garbage-json', Buffer.from('\uFEFF{}')),
    labelled('garbage-json', Buffer.from('{"a":1}{"b":2}')),
    labelled('garbage-json', Buffer.from('{"a":"\\ud800"}')),
    labelled('garbage-json', Buffer.from('{"a":"\\u0000"}')),
    labelled('garbage-json', Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00])),
    labelled('garbage-json', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])),
    labelled('empty-body', Buffer.alloc(0)),
    labelled('json-not-object', Buffer.from('[]')),
    labelled('json-not-object', Buffer.from('"text"')),
    labelled('json-not-object', Buffer.from('42')),
    labelled('json-not-object', Buffer.from('null')),
    labelled('json-not-object', Buffer.from('true')),
    labelled('huge-number', Buffer.from('1e400')),
    labelled('duplicate-keys', Buffer.from('{"email":"a@b.c","email":{"x":1}}')),
    labelled('proto', Buffer.from('{"__proto__":{"admin":true}}')),
  ),
  fc
    .integer({ min: 1000, max: 200_000 })
    .map((n) => labelled('deep-nesting', Buffer.from('['.repeat(n) + ']'.repeat(n)))),
  fc
    .integer({ min: 1000, max: 200_000 })
    .map((n) => labelled('deep-nesting', Buffer.from('{"a":'.repeat(n) + '1' + '}'.repeat(n)))),
  fc.integer({ min: 1000, max: 50_000 }).map((n) => labelled('unclosed-nesting', Buffer.from('['.repeat(n)))),
  fc.uint8Array({ minLength: 1, maxLength: 200 }).map((b) => labelled('random-bytes', Buffer.from(b))),
  fc.constant(labelled('over-body-limit', Buffer.from(`{"a":"${'x'.repeat(1_100_000)}"}`))),
);

/** Content types a JSON (or multipart) body is sent with instead of the right one. */
export const wrongContentType: fc.Arbitrary<Labelled<string | null>> = fc.constantFrom(
  labelled('no-content-type', null),
  labelled('text/plain', 'text/plain'),
  labelled('xml', 'application/xml'),
  labelled('form-urlencoded', 'application/x-www-form-urlencoded'),
  labelled('json-utf16', 'application/json; charset=utf-16'),
  labelled('json-bad-charset', 'application/json; charset=nope'),
  labelled('json-bad-params', 'application/json;;;=;'),
  labelled('json-suffix', 'application/vnd.api+json'),
  labelled('multipart-no-boundary', 'multipart/form-data'),
  labelled('multipart-empty-boundary', 'multipart/form-data; boundary='),
  labelled('multipart-wrong-boundary', 'multipart/form-data; boundary=zzz'),
  labelled('octet-stream', 'application/octet-stream'),
  labelled('garbage-content-type', '\u00ff\u00fe/\u00ff'),
  labelled('garbage-content-type', '*/*'),
);

/** Authorization headers that are not a valid sign-in. */
export const junkAuthorization: fc.Arbitrary<Labelled<string>> = fc.constantFrom(
  labelled('bearer-empty', 'Bearer '),
  labelled('bearer-junk', 'Bearer x'),
  labelled('bearer-junk', 'Bearer a.b.c'),
  labelled('bearer-junk', `Bearer ${'a'.repeat(6000)}`),
  labelled('bearer-alg-none', `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'x', exp: 9999999999 })}.`),
  labelled('bearer-hs256-wrong-key', `Bearer ${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 'x', sid: 'y' })}.c2ln`),
  labelled('basic', 'Basic Zm9vOmJhcg=='),
  labelled('scheme-only', 'Bearer'),
  labelled('latin1', 'Bearer \u00ff\u00fe'),
);

function b64(v: unknown): string {
  return Buffer.from(JSON.stringify(v)).toString('base64url');
}

/** Headers every endpoint reads (language, idempotency, caching, proxies) with hostile values. */
export const hostileHeaders: fc.Arbitrary<Labelled<Record<string, string>>> = fc.constantFrom(
  labelled('accept-language', { 'accept-language': '*;q=abc,,;;,zz-ZZZZZZZZZ' }),
  labelled('accept-language', { 'accept-language': 'en;q=1e400, ru;q=-1, th;q=NaN' }),
  labelled('accept-language', { 'accept-language': `${'x-'.repeat(3000)}x` }),
  labelled('idempotency-key', { 'idempotency-key': '' }),
  labelled('idempotency-key', { 'idempotency-key': 'k'.repeat(2000) }),
  labelled('idempotency-key', { 'idempotency-key': '\u00ff\u00e9\u00e8' }),
  labelled('if-none-match', { 'if-none-match': '"' + '\u00ff'.repeat(10) }),
  labelled('x-forwarded-for', { 'x-forwarded-for': 'not-an-ip, ::ffff:999.1.1.1, ' + '1.1.1.1, '.repeat(200) }),
  labelled('accept', { accept: 'application/xml;q=1, */*;q=0' }),
  labelled('content-encoding', { 'content-encoding': 'gzip' }),
  labelled('transfer-te', { te: 'trailers, deflate;q=0.5' }),
);

/** Whole query strings that are broken as such. */
export const brokenQuery: fc.Arbitrary<Labelled<string>> = fc.oneof(
  fc.constantFrom(
    labelled('bad-percent', '?%'),
    labelled('bad-percent', '?a=%zz&b=%E0%A4'),
    labelled('bad-percent', '?lang=%ED%A0%80'),
    labelled('nul', '?q=%00&lang=%00'),
    labelled('empty-pairs', '?&&&=&=='),
    labelled('bracket-syntax', '?lang[]=x&limit[a]=b&kind[0]=stay'),
    labelled('proto', '?__proto__=x&constructor[prototype][x]=1'),
    labelled('plus-space', '?q=+++&lang=+'),
  ),
  fc.integer({ min: 200, max: 1200 }).map((n) => labelled('many-params', `?${'a=1&'.repeat(n)}`)),
);

/** Raw path segments put in place of a path parameter (already in URL form). */
export const hostilePathSegment: fc.Arbitrary<Labelled<string>> = fc.constantFrom(
  labelled('empty-segment', ''),
  labelled('nul', '%00'),
  labelled('nul', 'abc%00def'),
  labelled('lone-surrogate', '%ED%A0%80'),
  labelled('overlong-utf8', '%C0%AF'),
  labelled('bad-percent', '%'),
  labelled('bad-percent', '%zz'),
  labelled('traversal', '..'),
  labelled('traversal', '%2e%2e%2f%2e%2e%2f'),
  labelled('encoded-slash', 'a%2Fb'),
  labelled('dot', '.'),
  labelled('uuid-uppercase', '00000000-0000-4000-8000-00000000000A'),
  labelled('uuid-braced', '{00000000-0000-4000-8000-000000000000}'),
  labelled('overlong', 'a'.repeat(3000)),
  labelled('huge-number', '99999999999999999999999'),
);
