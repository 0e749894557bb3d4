/**
 * endpoint-options — turn a REST route and parameters into plain request options.
 *
 * One file, no dependencies, read top to bottom: each part uses only the parts above it.
 *
 *   1. The contract: the types a caller reads — options, results, `Endpoint`, `FetchInit`.
 *   2. Shared helpers: errors, plain objects, a bounded cache, the named options, what kind of body a value is.
 *   3. RFC 6570 templates: `compile()` reads a template once, `expand()` fills it, `encode()` escapes.
 *   4. Options, checks and merging: `mergeOptions()` is what `merge()` returns, `toState()` what `defaults()` keeps.
 *   5. Building a request: `build()`, the one path from options to request options.
 *   6. `endpoint`, `parseTemplate()` and `toFetch()`.
 *   7. Types for literal routes: compile time only, no runtime bytes.
 *   8. OpenAPI, whole between `#region openapi` markers (the CDN bundle leaves it out), in rooms: 8.1 the entry
 *      points, 8.2 the plan's records, 8.3 reading a description, 8.4 Swagger 2.0 (one adapter), 8.5 the plan of an
 *      operation, 8.6 servers, 8.7 credentials, 8.8 values, 8.9 bodies (and a querystring), 8.10 the call,
 *      8.11 `reduceOpenAPI()`, 8.12 its types. The core above knows nothing of it but that an `"auth:"` key is its
 *      own; it uses the core's helpers (`compile()`, `expand()`, `encode()`, `addHeaders()`, `mergeMediaType()`).
 *
 * The two call paths:
 *   - `endpoint(route, options)`: parseRoute() (cached) → build(): callParameters(), targetUrl() → expand(),
 *     remainingBody(), requestHeaders().
 *   - a `withOpenAPI()` call: `Api.prepared()` (once per `defaults()` and operation: planOf() → readPlan(), the
 *     server's base, the headers with the defaults' credentials) → callOperation(): readCall(), chooseCredentials()
 *     where the call brings its own, bodyType(), bodyValue(), headersFor(), placeParameters() → expand(), the
 *     server's base. `parse()` takes the same way, with no defaults.
 *
 * Where a change goes:
 *
 *   | a change to …                                            | part | start at                          |
 *   |----------------------------------------------------------|------|-----------------------------------|
 *   | what a caller may pass or gets back                      | 1, 7 | `EndpointOptions`, `Endpoint`     |
 *   | how a value is percent-encoded                           | 3    | `encode()`, `KEPT`                |
 *   | template syntax, dot-segment checks                      | 3    | `compile()`, `expand()`           |
 *   | defaults, headers, media types (`mediaType`)             | 4    | `mergeOptions()`, `toState()`     |
 *   | where a parameter goes: path, query or body              | 5    | `build()`                         |
 *   | how a result is sent with fetch                          | 6    | `toFetch()`                       |
 *   | the types of a literal route's call                      | 7    | `RouteOptions`                    |
 *   | how a description is read: own properties, `$ref`s       | 8.3  | `readDescription()`, `resolve()`  |
 *   | what Swagger 2.0 says, as 3.0 nodes                      | 8.4  | `swaggerOperation()`              |
 *   | which operation a route or operationId names             | 8.5  | `planOf()`, `operationNode()`     |
 *   | what is read of an operation, and how strictly           | 8.5  | `readPlan()`                      |
 *   | where a server's variables may go, the base URL          | 8.6  | `serverOf()`, `serverBase()`      |
 *   | a relative server, against where the description was     | 8.6  | `resolved()`, `serverBase()`      |
 *   | which credentials a call sends, and where                | 8.7  | `chooseCredentials()`             |
 *   | how a parameter or form field's value is written         | 8.8  | `writePairs()`, `parameterValue()`|
 *   | which media type a body goes as, and how                 | 8.9  | `bodyType()`, `bodyValue()`       |
 *   | how an OpenAPI call is built                             | 8.10 | `callOperation()`                 |
 *   | what `reduceOpenAPI()` writes                            | 8.11 | `reduceDescription()`             |
 *   | the types of a description's call                        | 8.12 | `OperationOptions`                |
 *
 * Conventions:
 *   - Every error a caller can cause is a `TypeError` from `fail()` naming what is at fault.
 *   - Every regular expression here is linear: character classes, anchored or bounded, no nested ambiguity.
 *   - `endpoint()` may run millions of times: what depends only on a template, a route, an operation or a
 *     `defaults()` call is worked out once and cached (every cache is bounded).
 *   - build.mjs shortens the names of internal record fields (a list there). No caller's key and no key of an
 *     OpenAPI description is on that list, so no key here is quoted for the minifier; keys are quoted only where
 *     they are not identifiers (`"content-type"`).
 *
 * @module
 */
// ---------------------------------------------------------------------------------------------------------------------
// 1. The contract: what a caller passes and gets back
// ---------------------------------------------------------------------------------------------------------------------

/** Header values: strings or numbers. Names are case-insensitive and come out lowercased. */
export type RequestHeaders = Record<string, string | number>;

/** Custom meta information, passed through to the result untouched (e.g. an agent, a signal). */
export type RequestMeta = Record<string, unknown>;

/** Options for `endpoint()`, `merge()` and `defaults()`. Any other key is a request parameter. */
export interface EndpointOptions {
  /**
   * An HTTP method, e.g. `"GET"` or `"POST"`.
   * @default "GET"
   */
  method?: string;
  /** A path (resolved against `baseUrl`) or a full URL; an RFC 6570 template, `:name` reads as `{name}`. */
  url?: string;
  /**
   * The address a path-only `url` is resolved against.
   * @default "https://api.github.com"
   */
  baseUrl?: string;
  /**
   * Custom headers, merged over the defaults; names are case-insensitive. `accept` and `user-agent` are strings.
   * @default { accept: "application/vnd.github.v3+json", "user-agent": "endpoint-options/<version>" }
   */
  headers?: Record<string, string | number | undefined> & {
    accept?: string | undefined;
    "user-agent"?: string | undefined;
  };
  /** Amends the `accept` header. */
  mediaType?: {
    /** A media type format such as `raw`, `diff` or `text+json`. */
    format?: string;
    /** API preview names (a `-preview` suffix is optional); merged with those of earlier defaults. */
    previews?: readonly string[];
  };
  /** The request body as it is, instead of a JSON body built from the other parameters. */
  data?: unknown;
  /** Custom meta information, returned unchanged as `request`. */
  request?: RequestMeta;
  /**
   * Any other key is a parameter: it fills a URL placeholder, else goes to the query (GET, HEAD) or JSON body.
   * Typed `any` rather than `unknown` so that options typed by an interface (which has no index signature)
   * are accepted; the named options above keep their types.
   */
  // biome-ignore lint/suspicious/noExplicitAny: see above; `unknown` would refuse interface-typed options.
  [parameter: string]: any;
}

/** Defaulted options before parsing: what `merge()` returns and `DEFAULTS` holds. */
export interface MergedOptions extends EndpointOptions {
  /** A parameter, read back: its type is not known. */
  [parameter: string]: unknown;
  /** The method as the route, the options or the defaults gave it (not lowercased). */
  method: string;
  /** The base URL a path-only `url` will be resolved against. */
  baseUrl: string;
  /** Every header, names lowercased, the defaults' (`accept`, `user-agent`) included. */
  headers: RequestHeaders;
  /** The media type amendments so far: `format` is `""` when none is set. */
  mediaType: {
    /** A media type format such as `raw` or `diff`, or `""`. */
    format: string;
    /** API preview names, without a `-preview` suffix. */
    previews?: string[];
  };
}

/** Plain request options for any HTTP client. */
export interface RequestOptions {
  /** The HTTP method, lowercase. */
  method: string;
  /** The full URL, placeholders filled; for GET and HEAD it carries the query string. */
  url: string;
  /** Every header, names lowercased. */
  headers: RequestHeaders;
  /** Only for PATCH, POST, PUT and DELETE, and only when there is a body. */
  body?: unknown;
  /** The `request` option as passed. */
  request?: RequestMeta;
}

/** The headers of an `endpoint()` result: `accept` and `user-agent` are always there, as strings. */
export type EndpointHeaders = RequestHeaders & { accept: string; "user-agent": string };

/** `endpoint()` and the functions that hang on it; `Defaults` are the options of its `defaults()` calls. */
export interface Endpoint<Defaults extends object = {}> {
  /**
   * Build request options from a route such as `"GET /repos/{owner}/{repo}"` and its parameters. For a
   * literal route, the types know its placeholders: a missing `{owner}` is a compile error.
   * @throws {TypeError} naming the option, header, parameter or template position at fault.
   */
  <Route extends string>(
    route: Route,
    ...options: RouteArguments<Route, Defaults>
  ): RequestOptions & { method: RouteMethod<Route, Defaults>; headers: EndpointHeaders };
  /** Build request options from options alone; `url` is required, `method` defaults to GET. */
  (options: EndpointOptions): RequestOptions & { headers: EndpointHeaders };
  /**
   * A new endpoint function with these options as defaults, layered over the current ones.
   * @example
   * const enterprise = endpoint.defaults({ baseUrl: "https://github.example.com/api/v3", headers: { authorization: "token t" } });
   * enterprise("GET /user").url // "https://github.example.com/api/v3/user"
   */
  defaults<const Options extends EndpointOptions>(options: Options): Endpoint<Omit<Defaults, keyof Options> & Options>;
  /** The current default options (a fresh copy on every read: changing it changes nothing). */
  readonly DEFAULTS: MergedOptions;
  /**
   * The defaults with the given route and options applied, not yet parsed into request options.
   * @example endpoint.merge("GET /orgs/{org}/repos", { org: "octokit" }).url // "/orgs/{org}/repos"
   */
  merge(route: string, options?: EndpointOptions): MergedOptions;
  /** The defaults with the given options applied (`url` is their template), not yet parsed. */
  merge(options: EndpointOptions): MergedOptions;
  /** Turn merged options (see `merge()`) into request options. Stateless. */
  parse(options: MergedOptions): RequestOptions;
}

/** An RFC 6570 template, compiled once. */
export interface UriTemplate {
  /**
   * Expand the template. Values may be strings, numbers, booleans, lists or plain objects;
   * `undefined` and `null` are absent; inherited properties are ignored.
   * @throws {TypeError} when a list or object meets a prefix modifier, or a string holds a lone surrogate.
   */
  expand(variables: Record<string, unknown>): string;
}

/**
 * The second parameter of the environment's `fetch` (DOM, Deno, Bun, `@types/node`), read off `globalThis`
 * so that nothing global is declared here; `{}` where there is no `fetch`.
 */
type GlobalRequestInit = typeof globalThis extends { fetch(input: never, init?: infer Init): unknown }
  ? NonNullable<Init>
  : {};

/** The `init` half of `toFetch()`: the environment's `RequestInit`, with `method` and `headers` as plain strings. */
export type FetchInit = Omit<GlobalRequestInit, "method" | "headers"> & {
  method: string;
  headers: Record<string, string>;
};

// ---------------------------------------------------------------------------------------------------------------------
// 2. Shared helpers
// ---------------------------------------------------------------------------------------------------------------------

/** Every error a caller can cause is a TypeError that names what is at fault. */
function fail(message: string): never {
  throw new TypeError("endpoint-options: " + message);
}

/** A caller's string quoted for a message: at most 80 of its characters, however long it is. */
const quote = (text: string) => JSON.stringify(text.length > 80 ? text.slice(0, 80) + "…" : text);

/** `what` must be `expected`, and what it was instead: its type, and arrays and null by name. */
function mustBe(what: string, expected: string, value: unknown): never {
  let kind: string = typeof value;
  if (value === null) kind = "null";
  else if (Array.isArray(value)) kind = "array";
  return fail(`${what} must be ${expected}, not ${kind}`);
}

// biome-ignore lint/suspicious/noPrototypeBuiltins: Object.hasOwn is ES2022; the builds target ES2021.
const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!value || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Assign without invoking the `__proto__` setter, so a `__proto__` key from JSON.parse stays data. */
function put(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  } else object[key] = value;
}

/** Objects and lists nested deeper than this are taken for a cycle. */
const MAX_DEPTH = 100;

/**
 * A bounded cache of what a string compiles to, so distinct URLs with ids baked in cannot grow it. When
 * full, a random entry makes room: a program cycling through more routes than it holds still finds most of
 * them, where evicting the oldest would miss every time. Keys over 2 KB are worked out on every use, so a
 * few huge inputs cannot pin memory.
 */
function cached<T>(make: (key: string) => T, limit = 8192): (key: string) => T {
  const cache = new Map<string, T>();
  const keys: string[] = [];
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = make(key);
      if (key.length > 2048) return value;
      if (keys.length < limit) keys.push(key);
      else {
        const slot = (Math.random() * limit) | 0;
        cache.delete(keys[slot]!);
        keys[slot] = key;
      }
      cache.set(key, value);
    }
    return value;
  };
}

/**
 * The named options: never template variables or request parameters. Written once; the `NamedOption` type
 * and the set are derived from it. In `EndpointOptions`' order: editors list an operation's named options in
 * the order the compiler first met these names.
 */
export const NAMED_OPTIONS = ["method", "baseUrl", "url", "headers", "mediaType", "request"] as const;
const NAMED = /* @__PURE__ */ new Set<string>(NAMED_OPTIONS);

// What kind of body a value is. By tag, not instanceof: bodies from another realm or a polyfill count too.

/** What a JSON body is labelled when the caller did not say. */
const JSON_TYPE = "application/json; charset=utf-8";

/** `application/json` and any `+json` type, such as `application/vnd.github.v3+json`. */
const isJson = (contentType: string) => /^application\/json$|\+json$/i.test(contentType.split(";")[0]!.trim());

const tagOf = (value: unknown) => Object.prototype.toString.call(value);

/** A body `fetch` sends as a form as it is: never a field of one. */
const isForm = (value: unknown) => /^\[object (FormData|URLSearchParams)\]$/.test(tagOf(value));

/** A file in a form. */
const isBlob = (value: unknown) => /^\[object (Blob|File)\]$/.test(tagOf(value));

/** A web `ReadableStream`, a Node stream or an async iterable: a body fetch must send as a stream. */
function isStream(body: unknown): boolean {
  if (!body || typeof body !== "object") return false;
  const stream = body as { getReader?: unknown; pipe?: unknown; [Symbol.asyncIterator]?: unknown };
  return (
    typeof stream.getReader === "function" ||
    typeof stream.pipe === "function" ||
    typeof stream[Symbol.asyncIterator] === "function"
  );
}

/** Bodies sent as they are and labelled by their kind, not JSON: bytes, `Blob`, `FormData`, `URLSearchParams`, streams. */
function isRawBody(body: unknown): boolean {
  return (
    isStream(body) ||
    ArrayBuffer.isView(body) ||
    /^\[object (ArrayBuffer|Blob|File|FormData|URLSearchParams)\]/.test(tagOf(body))
  );
}

// ---------------------------------------------------------------------------------------------------------------------
// 3. RFC 6570 templates (level 4): `compile()` reads one once, `expand()` fills it
// ---------------------------------------------------------------------------------------------------------------------

/** What an encoding keeps as is, one bit each: RFC 6570's two, and `encodeURIComponent`'s for queries. */
const UNRESERVED = 1;
const RESERVED = 2;
const QUERY = 4;
/** `q`, GitHub's search syntax: a component that keeps `+` between its terms. */
const SEARCH = 8;

/** The encodings that keep an ASCII character (a sum of the bits above). */
function keptBy(char: string): number {
  // ALPHA, DIGIT and `-._~`: every encoding.
  if (/[\w.~-]/.test(char)) return UNRESERVED | RESERVED | QUERY | SEARCH;
  // `encodeURIComponent` keeps `!'()*`; RFC 6570's unreserved set does not.
  if (/[!'()*]/.test(char)) return RESERVED | QUERY | SEARCH;
  if (char === "+") return RESERVED | SEARCH;
  if (/[:/?#[\]@$&,;=]/.test(char)) return RESERVED;
  return 0;
}

/** Per ASCII character, the encodings that keep it: one table lookup per character when encoding. */
const KEPT = new Uint8Array(128).map((_, c) => keptBy(String.fromCharCode(c)));

/** `%XX` for every ASCII character, made once: encoding a character then allocates nothing. */
const ESCAPED = Array.from(KEPT, (_, c) => "%" + (256 + c).toString(16).slice(1).toUpperCase());

/** A `%XX` triplet at `lastIndex`. */
const TRIPLET = /%[\dA-Fa-f]{2}/y;

/**
 * Percent-encode `text` as UTF-8, keeping the characters `keep` names, and with RESERVED existing `%XX`
 * triplets too. Most ids and names need no escape, and come back as they are after a table lookup per
 * character. From the first escape on, `encodeURIComponent` does the whole text where it keeps what `keep`
 * keeps: always for QUERY, and for UNRESERVED when the text has none of `!'()*` (which it keeps and
 * UNRESERVED does not). That is the commonest text to escape (spaces, non-ASCII) and the quickest way
 * through a megabyte of it. Otherwise one pass: runs of kept characters are sliced, ASCII escapes come
 * ready-made, and runs of non-ASCII go to `encodeURIComponent`, which also finds lone surrogates.
 */
function encode(text: string, keep: number, name: string, what = "parameter"): string {
  let done = "";
  let out = "";
  let start = 0;
  let i = 0;
  // KEPT has nothing beyond ASCII.
  while (i < text.length && KEPT[text.charCodeAt(i)]! & keep) i++;
  if (i === text.length) return text;
  try {
    if (keep === QUERY || (keep === UNRESERVED && !/[!'()*]/.test(text))) return encodeURIComponent(text);
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (KEPT[c]! & keep) continue;
      // RESERVED expansion keeps `%XX` triplets as they are.
      if (keep === RESERVED) {
        TRIPLET.lastIndex = i;
        if (TRIPLET.test(text)) continue;
      }
      let end = i + 1;
      while (c > 127 && text.charCodeAt(end) > 127) end++;
      out += text.slice(start, i) + (ESCAPED[c] ?? encodeURIComponent(text.slice(i, end)));
      start = end;
      i = end - 1;
      // A hostile megabyte of escapes stays linear: every kilobyte, the string built so far is flattened (by
      // reading it) and set aside, so its many small pieces die young instead of being copied by the GC.
      if (out.length > 1024) {
        out.charCodeAt(0);
        done += out;
        out = "";
      }
    }
  } catch {
    fail(`${what} ${quote(name)} has a lone surrogate`);
  }
  // Text with nothing to escape comes back as it is: neither `"" +` nor a whole-string slice copies it.
  return done + out + text.slice(start);
}

interface Variable {
  /** RFC 6570's varname; in an operation's path template, the parameter's name as the path writes it. */
  varname: string;
  /** At most this many characters of the value for `{var:N}`; 0 for all. */
  prefix: number;
  exploded: boolean;
  /** URL mode: a named option (`url`, `headers`...) is never a variable. */
  skip: boolean;
}

/** How an expression's operator writes its values (RFC 6570, appendix A). */
interface OperatorSyntax {
  /** What opens a non-empty expansion, e.g. `?` for `{?a,b}`. */
  first: string;
  /** What joins values, e.g. `&` for `{?a,b}`. */
  separator: string;
  /** Form-style `name=value` pairs (`;`, `?`, `&`). */
  named: boolean;
  /** What follows the name of an empty value: `=` for `?` and `&`. */
  ifEmpty: string;
  /** What expansion keeps: RESERVED for `+` and `#`, else UNRESERVED. */
  keep: number;
}

interface Expression extends OperatorSyntax {
  varspecs: Variable[];
  /** In the URL path, where a value may not form a `.` or `..` segment (URL mode only). */
  inPath: boolean;
}

interface Template {
  /** Literal text (already encoded) and expressions, in order. */
  parts: (string | Expression)[];
  /**
   * The keys of a call's options the template uses up: its variables' names and the named options. Every
   * other key is a query or body parameter.
   */
  taken: Set<string>;
  /** URL mode: whether the expansion is relative to `baseUrl`, when the literal start of the template tells. */
  relative: boolean | undefined;
  /** Whether every expansion starts with `/`: the template does. */
  rooted: boolean;
  /** Whether an expansion can hold a `?` (`false` is certain, `true` means look). */
  mayHoldQuery: boolean;
}

/**
 * varname = varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded; then `*` or `:1`–`:9999`.
 * Also `-`, which URL mode allows in names (GitHub's `{enterprise-team}`) and RFC 6570 does not.
 */
const VARSPEC = /^((?:[\w-]|%[\da-f]{2})+(?:\.(?:[\w-]|%[\da-f]{2})+)*)(?:(\*)|:([1-9]\d{0,3}))?$/i;

/**
 * The variables of one expression, `specs` its comma-separated list starting at position `at` of the
 * template (`label` names it in errors).
 */
function readVariables(specs: string[], at: number, url: boolean, label: string, taken: Set<string>): Variable[] {
  return specs.map((spec) => {
    const match = VARSPEC.exec(spec);
    if (!match || (!url && match[1]!.includes("-"))) fail(`${label}: bad variable ${quote(spec)} at ${at}`);
    at += spec.length + 1;
    const name = match[1]!;
    taken.add(name);
    return { varname: name, exploded: !!match[2], prefix: +match[3]! || 0, skip: url && NAMED.has(name) };
  });
}

const ABSOLUTE = /^https?:\/\//i;

/** An expression, a brace on its own (an error), the start of a query or fragment, or `:name`. */
const TOKENS = /\{([+#./;?&]?)([^{}]*)\}|[{}?#]|:([a-z]\w*)/g;

/** Real templates hold a handful of variables; see compile(). */
const MAX_VARIABLES = 1000;

/**
 * Compile a template in one left-to-right pass. In URL mode (`endpoint()`), names may contain `-`, and in
 * the path `:name` reads as `{name}` and expressions know they are there.
 */
function compile(source: string, url: boolean): Template {
  const parts: (string | Expression)[] = [];
  const taken = new Set<string>(NAMED_OPTIONS);
  const label = `template ${quote(source)}`;
  // URL mode: after a scheme, the authority (host, port, IPv6 brackets) runs to the next "/", "?" or "#";
  // the path starts there and ends at the first "?" or "#" (literal or an operator).
  const pathStart = url ? (/^[a-z][\w+.-]*:\/\/[^/?#]*/i.exec(source)?.[0].length ?? 0) : 0;
  let inPath = url;
  let literalStart = 0;
  let count = 0;
  const literal = (end: number) => {
    if (end > literalStart) parts.push(encode(source.slice(literalStart, end), RESERVED, source, "template"));
  };
  for (const match of source.matchAll(TOKENS)) {
    const [token, operator = "", specs, colonName] = match;
    const at = match.index;
    if (token === "{" || token === "}") fail(`${label}: ${token === "{" ? "unclosed" : "stray"} "${token}" at ${at}`);
    if (/^[?#]|^.[?&#]/.test(token)) inPath = false;
    const here = inPath && at >= pathStart;
    if (token.length === 1 || (colonName && !here)) continue;
    // A megabyte of variables, in many expressions or in one, would keep a first call busy for most of a
    // second (an object for each, in a loop the engine has not optimised yet), so more than 1000 are refused.
    const list = (colonName ?? specs!).split(",");
    count += list.length;
    if (count > MAX_VARIABLES) fail(`${label}: over ${MAX_VARIABLES} variables at ${at}`);
    literal(at);
    literalStart = at + token.length;
    const variables = readVariables(list, at + 1 + operator.length, url, label, taken);
    const named = operator === ";" || operator === "?" || operator === "&";
    let separator = named ? "&" : ",";
    if (operator === ";" || operator === "." || operator === "/") separator = operator;
    parts.push({
      first: operator === "+" ? "" : operator,
      separator,
      named,
      ifEmpty: operator === "?" || operator === "&" ? "=" : "",
      keep: operator === "+" || operator === "#" ? RESERVED : UNRESERVED,
      varspecs: variables,
      inPath: here,
    });
  }
  literal(source.length);
  // What the template tells is not asked of each URL: reading a freshly built string flattens it, which
  // costs more than the rest of a short request. A leading "/" or 8 literal characters tell whether the
  // URL is relative; only a literal "?", "{?", "{+" or "{#" can put a "?" (or "#") in it.
  const head = parts[0];
  const relative = typeof head === "string" && (head[0] === "/" || head.length >= 8) ? !ABSOLUTE.test(head) : undefined;
  return { parts, taken, relative, rooted: source[0] === "/", mayHoldQuery: /[?+#]/.test(source) };
}

const strictTemplate = /* @__PURE__ */ cached((source) => compile(source, false));
const urlTemplate = /* @__PURE__ */ cached((source) => compile(source, true));

/**
 * A value as one string: strings, numbers, booleans, bigints, objects with a text form (a Date, a URL), and
 * lists of them comma-joined. Refused, naming the parameter: a symbol, a function, a null-prototype object
 * or one whose text form is `[object …]` or throws.
 */
function asText(value: unknown, name: string, depth = 0): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    if (depth > MAX_DEPTH) fail(`parameter ${quote(name)} is nested too deeply`);
    return value.map((item) => (item == null ? "" : asText(item, name, depth + 1))).join(",");
  }
  let text: unknown;
  try {
    if (typeof value !== "symbol" && typeof value !== "function") text = String(value);
  } catch {}
  if (typeof text !== "string" || text.startsWith("[object ")) fail(`parameter ${quote(name)} has no text form`);
  return text;
}

/** One variable's expansion, or `undefined` where RFC 6570 treats the value as absent (an empty list). */
function expandValue(
  { named, ifEmpty, separator, keep }: Expression,
  { varname: name, prefix, exploded: explode }: Variable,
  value: unknown,
): string | undefined {
  if (typeof value !== "string" && (Array.isArray(value) || isPlainObject(value))) {
    if (prefix) fail(`parameter ${quote(name)} is a list or object: no prefix ":${prefix}"`);
    const pairs = !Array.isArray(value);
    const items: string[] = [];
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (item == null) continue;
      const text = encode(asText(item, name), keep, name);
      if (!pairs) items.push(explode && named ? name + (text ? "=" + text : ifEmpty) : text);
      else if (explode) items.push(encode(key, keep, name) + (text || !named ? "=" + text : ifEmpty));
      else items.push(encode(key, keep, name), text);
    }
    if (!items.length) return undefined;
    return explode ? items.join(separator) : (named ? name + "=" : "") + items.join(",");
  }
  let text = asText(value, name);
  // `{var:N}` keeps N characters: code points, so a surrogate pair is never split.
  if (prefix) text = Array.from(text).slice(0, prefix).join("");
  text = encode(text, keep, name);
  if (!named) return text;
  return text ? name + "=" + text : name + ifEmpty;
}

/**
 * A piece of a value between slashes made of dots alone (`.`, `..`, `%2e`…), up to a slash, `?`, `#` or the
 * end: the only way a value can help form a `.` or `..` path segment. `next.js`, `docs/README.md` and
 * `v1.2.3` have none, so the URL is not read back for them. Linear: a match starts only at the start or
 * after a slash, and the two spellings of a dot never match the same text.
 */
const DOT_PIECE = /(?<![^/])(\.|%2e)+(?![^/?#])/i;

/** Where a path value that may help make a dot segment landed in the URL: [start, end, name]. */
type Dotted = [start: number, end: number, name: string];

/**
 * A value must not make a whole path segment `.` or `..`, in any spelling the WHATWG URL parser resolves
 * (`%2e` too): it would silently move the request to another resource. Dot segments written in the
 * template are the caller's and stay. One pass over the path's dot segments and the dotted values, both in
 * order.
 */
function rejectDotSegments(url: string, dotted: Dotted[]): void {
  let next = 0;
  for (const { 0: segment, index } of url.split(/[?#]/, 1)[0]!.matchAll(/(?<![^/])(\.|%2e){1,2}(?![^/?#])/gi)) {
    while (next < dotted.length && dotted[next]![1] <= index) next++;
    if (next < dotted.length && dotted[next]![0] < index + segment.length) {
      fail(`parameter ${quote(dotted[next]![2])} makes the path segment ${quote(segment)}`);
    }
  }
}

/**
 * Expand a compiled template; only own, non-null properties of `variables` are values. `trimSlash` drops
 * one trailing `/` (endpoint URLs), known from the last piece written rather than the finished string.
 */
function expand({ parts }: Template, variables: Record<string, unknown>, trimSlash?: boolean): string {
  let out = "";
  let last = "";
  let dotted: Dotted[] | undefined;
  for (const part of parts) {
    if (typeof part === "string") {
      out += part;
      last = part;
      continue;
    }
    let joiner = part.first;
    for (const variable of part.varspecs) {
      const value = variable.skip || !hasOwn(variables, variable.varname) ? undefined : variables[variable.varname];
      const text = value == null ? undefined : expandValue(part, variable, value);
      if (text === undefined) continue;
      const at = out.length;
      out += joiner + text;
      last = text || joiner || last;
      // What an expansion writes, its operator or separator too (`{.a,b}` with empty values), can help build
      // a dot segment only with a piece made of dots alone. Escaped, a value has no "/" or "%", so unless
      // its operator keeps them or writes "/" or "." (`{+a}`, `{/a*}`, `{.a}`), it must start with a dot.
      const mayDot = text.startsWith(".") || part.keep === RESERVED || part.separator !== ",";
      if (part.inPath && mayDot && DOT_PIECE.test(joiner + text)) {
        dotted ??= [];
        dotted.push([at, out.length, variable.varname]);
      }
      joiner = part.separator;
    }
  }
  if (dotted) rejectDotSegments(out, dotted);
  // endsWith(), not last[last.length - 1]: an operation's template ends in an empty literal, and V8 reads a
  // string out of bounds on a slow path, which cost withOpenAPI's calls ~70 ns each.
  return trimSlash && out.length > 1 && last.endsWith("/") ? out.slice(0, -1) : out;
}

// ---------------------------------------------------------------------------------------------------------------------
// 4. Options: checks and merging. `mergeOptions()` is what `merge()` returns, `toState()` what `defaults()` keeps
// ---------------------------------------------------------------------------------------------------------------------

/**
 * A shallow copy of a plain object that will get more keys (a call's headers, parameters), built key by key:
 * a `__proto__` key stays data, and keys added later cost what they cost on any object (on a spread copy, V8
 * before Node 22 takes ~550 ns for each).
 */
function shallowCopy(object: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(object)) put(result, key, object[key]);
  return result;
}

/** A copy of plain objects and arrays; anything else (an agent, a signal) stays the same instance. */
function copy(value: unknown, what: string, depth = 0): unknown {
  if (depth > MAX_DEPTH) fail(`${what} is nested too deeply`);
  if (Array.isArray(value)) return value.map((item) => copy(item, what, depth + 1));
  if (!isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (value[key] !== undefined) put(result, key, copy(value[key], what, depth + 1));
  }
  return result;
}

/** `value` over `prior`: plain objects merge deeply into a copy, anything else replaces, `undefined` never unsets. */
function mergeValue(prior: unknown, value: unknown, what: string, depth = 0): unknown {
  if (!isPlainObject(value) || !isPlainObject(prior)) return value;
  if (depth > MAX_DEPTH) fail(`${what} is nested too deeply`);
  const merged = shallowCopy(prior);
  for (const key of Object.keys(value)) {
    if (value[key] === undefined) continue;
    put(merged, key, mergeValue(hasOwn(merged, key) ? merged[key] : undefined, value[key], what, depth + 1));
  }
  return merged;
}

function mergeKey(target: Record<string, unknown>, key: string, value: unknown): void {
  put(target, key, mergeValue(hasOwn(target, key) ? target[key] : undefined, value, key));
}

/** A method or header name: an RFC 9110 token. */
const TOKEN = /^[\w!#$%&'*+.^`|~-]+$/;

/** A header name checked and lowercased once: callers pass the same few names over and over. */
const headerName = /* @__PURE__ */ cached((name) => {
  if (!TOKEN.test(name)) fail(`header ${quote(name)} is not a token`);
  return name.toLowerCase();
}, 500);

/** Headers added to `into`: names checked and lowercased, values checked, `undefined` skipped. */
function addHeaders(into: Record<string, unknown>, headers: unknown): Record<string, unknown> {
  if (headers == null) return into;
  if (!isPlainObject(headers)) mustBe("option `headers`", "a plain object", headers);
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || !hasOwn(headers, name)) continue;
    // The value is not quoted in the message: it may be a token.
    if (typeof value !== "number" && (typeof value !== "string" || /[\r\n\0]/.test(value))) {
      fail(`header ${quote(name)} must be a string without CR, LF or NUL, or a number`);
    }
    put(into, headerName(name), value);
  }
  return into;
}

interface MediaType {
  format: string;
  previews?: string[];
}

/** Format and preview names go into the accept header: letters, digits, `_`, `-`, `.`, `+` only. */
const MEDIA_NAME = /^[\w.+-]*$/;

/** A preview name checked, without its `-preview` suffix. */
function previewName(preview: unknown, i: number): string {
  if (typeof preview !== "string" || !preview || !MEDIA_NAME.test(preview)) {
    fail(`option \`mediaType.previews[${i}]\` must be like "mercy", not ${quote(String(preview))}`);
  }
  return preview.endsWith("-preview") ? preview.slice(0, -8) : preview;
}

/** `mediaType` merged over `base`. */
function mergeMediaType(base: MediaType, value: unknown): MediaType {
  if (value == null) return base;
  if (!isPlainObject(value)) mustBe("option `mediaType`", "a plain object", value);
  const { format = base.format, previews } = value;
  if (typeof format !== "string" || !MEDIA_NAME.test(format)) {
    fail(`option \`mediaType.format\` must be like "raw", not ${quote(String(format))}`);
  }
  if (previews === undefined) return { ...base, format };
  if (!Array.isArray(previews)) mustBe("option `mediaType.previews`", "an array", previews);
  const names = previews.map(previewName);
  // Earlier previews the new list does not name come first, then the new ones in order.
  return { format, previews: (base.previews ?? []).filter((preview) => !names.includes(preview)).concat(names) };
}

/** Keyed by format, previews and accept (see applyMediaType()): the rewrite is the same every time, so it is done once. */
const mediaAccept = /* @__PURE__ */ cached((key) => {
  const [format, list, accept] = key.split("\n", 3) as [string, string, string];
  if (/application\/octet-stream/i.test(accept)) return accept;
  if (list) {
    return accept
      .split(/[^\w-]+/)
      .filter((run) => run.lastIndexOf("-preview") > 0)
      .map((run) => run.slice(0, run.lastIndexOf("-preview")))
      .concat(list.split(","))
      .map((preview) => `application/vnd.github.${preview}-preview${format ? "." + format : "+json"}`)
      .join(",");
  }
  if (!format) return accept;
  // An entry's parameters (`;q=0.9`) follow its type and are kept as they are.
  return accept.replace(
    /application\/vnd(\.\w+)(\.v3)?(\.\w+)?(\+json)?\s*(?=[;,]|$)/g,
    `application/vnd$1$2.${format}`,
  );
}, 200);

/**
 * The accept header for a media type. Previews replace it with one preview media type each (those it
 * already names as `<name>-preview` first); a format alone turns each entry
 * `application/vnd.<vendor>[.v3][.<x>][+json]` into `application/vnd.<vendor>[.v3].<format>`.
 * Binary requests (`application/octet-stream`) are never rewritten.
 */
function applyMediaType(accept: string, { format, previews }: MediaType): string {
  return mediaAccept(`${format}\n${previews ?? ""}\n${accept}`);
}

/** A base URL split where a relative URL joins it: the path (no trailing `/`), then its query and fragment. */
type SplitBase = [path: string, query: string, fragment: string];

const splitBase = /* @__PURE__ */ cached((baseUrl): SplitBase => {
  // `>>> 0` turns indexOf's -1 (not found) into 2³²-1, past the end of any string: slice() and Math.min() then
  // need no special case.
  const hash = baseUrl.indexOf("#") >>> 0;
  const question = Math.min(baseUrl.indexOf("?") >>> 0, hash);
  const path = baseUrl.slice(0, question);
  return [path.endsWith("/") ? path.slice(0, -1) : path, baseUrl.slice(question + 1, hash), baseUrl.slice(hash)];
}, 100);

/** A method checked and lowercased once. */
const lowerMethod = /* @__PURE__ */ cached((method) => {
  if (!TOKEN.test(method)) fail(`method ${quote(method)} is not a token`);
  return method.toLowerCase();
}, 100);

function checkMethod(method: unknown): string {
  if (typeof method !== "string") mustBe("option `method`", "a string", method);
  return lowerMethod(method);
}

/** A base URL checked and split: once per `defaults()` call, and for a call that brings its own. */
function checkBase(baseUrl: unknown): SplitBase {
  if (typeof baseUrl !== "string") mustBe("option `baseUrl`", "a string", baseUrl);
  return splitBase(baseUrl);
}

function checkUrl(url: unknown): Template {
  if (typeof url !== "string" || !url) mustBe("option `url`", "a non-empty string", url);
  return urlTemplate(url);
}

/** A route string read once: its method as given and lowercased (none for a bare URL), its URL and template. */
interface ParsedRoute {
  method: string | undefined;
  lower: string | undefined;
  url: string;
  template: Template;
}

/** `"METHOD URL"` or `"URL"`, checked and compiled once per route string. */
const parseRoute = /* @__PURE__ */ cached((route): ParsedRoute => {
  const space = route.indexOf(" ");
  const method = space < 0 ? undefined : route.slice(0, space);
  const url = route.slice(space + 1);
  if (!url || url.includes(" ")) fail(`route ${quote(route)} is not "URL" or "METHOD URL"`);
  // Compiled here, not through urlTemplate: a route's template is kept once, with its route.
  return { method, lower: method === undefined ? method : checkMethod(method), url, template: compile(url, true) };
});

function checkOptions(options: unknown, what = "options"): Record<string, unknown> {
  if (options == null) return {};
  if (!isPlainObject(options)) {
    mustBe(what, (what === "route" ? "a string or " : "") + "a plain object", options);
  }
  return options;
}

function checkRequest(request: unknown): void {
  if (request != null && typeof request !== "object") mustBe("option `request`", "an object", request);
}

/**
 * Beside a route, `url` is a parameter (a webhook's body key, say): the route alone names the target, and the
 * `url` key of merged options holds the route's template. So `merge()` sets the parameter aside under this
 * key, and `parse()` (and `withOpenAPI()`'s) read it back. A registered symbol, so every build and copy of this
 * library finds it, and spread or `Object.assign` in an SDK's hooks carry it along.
 */
const URL_PARAMETER = Symbol.for("endpoint-options.url");

/** The `url` parameter merged options set aside (see URL_PARAMETER). */
const urlParameterOf = (options: Record<string, unknown>): unknown => options[URL_PARAMETER as never];

/** A call's route and options as one object, the route folded in and options beside it winning. */
function callOptions(route: unknown, options: unknown): Record<string, unknown> {
  if (typeof route !== "string") return checkOptions(route, "route");
  const { method, url } = parseRoute(route);
  const result: Record<PropertyKey, unknown> = { method, url };
  const extra = checkOptions(options);
  for (const key of Object.keys(extra)) {
    if (extra[key] === undefined) continue;
    if (key === "url") result[URL_PARAMETER] = extra[key];
    else put(result, key, extra[key]);
  }
  return result;
}

/** Options merged over defaults: the `merge()` result. Header names lowercase, `undefined` skipped. */
function mergeOptions(defaults: Record<string, unknown>, options: Record<string, unknown>): Record<string, unknown> {
  const merged = copy(defaults, "defaults") as Record<PropertyKey, unknown>;
  for (const key of Object.keys(options)) {
    const value = options[key];
    if (value === undefined) continue;
    if (key === "headers") merged.headers = addHeaders((merged.headers ?? {}) as Record<string, unknown>, value);
    else if (key === "mediaType") {
      merged.mediaType = mergeMediaType((merged.mediaType ?? { format: "" }) as MediaType, value);
    } else {
      if (key === "method") checkMethod(value);
      mergeKey(merged, key, value);
    }
  }
  const urlParameter = options[URL_PARAMETER as never];
  if (urlParameter !== undefined) merged[URL_PARAMETER] = urlParameter;
  return merged;
}

/** What a `defaults()` call keeps: its merged options, and what is worked out from them once. */
interface State {
  /** The options as `merge()` and `DEFAULTS` show them: header names lowercased, media type checked. */
  merged: Record<string, unknown>;
  /** Its headers with its media type applied to accept: what a call that changes neither gets. */
  presetHeaders: Record<string, unknown>;
  /**
   * `presetHeaders` with the JSON content type a body gets when none is set. Kept rather than added per
   * call: V8 before Node 22 makes adding a key to a copied object cost several times the copy.
   */
  bodyHeaders: Record<string, unknown>;
  /** Its request parameters (every key that is not a named option), or `null` when none. */
  params: Record<string, unknown> | null;
  /** Its method, checked and lowercased. */
  verb: string;
  /** Its base URL checked and split, or `undefined` when it has none. */
  base: SplitBase | undefined;
}

/** The request parameters of merged options: every key that is not a named option, or `null` when none. */
function paramsOf(merged: Record<string, unknown>): Record<string, unknown> | null {
  let params: Record<string, unknown> | null = null;
  for (const key of Object.keys(merged)) {
    if (NAMED.has(key)) continue;
    params ??= {};
    put(params, key, merged[key]);
  }
  return params;
}

/** Merged options checked, and what every call needs worked out once: what `defaults()` keeps. */
function toState(merged: Record<string, unknown>): State {
  const { method = "GET", baseUrl, url, request } = merged;
  const headers = (merged.headers ?? {}) as Record<string, unknown>;
  const base = baseUrl === undefined ? baseUrl : checkBase(baseUrl);
  const verb = checkMethod(method);
  checkRequest(request);
  if (url !== undefined) checkUrl(url);
  const { accept } = headers;
  const mediaType = (merged.mediaType ?? { format: "" }) as MediaType;
  const presetHeaders =
    typeof accept === "string" ? { ...headers, accept: applyMediaType(accept, mediaType) } : headers;
  const labelled = presetHeaders["content-type"] !== undefined;
  const bodyHeaders = labelled ? presetHeaders : { ...presetHeaders, "content-type": JSON_TYPE };
  return { merged, verb, base, presetHeaders, bodyHeaders, params: paramsOf(merged) };
}

// ---------------------------------------------------------------------------------------------------------------------
// 5. Building a request: `build()`, the one path from options to request options
// ---------------------------------------------------------------------------------------------------------------------

/** A call's parameters, merged over a copy of the defaults' only when there are any. */
function callParameters(state: State, options: Record<string, unknown>): Record<string, unknown> {
  if (!state.params) return options;
  const params = copy(state.params, "defaults") as Record<string, unknown>;
  for (const key of Object.keys(options)) {
    if (!NAMED.has(key) && options[key] !== undefined) mergeKey(params, key, options[key]);
  }
  return params;
}

/** A parameter no placeholder took, which is sent: a credential (`"auth:<scheme>"`) is `withOpenAPI()`'s alone. */
function leftover(name: string): string {
  return name.startsWith("auth:") ? fail(`parameter ${quote(name)} is withOpenAPI()'s`) : name;
}

/**
 * `name=value` added to `query` (after a "&" when it has pairs), none for `null` and `undefined`. A list
 * under a name ending in `[]` repeats the name for each item; any other list is comma-joined, as GitHub's
 * comma lists want. `q` keeps literal `+` between encoded parts (GitHub's search syntax).
 */
function addPairs(query: string, name: string, value: unknown): string {
  if (value == null) return query;
  if (name === "data") fail("option `data` is a body: GET and HEAD have none");
  leftover(name);
  if (isPlainObject(value)) fail(`parameter ${quote(name)} is an object: use {?${name}*}`);
  const key = encode(name, QUERY, name) + "=";
  const keep = name === "q" ? SEARCH : QUERY;
  for (const item of Array.isArray(value) && name.endsWith("[]") ? value : [value]) {
    if (item != null) query = (query && query + "&") + key + encode(asText(item, name), keep, name);
  }
  return query;
}

/** Unused parameters (and a `url` one) appended to the query, which comes before any fragment. */
function addQuery(
  url: string,
  hasQuery: boolean,
  template: Template,
  params: Record<string, unknown>,
  urlParameter: unknown,
): string {
  // Built as one string, never read back: reading a freshly built string flattens it.
  let query = "";
  for (const name in params) {
    if (hasOwn(params, name) && !template.taken.has(name)) query = addPairs(query, name, params[name]);
  }
  query = addPairs(query, "url", urlParameter);
  return query ? url + (hasQuery ? "&" : "?") + query : url;
}

/** `data` as it is, else the unused parameters (and a `url` one) as a plain object, else `undefined`. */
function remainingBody(template: Template, params: Record<string, unknown>, urlParameter: unknown): unknown {
  if (params.data !== undefined && hasOwn(params, "data") && !template.taken.has("data")) return params.data;
  let body: Record<string, unknown> | undefined;
  for (const key in params) {
    if (params[key] === undefined || !hasOwn(params, key) || template.taken.has(key)) continue;
    body ??= {};
    put(body, leftover(key), params[key]);
  }
  if (urlParameter !== undefined) {
    body ??= {};
    body.url = urlParameter;
  }
  return body;
}

/**
 * The URL: the template expanded (one trailing slash dropped), a relative one resolved against the base, and
 * a fragment set aside while the query grows: the route's, then the base's, then (`query`, for GET and HEAD)
 * the unused parameters.
 */
function targetUrl(
  template: Template,
  params: Record<string, unknown>,
  base: SplitBase | undefined,
  query: boolean,
  urlParameter: unknown,
): string {
  let url = expand(template, params, true);
  let baseQuery = "";
  let fragment = "";
  if (template.relative ?? !ABSOLUTE.test(url)) {
    if (!base) fail(`option \`baseUrl\` is required for ${quote(url)}`);
    url = base[0] + (template.rooted || url[0] === "/" ? url : "/" + url);
    baseQuery = base[1];
    fragment = base[2];
  }
  let hasQuery = false;
  if (template.mayHoldQuery && (query || fragment || baseQuery)) {
    const hash = url.indexOf("#");
    if (hash >= 0) {
      // The route's fragment wins over the base's.
      fragment = url.slice(hash);
      url = url.slice(0, hash);
    }
    hasQuery = url.includes("?");
  }
  if (baseQuery) {
    url += (hasQuery ? "&" : "?") + baseQuery;
    hasQuery = true;
  }
  if (query) url = addQuery(url, hasQuery, template, params, urlParameter);
  return url + fragment;
}

/**
 * The headers: the defaults' worked out, or, when the call brings headers or a media type, the defaults' as
 * given with the call's over them and accept worked out anew. A JSON body is labelled.
 */
function requestHeaders(state: State, callHeaders: unknown, mediaType: unknown, json: boolean) {
  if (callHeaders === undefined && mediaType === undefined) {
    return { ...(json ? state.bodyHeaders : state.presetHeaders) };
  }
  const defaults = state.merged;
  const rawHeaders = (defaults.headers ?? {}) as Record<string, unknown>;
  const headers = addHeaders(shallowCopy(rawHeaders), callHeaders);
  const { accept } = headers;
  if (typeof accept === "string") {
    if (accept === rawHeaders.accept && mediaType === undefined) headers.accept = state.presetHeaders.accept;
    else {
      const merged = mergeMediaType((defaults.mediaType ?? { format: "" }) as MediaType, mediaType);
      headers.accept = applyMediaType(accept, merged);
    }
  }
  if (json && headers["content-type"] === undefined) headers["content-type"] = JSON_TYPE;
  return headers;
}

/**
 * Request options from the state (defaults) and one call's options: the one code path behind
 * `endpoint()` and `parse()`, so `endpoint(x)` always equals `parse(merge(x))`. A route brings its
 * method (checked and lowercased) and template.
 */
function build(
  state: State,
  method: string | undefined,
  template: Template | undefined,
  options: Record<string, unknown>,
  urlParameter?: unknown,
): RequestOptions {
  let base = state.base;
  let callHeaders: unknown;
  let mediaType: unknown;
  // Every result gets its own copy of the defaults' request meta.
  let request = copy(state.merged.request, "request");
  // Hot loops read own keys with for-in and hasOwn, not Object.keys: V8 serves both from the object's
  // enum cache without building an array, at about half the cost.
  for (const key in options) {
    const value = options[key];
    if (value === undefined || !hasOwn(options, key)) continue;
    if (key === "method") method = checkMethod(value);
    else if (key === "url") {
      // Beside a route, `url` is a parameter (see URL_PARAMETER).
      if (template) urlParameter = value;
      else template = checkUrl(value);
    } else if (key === "baseUrl") base = checkBase(value);
    else if (key === "headers") callHeaders = value;
    else if (key === "mediaType") mediaType = value;
    else if (key === "request") {
      checkRequest(value);
      request = mergeValue(request, value, "request");
    }
  }
  template ??= urlTemplate((state.merged.url as string | undefined) ?? fail("option `url` is required"));
  const lower = method ?? state.verb;
  const query = lower === "get" || lower === "head";
  const params = callParameters(state, options);
  const url = targetUrl(template, params, base, query, urlParameter);
  let body = query ? undefined : remainingBody(template, params, urlParameter);
  // Only `data` can be a body that is not JSON: bodies fetch labels itself (a form, a Blob), bytes, streams.
  const json = body !== undefined && (body !== params.data || !isRawBody(body));
  const headers = requestHeaders(state, callHeaders, mediaType, json);
  // octokit sends PUT and PATCH with an empty body rather than none.
  if (body === undefined && (lower === "put" || lower === "patch")) body = "";
  const result: RequestOptions = { method: lower, url, headers: headers as RequestHeaders };
  if (body !== undefined) result.body = body;
  if (request) result.request = request as RequestMeta;
  return result;
}

// ---------------------------------------------------------------------------------------------------------------------
// 6. `endpoint`, `parseTemplate()` and `toFetch()`
// ---------------------------------------------------------------------------------------------------------------------

/** No defaults at all: what `parse()` builds with. */
const EMPTY_STATE = toState({});

/**
 * Turn merged options into request options. Stateless: no defaults apply.
 * @throws {TypeError} when `url` is missing or anything in the options is malformed.
 */
function parse(options: MergedOptions): RequestOptions {
  const checked = checkOptions(options);
  return build(EMPTY_STATE, undefined, undefined, checked, (checked as Record<PropertyKey, unknown>)[URL_PARAMETER]);
}

/** An endpoint function for a `defaults()` call's state, with `DEFAULTS`, `defaults()`, `merge()` and `parse()`. */
function withDefaults(state: State): Endpoint {
  const call = (route?: unknown, options?: unknown) => {
    if (typeof route !== "string") return build(state, undefined, undefined, checkOptions(route, "route"));
    const { lower, template } = parseRoute(route);
    return build(state, lower, template, checkOptions(options));
  };
  const defaults = (options: EndpointOptions) => {
    const merged = mergeOptions(state.merged, checkOptions(options));
    return withDefaults(toState(copy(merged, "defaults") as Record<string, unknown>));
  };
  return Object.defineProperties(call as Endpoint, {
    DEFAULTS: { get: () => copy(state.merged, "defaults"), enumerable: true },
    defaults: { value: defaults },
    merge: { value: (route: unknown, options?: unknown) => mergeOptions(state.merged, callOptions(route, options)) },
    parse: { value: parse },
  });
}

/**
 * Build request options for GitHub's REST API (or any other, with `baseUrl`).
 * @throws {TypeError} naming the option, header, parameter or template position at fault.
 * @example
 * endpoint("GET /repos/{owner}/{repo}/issues", { owner: "octocat", repo: "hello-world", state: "open" })
 * // { method: "get", url: "https://api.github.com/repos/octocat/hello-world/issues?state=open", headers: {...} }
 */
export const endpoint: Endpoint = withDefaults(
  toState({
    method: "GET",
    baseUrl: "https://api.github.com",
    // The version is package.json's; a test holds the two equal.
    headers: { accept: "application/vnd.github.v3+json", "user-agent": "endpoint-options/1.0.0" },
    mediaType: { format: "" },
  }),
);

/**
 * Compile an RFC 6570 (level 4) URI template, once; compiled templates are cached.
 * @throws {TypeError} for a malformed template, naming the template and the character position.
 * @example parseTemplate("/search{?q,page}").expand({ q: "cat", page: 2 }) // "/search?q=cat&page=2"
 */
export function parseTemplate(template: string): UriTemplate {
  if (typeof template !== "string") mustBe("template", "a string", template);
  const compiled = strictTemplate(template);
  return {
    expand(variables) {
      if (!variables || typeof variables !== "object") mustBe("variables", "an object", variables);
      return expand(compiled, variables as Record<string, unknown>);
    },
  };
}

/**
 * An object body as JSON text for `content-type` (the JSON type when it is unset): fetch would send plain
 * objects, arrays, a Date or a class instance as their text form, "[object Object]".
 */
function jsonText(body: unknown, contentType: string): string {
  if (!isJson(contentType)) fail(`an object body cannot be sent as ${quote(contentType)}`);
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch {}
  // A cycle or a bigint throws; a function, or toJSON returning undefined, gives nothing.
  return text ?? fail("the body has no JSON form");
}

/**
 * Request options as `fetch()` arguments, for `fetch(...toFetch(options))`, `new Request(...)` and
 * fetch-based clients. The result of `endpoint()` is kept as the spec defines it (lowercase method, body
 * as an object); this is the step that makes it sendable:
 * - the method is uppercased: fetch normalises only DELETE, GET, HEAD, OPTIONS, POST and PUT, and a
 *   lowercase `patch` reaches the server as is, where it is refused;
 * - a plain object or array body with a JSON content type is serialised with `JSON.stringify` (fetch would
 *   send `[object Object]`); strings, bytes, `Blob`, `FormData`, `URLSearchParams` and streams pass through
 *   untouched (a stream also gets `duplex: "half"`, which fetch requires for one);
 * - GET and HEAD send no body, nor does an empty string (fetch would label it `text/plain`; a PUT
 *   still goes out with `content-length: 0`); header values become strings; `request.signal` is carried over.
 * @throws {TypeError} when the options are not request options, or an object body has a content type
 * other than JSON (serialise it yourself, e.g. with `URLSearchParams`).
 * @example
 * const response = await fetch(...toFetch(endpoint("PATCH /repos/{owner}/{repo}", { owner, repo, private: true })));
 */
export function toFetch(options: RequestOptions): [url: string, init: FetchInit] {
  if (!isPlainObject(options)) mustBe("request options", "an object", options);
  const { method, url, headers: given, body, request } = options;
  if (typeof method !== "string") mustBe("request option `method`", "a string", method);
  if (typeof url !== "string") mustBe("request option `url`", "a string", url);
  // Checked and lowercased as endpoint() does, then as strings.
  const headers = addHeaders({}, given) as Record<string, string>;
  for (const name of Object.keys(headers)) put(headers, name, String(headers[name]));
  const init: { method: string; headers: Record<string, string>; [option: string]: unknown } = {
    method: method.toUpperCase(),
    headers,
  };
  // An empty string is no body: fetch would label it text/plain (octokit-style PUTs carry one).
  if (body !== undefined && body !== "" && init.method !== "GET" && init.method !== "HEAD") {
    const type = typeof body;
    if ((body && type === "object" && !isRawBody(body)) || type === "function" || type === "symbol") {
      headers["content-type"] ??= JSON_TYPE;
      init.body = jsonText(body, headers["content-type"]);
    } else {
      init.body = body;
      if (isStream(body)) init.duplex = "half";
    }
  }
  const signal = request?.signal;
  if (signal != null) init.signal = signal;
  return [url, init as FetchInit];
}

// ---------------------------------------------------------------------------------------------------------------------
// 7. Types for literal routes (compile time only)
// ---------------------------------------------------------------------------------------------------------------------

// Route-aware types: the placeholders of a literal route, read by template literal types, become the
// keys of its options. `{name}` and `:name` are required (unless a `defaults()` call set them), every
// other expression (`{/name}`, `{?a,b}`, `{&a}`, `{#a}`, `{+a}`, `{.a}`, `{;a}`) is optional.

/** The value of a parameter: `undefined` and `null` are absent, so a required one must be something. */
export type ParameterValue = string | number | boolean | bigint | object;

/** The operators that make an expression's variables optional in a route: `{+a}`, `{#a}`, `{.a}`, `{/a}`, `{;a}`, `{?a}`, `{&a}`. */
type Operator = "+" | "#" | "." | "/" | ";" | "?" | "&";
/** A lowercase ASCII letter: what a `:name` placeholder starts with. */
type Letter =
  | "a"
  | "b"
  | "c"
  | "d"
  | "e"
  | "f"
  | "g"
  | "h"
  | "i"
  | "j"
  | "k"
  | "l"
  | "m"
  | "n"
  | "o"
  | "p"
  | "q"
  | "r"
  | "s"
  | "t"
  | "u"
  | "v"
  | "w"
  | "x"
  | "y"
  | "z";
/** A character of a `:name` placeholder: a letter, a digit or `_`. */
type WordChar = Letter | Uppercase<Letter> | "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "_";
/** Named options are never placeholders: the names of `NAMED_OPTIONS`. */
type NamedOption = (typeof NAMED_OPTIONS)[number];

/** The leading word characters of `text`. */
type Word<Text extends string, Taken extends string = ""> = Text extends `${infer C}${infer Rest}`
  ? C extends WordChar
    ? Word<Rest, `${Taken}${C}`>
    : Taken
  : Taken;
/** Every `{...}` expression of a template, as a union of its insides. */
type Expressions<Url extends string> = Url extends `${string}{${infer Inside}}${infer Rest}`
  ? Inside | Expressions<Rest>
  : never;
/** Every `:name` (a lowercase letter, then word characters), as in the runtime's compiler. */
type ColonNames<Url extends string> = Url extends `${string}:${infer After}`
  ? (After extends `${Letter}${string}` ? Word<After> : never) | ColonNames<After>
  : never;
/** `a,b*,c:3` → `"a" | "b" | "c"`. */
type VariableNames<List extends string> = List extends `${infer Spec},${infer Rest}`
  ? VariableNames<Spec> | VariableNames<Rest>
  : List extends `${infer Name}*`
    ? Name
    : List extends `${infer Name}:${string}`
      ? Name
      : List;
/** The names an expression requires: those of `{a,b}`, none of an expression with an operator. */
type RequiredIn<Inside extends string> = Inside extends `${Operator}${string}` ? never : VariableNames<Inside>;
/** The names an expression with an operator takes: `{?a,b}` → `"a" | "b"`. */
type OptionalIn<Inside extends string> = Inside extends `${Operator}${infer List}` ? VariableNames<List> : never;

/** The URL part of `"METHOD url"`, or the route itself. */
export type RouteUrl<Route extends string> = Route extends `${string} ${infer Url}` ? Url : Route;
/** The lowercase method of a route; a bare URL takes the defaults' method, which starts as GET. */
export type RouteMethod<Route extends string, Defaults = {}> = string extends Route
  ? string
  : Route extends `${infer Method} ${string}`
    ? Lowercase<Method>
    : Defaults extends { method: infer Method extends string }
      ? Lowercase<Method>
      : "get";
/** Placeholders a literal route needs: `{name}` and `:name`, less those the defaults set. */
export type RequiredParameters<Route extends string, Defaults = {}> = Exclude<
  RequiredIn<Expressions<RouteUrl<Route>>> | ColonNames<RouteUrl<Route>>,
  NamedOption | keyof Defaults
>;
/** Placeholders a literal route can take but does not need. */
export type OptionalParameters<Route extends string, Defaults = {}> = Exclude<
  | OptionalIn<Expressions<RouteUrl<Route>>>
  | Extract<RequiredIn<Expressions<RouteUrl<Route>>> | ColonNames<RouteUrl<Route>>, keyof Defaults>,
  NamedOption | RequiredParameters<Route, Defaults>
>;

/** Options for a literal route: its placeholders by name, next to every other option and parameter. */
export type RouteOptions<Route extends string, Defaults = {}> = EndpointOptions & {
  [Name in RequiredParameters<Route, Defaults>]: ParameterValue;
} & {
  [Name in OptionalParameters<Route, Defaults>]?: ParameterValue | null | undefined;
};

/** The options argument of a route: required when the route has a required placeholder, loose for a non-literal string. */
type RouteArguments<Route extends string, Defaults> = string extends Route
  ? [options?: EndpointOptions]
  : [RequiredParameters<Route, Defaults>] extends [never]
    ? [options?: RouteOptions<Route, Defaults>]
    : [options: RouteOptions<Route, Defaults>];

// What the public types above are built from, exported (each documented where it is declared) so that the
// generated API docs name no type a reader cannot open.
export type {
  ColonNames,
  Expressions,
  GlobalRequestInit,
  Letter,
  NamedOption,
  Operator,
  OptionalIn,
  RequiredIn,
  RouteArguments,
  VariableNames,
  Word,
  WordChar,
};

// #region openapi
// ---------------------------------------------------------------------------------------------------------------------
// 8. Requests as an OpenAPI description says: `withOpenAPI()`, and `reduceOpenAPI()` for a light description.
//    build.mjs leaves this region out of the CDN bundle. Its rooms, in the order a reader needs them: 8.1 the entry
//    points, 8.2 the plan's records, 8.3 reading a description, 8.4 Swagger 2.0, 8.5 the plan of an operation,
//    8.6 servers, 8.7 credentials, 8.8 values, 8.9 bodies (and a querystring), 8.10 the call, 8.11 `reduceOpenAPI()`,
//    8.12 the types.
//
//    A description may be a stranger's file, and a call's values a stranger's JSON. So each operation is read once,
//    strictly, into a plan of plain records when it is first called, and every call walks only its plan. Every read
//    of the description is of an own property (`ownField()`), every map keyed by its strings or a caller's is a `Map`
//    or has no prototype, and each `$ref`, schema, server, security scheme and `security` list is read once: reading
//    is linear in the size of the description. What the description gets wrong is a TypeError naming the operation,
//    raised when that operation is first called; the other operations keep working.
// ---------------------------------------------------------------------------------------------------------------------

// --- 8.1 Entry points ------------------------------------------------------------------------------------------------

/**
 * `endpoint` building each call as an OpenAPI 3.0, 3.1 or 3.2 description says, or a Swagger 2.0 one read as its 3.0
 * equivalent, with nothing to configure:
 * - the URL on the operation's server (else the path's, else the description's), its variables at their defaults
 *   or the call's (or `defaults()`') `"server:<name>"` values, each held to its place in the URL and its `enum`;
 *   a `baseUrl` you set replaces the server; a relative server (`/v1`, `../v2`) resolves against where the
 *   description came from (`options.url`), else goes under the `baseUrl` you set, as does none;
 * - `accept` from what the operation answers on success, `content-type` from its request body's media type and the
 *   body's shape (JSON Patch only for a list), unless you set them (or a `mediaType`);
 * - path, query, querystring, header and cookie parameters where the description puts them, each in its `style` and
 *   `explode`
 *   (query parameters of every method, `allowReserved` too), percent-encoded as RFC 3986 needs (3.2's `cookie`
 *   style not), a querystring as its media type writes the whole query, values nested deeper
 *   than a style writes in the bracket form (`filter[tags][0]=a`), each of the shape its schema's `type` allows, a
 *   `Date` as ISO 8601;
 * - a JSON body as `endpoint()` builds it (a string given whole as `data` is JSON text), a form body as
 *   `URLSearchParams` or `FormData` (multipart where a field holds a file or bytes), each property as its Encoding
 *   Object says, a list as a sequential JSON type (JSON Lines); a required body the call leaves out as the empty value
 *   of its media type (`{}`), none for GET;
 * - credentials by security scheme, as `"auth:<name>"` keys (per call or in `defaults()`): those of the first
 *   alternative of the operation's `security` you gave all of; a call that gives none is sent without.
 *
 * The route names the operation as the description's path key (`"GET /pet/findByStatus"`, `"GET
 * /files/{id}#shared"`, 3.2's `"QUERY /search"` and `additionalOperations` `"LINK /x"`), or by its `operationId`
 * (`"getPetById"`, the same request); parameters and body properties sit beside each other by name, one name
 * filling every parameter that has it. A parameter named like a named option (`headers`, `data`…) is `"<in>:<name>"`
 * (`"query:headers"`), as any parameter may be; a body property or form field that clashes with anything
 * `"body:<name>"` (`"body:method"`).
 * @throws {TypeError} when the description is neither OpenAPI 3 nor Swagger 2.0, or holds 2.0's fields without saying
 * `swagger: "2.0"`; when called, for a route the description lacks, a fault in the operation's part of the
 * description (a `$ref` that names nothing, a parameter `in` no location, a media type or header name that is not
 * one, a 2.0 construct 3.0 cannot express), a missing required parameter or server variable, a named option given
 * where the operation has a parameter of its name, a server variable's value that would leave its place in the URL,
 * a value of a shape the schema rules out or with no text form, credentials given of which no alternative is met,
 * a relative server (or none) with no `baseUrl` set, an `additionalOperations` key not in uppercase, an operationId two
 * operations share, and a `$ref` to another document.
 * @example
 * const url = "https://petstore.swagger.io/v2/openapi.json";
 * const petstore = withOpenAPI<paths, operations>(endpoint, description, { url });
 * petstore("GET /pet/findByStatus", { status: ["available", "pending"] }).url
 * // "https://petstore.swagger.io/v2/pet/findByStatus?status=available&status=pending"
 * petstore("getPetById", { petId: 10 }).url // "https://petstore.swagger.io/v2/pet/10"
 */
export function withOpenAPI<Paths = never, Operations = never>(
  // biome-ignore lint/suspicious/noExplicitAny: an endpoint with any defaults.
  endpoint: Endpoint<any>,
  description: OpenAPIDescription,
  options?: OpenAPIOptions,
): [Paths] extends [never] ? Endpoint : OpenAPIEndpoint<Paths, {}, OpenAPILocation, Operations>;
export function withOpenAPI(
  // biome-ignore lint/suspicious/noExplicitAny: an endpoint with any defaults.
  wrapped: Endpoint<any>,
  description: OpenAPIDescription,
  options?: OpenAPIOptions,
): unknown {
  if (typeof wrapped !== "function" || typeof wrapped.defaults !== "function") {
    mustBe("withOpenAPI's endpoint", "an endpoint (`endpoint`, or one `defaults()` made)", wrapped);
  }
  const { url } = checkOptions(options, "withOpenAPI()'s options");
  return openAPIEndpoint(wrapped, readDescription(description, "withOpenAPI", url));
}

/**
 * The parts of an OpenAPI description that `withOpenAPI()` reads, and nothing else: each operation's plan written
 * back (its server, its parameters with their styles and shapes, its request body's media types, encoding and form
 * fields, its success media types, its security), `$ref`s followed. `withOpenAPI()` builds every request from it as
 * from the whole description. Run it at build time, so that a browser app ships kilobytes, not megabytes: GitHub's
 * 13 MB description becomes about 355 KB (22 KB gzip, 8 KB of it operationIds). It reads every operation as a first
 * call would, in time linear in the description's size, and writes a part many operations share once. A Swagger 2.0
 * description becomes the OpenAPI 3.0 one that builds the same requests (a `tsv` list is written `style:
 * tabDelimited`, which 3.0 lacks and `withOpenAPI()` reads); a 3.2 one stays 3.2.
 * @throws {TypeError} when the description is neither OpenAPI 3 nor Swagger 2.0, or, naming it, for an operation a
 * call would refuse to read.
 * @example
 * // A build step, in Node.js: the description reduced to what withOpenAPI() reads.
 * writeFileSync("api.json", JSON.stringify(reduceOpenAPI(JSON.parse(readFileSync("openapi.json", "utf8")))));
 */
export function reduceOpenAPI(description: OpenAPIDescription, options?: OpenAPIOptions): OpenAPIDescription {
  const { url } = checkOptions(options, "reduceOpenAPI()'s options");
  return reduceDescription(readDescription(description, "reduceOpenAPI", url));
}

// --- 8.2 The plan's records ------------------------------------------------------------------------------------------

// biome-ignore lint/suspicious/noExplicitAny: a description is JSON of any shape; each read checks what it needs.
type Json = Record<string, any>;

/** One description, and each part of it read so far: a part is read once, by the first operation that needs it. */
interface Context {
  description: Json;
  /** Where the description was retrieved from (withOpenAPI()'s `url`): a relative server resolves against it. */
  location: string | undefined;
  /** This document's own URI (no fragment), which a `$ref` names it by: 3.2's `$self` (resolved), else `location`. */
  self: string | undefined;
  /** Each `operationId` of the description's paths and the routes that have it, gathered when first needed. */
  ids: Map<string, string[]> | undefined;
  /** Swagger 2.0: what its adapter made (see 8.4); `undefined` for OpenAPI 3.x. */
  swagger: Adapted | undefined;
  /** Its security schemes: `components.securitySchemes`, or 2.0's `securityDefinitions` as 3.0's. */
  schemes: Json;
  /** Each `$ref` followed: its target, or `undefined` where it names nothing (or comes back to itself). */
  refs: Map<string, unknown>;
  /** Each operation read, by `"<method> <path>"`; each Server Object; each body schema's properties' shapes. */
  plans: Map<unknown, Plan | TypeError>;
  /** Each `additionalOperations` map's keys, by their method in lowercase (see `operationNode()`). */
  methods: Map<Json, Map<string, string>>;
  /** Each Request Body Object read, by node; for GET and HEAD apart. */
  bodies: [Map<Json, BodyPlan | TypeError>, Map<Json, BodyPlan | TypeError>];
  /** Each success answer's media types and accept header, by the content they come from (see `successTypes()`). */
  answers: Map<unknown, [string[], string] | TypeError>;
  /** A number for each node or record a key is made of (see `nodeId()`). */
  nodeIds: Map<object, number>;
  /** Each operation node read (see `OperationPlan`), by node, then its path item's `parameters`; GET and HEAD apart. */
  operations: [Map<Json, Map<unknown, OperationPlan | TypeError>>, Map<Json, Map<unknown, OperationPlan | TypeError>>];
  servers: Map<unknown, Server>;
  shapes: Map<Json | undefined, Map<string, Shape>>;
  /** Whether a parameter's schema lists `""` as a value, by schema: many operations share one (see `listsEmpty()`). */
  empties: Map<Json, boolean>;
  /** Each security scheme by name, each `security` list by itself: many operations share the description's. */
  schemeOf: Map<unknown, Scheme | TypeError>;
  securityOf: Map<unknown, Security | TypeError>;
  /** The names `"server:"` and `"auth:"` keys may take, gathered when first needed. */
  names: Map<string, Set<string>>;
  /** The library's own GitHub defaults (`endpoint.DEFAULTS`): where they stand, the caller set nothing. */
  own: { baseUrl: string; accept: unknown };
  /** What `parse()` builds with: no defaults apply beneath merged options. Made when first needed. */
  parser?: Api;
}

/** What the Swagger 2.0 adapter made, each once: many operations share a description's lists. */
interface Adapted {
  /** Each operation's 3.0 node, by its node and then its path item's. */
  operations: Map<Json, Map<Json, Json | TypeError>>;
  /** Each server, by the `schemes` list it comes from: an operation's own, or `undefined` for the description's. */
  servers: Map<unknown, Json | undefined | TypeError>;
  /** Each success response's `content`, by the `produces` list it comes from; each such list checked. */
  contents: Map<unknown, Json>;
  lists: Map<unknown, string[] | TypeError>;
  /** Each `consumes` list's media types a body may go as (see `bodyTypes()`). */
  bodyTypes: Map<unknown, string[] | TypeError>;
}

/** The shape a schema's `type` allows a value: any, a primitive, a list or an object. */
type Shape = "any" | "primitive" | "array" | "object";

/** How a value is written: a parameter's `style`, or a form field's Encoding Object. */
interface Encoding {
  /** Its style (2.0's `tsv` is `tabDelimited`); `""` for a form field its Encoding Object does not style. */
  style: string;
  explode: boolean;
  /** `allowReserved`: reserved characters kept. */
  reserved: boolean;
  /** The media type it is written as: a JSON `content` parameter's, a multipart part's `contentType`. */
  type: string | undefined;
}

/** A parameter of an operation. */
interface Param extends Encoding {
  name: string;
  /** 3.2's `querystring`: the whole query string, written as its `content` media type (`type`) says. */
  in: "path" | "query" | "querystring" | "header" | "cookie";
  /** The call's key for it: its name, or `<in>:<name>` where the name is a named option's (`query:headers`). */
  key: string;
  /** Its name percent-encoded as RFC 3986 needs it (`StartTime%3C`), as its template writes it. */
  variable: string;
  required: boolean;
  /** `allowEmptyValue`, or a schema listing `""` as a value: a query parameter's `""` is sent, not left out. */
  empty: boolean;
  shape: Shape;
  /** `format: date`: a `Date` is written `YYYY-MM-DD`. */
  date: boolean;
  /** A URL-encoded `querystring`'s fields: their shapes and Encoding Objects, as a form body's. */
  fields: Pick<BodyPlan, "encoding" | "shapes"> | undefined;
}

/** An operation's request body. */
interface BodyPlan {
  /** Its media types in the description's order, ranges left out; none for GET and HEAD, which send none. */
  types: string[];
  required: boolean;
  /** A form's properties (for a GET, the body's) and the shape each allows: its schema's, shared with others. */
  shapes: Map<string, Shape>;
  /** A form's properties its Encoding Object describes. */
  encoding: Map<string, Encoding>;
  /** Whether it is a form: a form type listed, and no JSON one. */
  form: boolean;
  /** What a list goes as, and an object: the first JSON or sequential type, and the first JSON but JSON Patch. */
  list: string | undefined;
  object: string | undefined;
  /** The first form type, and the first multipart one: fields holding a file go as that. */
  formType: string | undefined;
  multipart: string | undefined;
  /** The type an object goes as, and its label (see `labelFor()`); `undefined` where only ranges are listed. */
  usual: [type: string, label: string | undefined] | undefined;
  /** The named options (`baseUrl`, `headers`…) its schemas declare as properties: a call's key so named is refused. */
  options: string[];
}

/** The part of a URL a server variable fills, which says what a caller's value for it may be. */
// Not "rooted": build.mjs shortens that field name of other records, and these parts are keys of lookup tables.
type ServerPart = "origin" | "scheme" | "host" | "port" | "path" | "fromRoot";

interface ServerVariable {
  name: string;
  part: ServerPart;
  /** Its default, `undefined` when it has none (the caller must give it). */
  fallback: string | undefined;
  /** Its `enum`: the only values a caller may give, when declared. */
  choices: string[] | undefined;
}

/** A server, read by position: its URL's literal pieces and variables in order. */
interface Server {
  url: string;
  pieces: (string | ServerVariable)[];
  variables: Map<string, ServerVariable>;
  /** A URL of its own (`https://…`, `//host/…`), not a path under the caller's; `undefined` where an origin variable tells. */
  absolute: boolean | undefined;
}

/**
 * A security scheme: where its credential goes, in a header (`authorization` for HTTP, OAuth 2 and OpenID Connect),
 * a query pair or a cookie named `field`; mutual TLS sends nothing (the client's certificate is it).
 */
interface Scheme {
  /** Its name among the description's security schemes: a call's key is `"auth:<name>"`. */
  name: string;
  in: "header" | "query" | "cookie" | "none";
  /** The header's name (lowercase), the query pair's or the cookie's. */
  field: string;
  /** The auth-scheme written before the credential (`Bearer`), `""` for an API key; `Basic` takes a user and password. */
  prefix: string;
  /** What the description gets wrong about it: raised only where a call gives credentials (see `schemeFor()`). */
  fault?: string;
}

/** A `security` list: its alternatives, each the schemes it needs together; the places they write, and whether in a query. */
interface Security {
  alternatives: Scheme[][];
  places: Set<string>;
  query: boolean;
  /** The first fault of a scheme it names (see `schemeFor()`), found once. */
  fault: string | undefined;
}

/**
 * What an operation node says, with its path item's parameters, whichever path it stands under (a `$ref` may put it
 * under many): read once per node, shared by their plans.
 */
interface OperationPlan {
  parameters: Param[];
  /**
   * What a call's key names, by the slots of `Call.given` its value fills: parameter `i`'s key `2i`, its
   * `"<in>:<name>"` `2i + 1` (a name in two locations is one key for both); or a named option (`OPTION`), one that
   * a parameter is named like (`CLASH`), a header the description may not set (`REFUSED`). Any other key is a body
   * property (for a GET, a query pair), or an escape.
   */
  keys: Map<string, number[]>;
  body: BodyPlan;
  /** The success responses' media types, JSON first; and the same as an accept header, `*∕*` for none. */
  answers: string[];
  accept: string;
  /** Its `security` (the operation's, else the description's); no alternative where it needs none. */
  security: Security;
  /** Parameter `i` by the place a credential of `security` also writes (`"query:api_key"`). */
  places: Map<string, number>;
  /** Its path parameters' indexes by name, and its query parameters' names: what a path key's placeholders name. */
  paths: Map<string, number>;
  queries: Set<string>;
  /** Its `operationId`, which `reduceOpenAPI()` keeps. */
  id: string | undefined;
}

/** Everything a call of an operation needs, read from the description once: its operation's, and its path's. */
interface Plan extends OperationPlan {
  /** `"GET /pets/{id}"`, for errors; the method, lowercase; whether it is GET or HEAD (no body, other keys to the query). */
  route: string;
  method: string;
  get: boolean;
  /** Whether its path key starts with `/`, as most do; else the URL puts one before it. */
  rooted: boolean;
  /** Whether a call's other keys are properties of one body object: a method with a body that is no form. */
  asObject: boolean;
  /**
   * For a method that changes things, whether a value could make a path segment empty (a path parameter, and no
   * `//` in the key), and whether the key ends with `/`: `DELETE /repos//hooks` would act on another resource.
   */
  guard: boolean;
  trailing: boolean;
  /** The path key as an RFC 6570 template of its path parameters in their styles (`/pets/{;p*}`); whether it keeps a query. */
  path: Template;
  query: boolean;
  /** The path parameters that are a whole segment of it (`/pets/{id}`): empty, they would name another resource. */
  segments: Set<number>;
  /** The operation's server, else the path's, else the description's; `undefined` when none has one. */
  server: Server | undefined;
  /** What its operation node says (see `OperationPlan`), as read: the same for every path that shares the node. */
  operation: OperationPlan;
}

/** What a call's keys hold, read in one pass once its operation is known (see `readCall()`). */
interface Call {
  /** Its named options; `request` merged over a copy of the defaults'. */
  baseUrl: unknown;
  headers: unknown;
  mediaType: unknown;
  request: unknown;
  /** Whether it gives a `"server:"` or an `"auth:"` key of its own (the defaults' are worked out once). */
  servers: boolean;
  auths: boolean;
  /** The values its keys give parameters, by slot (see `Plan.keys`); none where it gives none. */
  given: unknown[] | undefined;
  /** Whether it may fill a credential's place itself: a parameter given in one, or query pairs. */
  places: boolean;
  /** Body properties as one object (the commonest), or as a list for a form, where a name may repeat. */
  object: Json | undefined;
  fields: [string, unknown][] | undefined;
  /** Whether a `"body:<name>"` key (or a form's fields in `data`) was given: the fields are the whole body. */
  loose: boolean;
  /** The first property holding a file or bytes: the body goes as multipart. */
  file: string | undefined;
  /** `data`, the body given whole (unless the form declares a `data` field). */
  whole: unknown;
  /** Query pairs: a GET's other keys as `endpoint()` writes them; the parameters', then undeclared `"query:"` keys'. */
  query: string;
  pairs: string;
  /** A `url` parameter given beside the route, until a declared parameter or the body takes it. */
  url: unknown;
  /** 3.2's querystring as written, and whether it is a URL-encoded form (other pairs may follow it). */
  querystring: [text: string, form: boolean] | undefined;
}

/** What a call sends for its operation's security (see `chooseCredentials()`). */
interface Credentials {
  /** Headers by lowercase name; query pairs, percent-encoded and `&`-joined; cookie pairs, `; `-joined. */
  headers: [string, string][];
  query: string;
  cookie: string;
  /** The parameters whose place a credential fills: a required one is not missing. */
  fills: number[];
  /** Where credentials were given but no alternative is met: the TypeError's message. */
  error: string | undefined;
}

/** What one endpoint (one `defaults()` level) works out once per operation. */
interface Prepared {
  plan: Plan;
  /** The base URL with the defaults' server values; `undefined` where each call must give them (or be refused). */
  base: SplitBase | undefined;
  /** The defaults' headers, `accept` the operation's where the caller set none, and the defaults' credentials; the
   * same labelled for the body a call usually sends, unless the caller labelled them. */
  headers: Json;
  bodyHeaders: Json;
  credentials: Credentials;
}

/** One endpoint of a description: its state, the defaults' server values and credentials, its prepared operations. */
interface Api {
  context: Context;
  state: State;
  values: Map<string, unknown>;
  credentials: Map<string, unknown>;
  prepared: (id: string) => Prepared;
}

// --- 8.3 Reading a description: own properties, `$ref`s, media types ------------------------------------------------

/** A description checked to be one this reads, OpenAPI 3.x or Swagger 2.0 with `paths`, with nothing read yet. */
function readDescription(description: OpenAPIDescription, who: string, location?: unknown): Context {
  const what = `${who}'s description`;
  if (!isPlainObject(description)) mustBe(what, "an OpenAPI description", description);
  const self = ownField(description, "$self");
  const swagger = isSwagger(description, what);
  const paths = ownField(description, "paths");
  if (!isPlainObject(paths)) mustBe(`${what}'s \`paths\``, "an object of path items", paths);
  const components = ownField(description, "components");
  const schemes = swagger
    ? swaggerSchemes(description)
    : isPlainObject(components) && ownField(components, "securitySchemes");
  const place = location === undefined ? location : checkLocation(location);
  // The document's own URI: its `$self` (a string; resolved against where it came from), else where it came from.
  let uri = place;
  if (typeof self === "string") uri = place === undefined ? self : resolved(place, self);
  return {
    description,
    location: place,
    self: uri?.split("#", 1)[0],
    ids: undefined,
    swagger: swagger
      ? { operations: new Map(), servers: new Map(), contents: new Map(), lists: new Map(), bodyTypes: new Map() }
      : undefined,
    schemes: isPlainObject(schemes) ? schemes : {},
    refs: new Map(),
    plans: new Map(),
    operations: [new Map(), new Map()],
    methods: new Map(),
    bodies: [new Map(), new Map()],
    answers: new Map(),
    nodeIds: new Map(),
    servers: new Map(),
    shapes: new Map(),
    empties: new Map(),
    schemeOf: new Map(),
    securityOf: new Map(),
    names: new Map(),
    own: { baseUrl: endpoint.DEFAULTS.baseUrl, accept: endpoint.DEFAULTS.headers.accept },
  };
}

/** Where a description was retrieved from: an absolute HTTP URL (`response.url`), else a TypeError naming it. */
function checkLocation(location: unknown): string {
  if (typeof location !== "string" || !/^https?:\/\/[^/?#]/i.test(location) || NOT_IN_URL.test(location)) {
    fail(
      `withOpenAPI()'s option \`url\` must be the absolute HTTP URL the description came from, not ${quote(String(location))}`,
    );
  }
  checkAuthority(location, "withOpenAPI()'s option `url`");
  return location;
}

/** A description node's own property: never one it inherits (`constructor`, `__proto__`, `toString`). */
const ownField = (node: object, key: string): unknown => {
  const value = (node as Json)[key];
  // Most keys asked for are absent: only a value found is asked whether it is the node's own.
  return value !== undefined && hasOwn(node, key) ? value : undefined;
};

/**
 * A `$ref` as this document writes a pointer into itself (`#/…`) where it names this document: a fragment alone, or
 * a URI that, resolved against the document's own (3.2's `$self`, else where it was retrieved from), is that URI.
 * Another document's is left as it is: it names nothing here (none is ever fetched).
 */
function localRef({ self }: Context, ref: string): string {
  const hash = ref.indexOf("#");
  if (hash <= 0 || self === undefined) return ref;
  const document = ref.slice(0, hash);
  const same = authorityOf(self) ? resolved(self, document) === self : document === self;
  return same ? ref.slice(hash) : ref;
}

/**
 * A `$ref`'s target, following a chain of them; each pointer is followed once per description, so a thousand
 * references to one long pointer cost one walk of it. A chain that comes back to itself names nothing. A pointer is
 * a URI fragment (RFC 6901): its tokens percent-decoded, then `~1` is `/` and `~0` is `~`; own properties only.
 */
function lookUp(context: Context, first: string): unknown {
  const { refs, description } = context;
  const chain: string[] = [];
  let ref = first;
  let target: unknown;
  for (;;) {
    if (refs.has(ref)) {
      target = refs.get(ref);
      break;
    }
    // Marked while followed: a chain that reaches it again ends there, naming nothing.
    refs.set(ref, undefined);
    chain.push(ref);
    // Made local once per reference written: a long `$self` is compared once, not once per use.
    const pointer = localRef(context, ref);
    target = pointer.startsWith("#/") ? description : undefined;
    for (const token of pointer.startsWith("#/") ? pointer.slice(2).split("/") : []) {
      let key = token;
      try {
        key = decodeURIComponent(token);
      } catch {}
      key = key.replace(/~1/g, "/").replace(/~0/g, "~");
      target = target !== null && typeof target === "object" ? ownField(target, key) : undefined;
    }
    const next = isPlainObject(target) ? ownField(target, "$ref") : undefined;
    if (typeof next !== "string") break;
    ref = next;
  }
  for (const link of chain) refs.set(link, target);
  return target;
}

/**
 * A node with its `$ref` followed: `undefined` when absent. Where it is not an object or its `$ref` names nothing,
 * `undefined` too without `at` (a schema that names nothing allows any shape, as none does), else a TypeError naming
 * `at` (the place in the description) and the `$ref`.
 */
function resolve(context: Context, node: unknown, at?: string): Json | undefined {
  const ref = isPlainObject(node) ? ownField(node, "$ref") : undefined;
  const target = typeof ref === "string" ? lookUp(context, ref) : node;
  if (isPlainObject(target) || node === undefined || at === undefined) {
    return isPlainObject(target) ? target : undefined;
  }
  if (typeof ref === "string") {
    fail(`${at}: $ref ${quote(ref)} names ${/^[^#]/.test(localRef(context, ref)) ? "another document" : "nothing"}`);
  }
  return mustBe(at, "an object", node);
}

/** A number for a node or record, the same each time: what a key made of several of them is written with. */
function nodeId({ nodeIds }: Context, node: object): number {
  if (!nodeIds.has(node)) nodeIds.set(node, nodeIds.size);
  return nodeIds.get(node)!;
}

/** An entry of a list or map that must be an object (a JSON-built one may hold `undefined`): resolved, else refused. */
const needed = (context: Context, node: unknown, at: string): Json =>
  resolve(context, node, at) ?? mustBe(at, "an object", node);

/** A node's own property resolved (see `resolve()`), or `{}` when absent. */
const resolvedField = (context: Context, node: Json, key: string, at: string): Json =>
  resolve(context, ownField(node, key), `${at}: \`${key}\``) ?? {};

/** A success response's status: `200`, `2XX`. */
const SUCCESS = /^2(\d\d|XX)$/i;

/** Kinds of media type: a range (`*∕*`, `application/*+json`), which names no type to send; forms; JSON Patch. */
const RANGE = /\*/;
const FORM_TYPE = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;
const MULTIPART = /^multipart\//i;
const JSON_PATCH = /^application\/json-patch\+json\s*(;|$)/i;
/** 3.2's sequential JSON media types: JSON Lines, NDJSON, JSON Text Sequences (`+json-seq` too); a list goes as one. */
const SEQUENTIAL = /^application\/(jsonl|x-ndjson|json-seq|[\w.-]+\+json-seq)\s*(;|$)/i;
/** Whether a body's media type is sequential: a lookup, not a match, where a body is sent on every call. */
const isSequence = /* @__PURE__ */ cached((type) => SEQUENTIAL.test(type), 100);

/**
 * The keys of a `content` that are media types (`type/subtype` of RFC 9110 tokens, then parameters, which go into a
 * header as they are written: in ASCII, which fetch sends), in its order, trimmed. One that is not (`form-data`,
 * `examples`, where a schema was meant) cannot be sent or asked for and is left out, but a body of nothing else is
 * refused, as is any that holds a control character or a `,`, which would start another header or another type.
 */
function mediaTypes(content: Json, at: string, body?: boolean): string[] {
  const listed = Object.keys(content);
  const types = listed.filter((type) => asMediaType(type, at, true));
  if (body && listed.length && !types.length) asMediaType(listed[0]!, at);
  return types;
}

/** A media type as it is sent (see `mediaTypes()`); else, or where `lenient`, `""` for one that is only not one. */
function asMediaType(text: string, at: string, lenient?: boolean): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
  const breaks = /[\0-\x1f\x7f,]/.test(text);
  const ascii = /^[\x20-\x7e]*$/.test(text);
  if (!breaks && ascii && /^\s*[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+\s*$/.test(text.split(";", 1)[0]!)) {
    return text.trim();
  }
  return lenient && !breaks ? "" : fail(`${at}: ${quote(text)} is not a media type`);
}

/** What a body of a media type is labelled: none for multipart, which fetch labels with its boundary. */
const labelFor = /* @__PURE__ */ cached((type): string | undefined => {
  if (MULTIPART.test(type)) return undefined;
  return /^application\/json\s*$/i.test(type) ? JSON_TYPE : type;
}, 100);

// --- 8.4 Swagger 2.0: one adapter, the only code that knows it ------------------------------------------------------
// Each 2.0 node an operation needs is turned, when the operation is first read, into the 3.0 node that says the same
// (the server from `host`, `basePath` and `schemes`; a request body from `in: body` or `in: formData` and `consumes`;
// responses' media types from `produces`; styles from `collectionFormat`; `basic` as HTTP's), which the 3.x readers
// then read. No second walk of the document, and nothing in it changed.

/**
 * Whether a description is Swagger 2.0 (else OpenAPI 3.x, or one that does not say, read as 3.x); a TypeError naming
 * what it is where it is neither: Swagger 1.2, another version, or 2.0's root fields with no version to say so.
 */
function isSwagger(description: Json, what: string): boolean {
  const legacy = ownField(description, "swaggerVersion");
  const version = ownField(description, "swagger");
  const openapi = ownField(description, "openapi");
  if (legacy !== undefined) {
    fail(`${what} is Swagger ${quote(String(legacy))}: only Swagger 2.0 and OpenAPI 3.x are read`);
  }
  // YAML reads an unquoted `swagger: 2.0` as the number 2.
  if (version !== undefined && ((version !== "2.0" && version !== 2) || openapi !== undefined)) {
    fail(`${what} says \`swagger: ${quote(String(version))}\`: only Swagger "2.0" is read, without \`openapi\``);
  }
  if (openapi !== undefined && !/^3\./.test(String(openapi))) {
    fail(`${what} is OpenAPI ${quote(String(openapi))}: only 3.x is read`);
  }
  const marker =
    version === undefined &&
    openapi === undefined &&
    ["host", "basePath", "schemes", "consumes", "produces", "definitions", "securityDefinitions"].find((key) =>
      hasOwn(description, key),
    );
  if (marker) {
    fail(`${what} has Swagger 2.0's \`${marker}\` but no \`swagger: "2.0"\` (or \`openapi\`) to say what it is`);
  }
  return version !== undefined;
}

/** 2.0's `securityDefinitions` as 3.0's `securitySchemes`: `basic` is HTTP's Basic; `apiKey` and `oauth2` say the same. */
function swaggerSchemes(description: Json): Json {
  const definitions = ownField(description, "securityDefinitions");
  const schemes: Json = Object.create(null);
  if (!isPlainObject(definitions)) return schemes;
  for (const name of Object.keys(definitions)) {
    const node = definitions[name];
    schemes[name] =
      isPlainObject(node) && ownField(node, "type") === "basic" ? { type: "http", scheme: "basic" } : node;
  }
  return schemes;
}

/**
 * A 2.0 path item and operation as the 3.0 operation that says the same, with what it inherits: the path item's
 * parameters (each overridden by the operation's of its name and place), its path, query and header ones typed by
 * their own `type`, its `in: body` or `in: formData` ones as its `requestBody`; its responses' media types from
 * `produces`; its server; the description's `security` where it has none.
 */
function swaggerOperation(context: Context, item: Json, operation: Json): Json {
  const made = context.swagger!.operations;
  let byItem = made.get(operation);
  if (!byItem) {
    byItem = new Map();
    made.set(operation, byItem);
  }
  return once(byItem, item, () => adaptOperation(context, item, operation));
}

/** A 2.0 operation made into its 3.0 node (see `swaggerOperation()`). */
function adaptOperation(context: Context, item: Json, operation: Json): Json {
  const parameters: Json[] = [];
  const sent = new Map<string, Json>();
  for (const node of [item, operation]) {
    const list = ownField(node, "parameters") ?? [];
    if (!Array.isArray(list)) mustBe("`parameters`", "a list", list);
    list.forEach((raw, i) => {
      const found = needed(context, raw, `parameter ${i}`);
      const where = ownField(found, "in");
      if (where === "body" || where === "formData") sent.set(where + ":" + ownField(found, "name"), found);
      else parameters.push(swaggerParameter(found, `parameter ${i}`));
    });
  }
  const produces = mediaList(context, operation, "produces");
  const { contents } = context.swagger!;
  let content = contents.get(produces);
  if (!content) {
    content = Object.fromEntries(produces.map((type) => [type, {}]));
    contents.set(produces, content);
  }
  const responses: Json = {};
  const given = resolve(context, ownField(operation, "responses"), "`responses`") ?? {};
  for (const status of Object.keys(given)) {
    const response = SUCCESS.test(status) && resolve(context, given[status], `\`responses\`: ${status}`);
    // Without a `schema`, 2.0 says no content.
    if (response && ownField(response, "schema") !== undefined) responses[status] = { content };
  }
  const server = swaggerServer(context, operation);
  return {
    operationId: ownField(operation, "operationId"),
    parameters,
    requestBody: swaggerBody(context, operation, [...sent.values()]),
    responses,
    servers: server ? [server] : [],
    security: ownField(operation, "security") ?? ownField(context.description, "security"),
  };
}

/**
 * A 2.0 operation's `consumes` or `produces`: its own (`[]` clears the description's), else the description's; each
 * list checked once, however many operations inherit it.
 */
function mediaList(context: Context, operation: Json, key: string): string[] {
  const list = ownField(operation, key) ?? ownField(context.description, key) ?? NO_TYPES;
  return once(context.swagger!.lists, list, () => {
    if (!Array.isArray(list)) mustBe(`\`${key}\``, "a list of media types", list);
    const wrong = list.find((type) => typeof type !== "string");
    if (wrong !== undefined) fail(`\`${key}\`: ${quote(String(wrong))} is not a media type`);
    return list;
  });
}

/** No media types: what a 2.0 operation consumes or produces when neither it nor the description says. */
const NO_TYPES: string[] = [];

/** 2.0's `collectionFormat`s as 3.0 styles; `tsv` has none in 3.0, so it is `tabDelimited`, read only by 8.8. */
const COLLECTIONS = new Map<unknown, [string, boolean]>([
  ["csv", ["form", false]],
  ["multi", ["form", true]],
  ["ssv", ["spaceDelimited", false]],
  ["pipes", ["pipeDelimited", false]],
  ["tsv", ["tabDelimited", false]],
]);

/**
 * A 2.0 list parameter's `collectionFormat` (`csv` where it says none) as a 3.0 `style` and `explode`. 3.0 has no
 * style for a delimited list in a path or header, nor for a list in a list of another format: those are refused.
 */
function collectionStyle(node: Json, where: unknown, at: string) {
  if (ownField(node, "type") !== "array") return undefined;
  const format = ownField(node, "collectionFormat") ?? "csv";
  const items = ownField(node, "items");
  const found =
    COLLECTIONS.get(format) ?? fail(`${at}: \`collectionFormat\` ${quote(String(format))} is not one of 2.0's`);
  // A list of lists joins each inner list by its own format, `csv` where it says none: 3.0 writes one format.
  if (
    isPlainObject(items) &&
    ownField(items, "type") === "array" &&
    (ownField(items, "collectionFormat") ?? "csv") !== format
  ) {
    fail(`${at}: 3.0 has no style for a list in a list of another \`collectionFormat\``);
  }
  if (where === "query" || where === "formData") return { style: found[0], explode: found[1] };
  if (format !== "csv") fail(`${at}: \`collectionFormat: ${format}\` has no 3.0 style in a ${where} parameter`);
  return { style: "simple", explode: false };
}

/** Whether a 2.0 parameter, or its list's items, is a file. */
function isFileField(node: Json): boolean {
  const items = ownField(node, "items");
  return ownField(node, "type") === "file" || (isPlainObject(items) && ownField(items, "type") === "file");
}

/** A 2.0 path, query or header parameter as a 3.0 one: its own `type`, `format` and `items` are its schema. */
function swaggerParameter(node: Json, at: string): Json {
  const where = ownField(node, "in");
  if (isFileField(node)) fail(`${at}: \`type: file\` is for \`in: formData\` parameters alone`);
  const [name, required, allowEmptyValue] = ["name", "required", "allowEmptyValue"].map((key) => ownField(node, key));
  return { name, in: where, required, allowEmptyValue, schema: node, ...collectionStyle(node, where, at) };
}

/**
 * A 2.0 operation's `in: body` parameter, or its `in: formData` ones, as a 3.0 `requestBody`: the body's schema for
 * each type `consumes` lists (JSON where it lists none), or the fields as an object's properties, each list's
 * `collectionFormat` its Encoding Object's style, for each form type `consumes` lists; multipart where a field is a
 * file and it lists none, else URL-encoded. `undefined` for no such parameter.
 */
function swaggerBody(context: Context, operation: Json, sent: Json[]): Json | undefined {
  if (!sent.length) return undefined;
  const consumes = bodyTypes(context, mediaList(context, operation, "consumes"));
  if (sent.length > 1 && sent.some((node) => ownField(node, "in") !== "formData")) {
    fail("`in: body` beside another `in: body` or `in: formData`: 3.0 has one request body");
  }
  let types = consumes.length ? consumes : ["application/json"];
  let media: Json = { schema: ownField(sent[0]!, "schema") };
  if (ownField(sent[0]!, "in") === "formData") {
    const properties: Json = {};
    const encoding: Json = {};
    for (const node of sent) {
      const name = ownField(node, "name");
      if (typeof name !== "string") continue;
      put(properties, name, node);
      // A list of files is a part per file: no `collectionFormat` joins files.
      const style = isFileField(node) ? undefined : collectionStyle(node, "formData", `form field ${quote(name)}`);
      if (style) put(encoding, name, style);
    }
    types = consumes.filter((type) => FORM_TYPE.test(type));
    if (sent.some(isFileField) && !types.some((type) => MULTIPART.test(type))) types.push("multipart/form-data");
    if (!types.length) types.push("application/x-www-form-urlencoded");
    media = { schema: { type: "object", properties }, encoding };
  }
  const required = sent.some((node) => ownField(node, "required") === true);
  return { required, content: Object.fromEntries(types.map((type) => [type, media])) };
}

/** What a body's plan chooses a media type by (see `bodyPlan()`): any, no range, JSON, a list's, an object's, forms. */
const CHOICES: ((type: string) => boolean)[] = [
  () => true,
  (type) => !RANGE.test(type),
  isJson,
  (type) => isJson(type) || SEQUENTIAL.test(type),
  (type) => isJson(type) && !JSON_PATCH.test(type),
  (type) => FORM_TYPE.test(type) && !MULTIPART.test(type),
  (type) => MULTIPART.test(type),
];

/**
 * The media types of a 2.0 `consumes` list that a body's plan may choose, in order: the first of each kind it
 * chooses by. A list of thousands that every operation inherits so costs each operation a handful; the requests are
 * the same.
 */
function bodyTypes(context: Context, list: string[]): string[] {
  return once(context.swagger!.bodyTypes, list, () => {
    const valid = list.filter((type) => asMediaType(type, "`consumes`", true));
    if (!valid.length) return list.slice(0, 1);
    const chosen = new Set(CHOICES.map((choice) => valid.findIndex((type) => choice(type.trim()))));
    return valid.filter((_, i) => chosen.has(i));
  });
}

/** A path without its trailing slashes, sliced once: a million of them cost one pass. */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === "/") end--;
  return path.slice(0, end);
}

/** A 2.0 root field of text, held to `valid`: else a TypeError naming it. */
function rootText(value: unknown, valid: RegExp, at: string, what: string): string {
  if (typeof value !== "string") mustBe(at, what, value);
  if (!valid.test(value)) fail(`${at}: ${quote(value)} is not ${what}`);
  return value;
}

/**
 * A 2.0 operation's server, one node per `schemes` list: `https` where `schemes` (the operation's, else the
 * description's) lists it or says nothing, else `http`; then `host` and `basePath`. Without a `host` (2.0's "the host
 * serving the documentation", which only the caller knows), `basePath` alone: a relative server, under the caller's
 * `baseUrl`.
 */
function swaggerServer(context: Context, operation: Json): Json | undefined {
  const own = ownField(operation, "schemes");
  return once(context.swagger!.servers, own, () =>
    adaptServer(context, own ?? ownField(context.description, "schemes") ?? []),
  );
}

/** A 2.0 server made for a `schemes` list (see `swaggerServer()`). */
function adaptServer(context: Context, schemes: unknown): Json | undefined {
  const { description } = context;
  const host = ownField(description, "host");
  // `//` would make it a host: a path it is, even where there is no `host` before it.
  let path = rootText(ownField(description, "basePath") ?? "", /^(?!\/\/)[^?#{}]*$/, "`basePath`", "a path");
  if (host !== undefined) {
    const text = rootText(host, /^[\w-]+(\.[\w-]+)*(:\d{1,5})?$/, "`host`", "a host name and port");
    if (+(text.split(":")[1] ?? 0) > 65535) fail(`\`host\` ${quote(text)} has a port over 65535`);
  }
  if (!Array.isArray(schemes)) mustBe("`schemes`", "a list", schemes);
  const scheme = schemes.includes("https") || !schemes.length ? "https" : "http";
  if (!schemes.includes(scheme) && schemes.length) fail('`schemes` lists neither "https" nor "http"');
  if (path && path[0] !== "/") path = "/" + path;
  path = withoutTrailingSlashes(path);
  const url = host === undefined ? path : `${scheme}://${host}${path}`;
  return url ? { url } : undefined;
}

// --- 8.5 The plan of an operation: its parameters, path, body and answers -------------------------------------------

/** The methods a path item has a field for; 3.2's `query` is RFC 10008's QUERY. */
const METHOD = /^(get|put|post|delete|options|head|patch|trace|query)$/;

/**
 * A path item's operations, each by its method in lowercase: its fixed fields', then 3.2's `additionalOperations`,
 * whose keys are methods as they are sent (see `operationNode()`).
 */
function operationsOf(item: Json): [method: string, node: unknown][] {
  const found: [string, unknown][] = Object.keys(item)
    .filter((key) => METHOD.test(key))
    .map((key) => [key, item[key]]);
  const additional = ownField(item, "additionalOperations");
  if (!isPlainObject(additional)) return found;
  return found.concat(Object.keys(additional).map((key) => [key.toLowerCase(), additional[key]]));
}

/**
 * A path item's operation for a method (lowercase): a fixed field, else an `additionalOperations` key, which is the
 * method as it is to be sent. A call's result says its method in lowercase and `toFetch()` sends it uppercase, so a
 * key is refused unless it is a token in uppercase (`PURGE`, not `Purge`), and so is one a fixed field already has
 * (`GET`). The refusal is the second element, for the operation's first call to raise.
 */
function operationNode(context: Context, item: Json, method: string): [node: unknown, refusal: string | undefined] {
  const additional = ownField(item, "additionalOperations");
  let methods = isPlainObject(additional) ? context.methods.get(additional) : undefined;
  if (isPlainObject(additional) && !methods) {
    // Each map's keys by their method in lowercase, once: a path item of many is not scanned once per call.
    methods = new Map();
    for (const found of Object.keys(additional)) {
      // A key in uppercase wins over a twin in another case, which is then never one a call names.
      if (!methods.has(found.toLowerCase()) || found === found.toUpperCase()) methods.set(found.toLowerCase(), found);
    }
    context.methods.set(additional, methods);
  }
  const key = methods?.get(method);
  const at = `\`additionalOperations\`: ${quote(key ?? "")}`;
  if (METHOD.test(method)) {
    return [ownField(item, method), key === undefined ? undefined : `${at} is the method of the \`${method}\` field`];
  }
  if (key === undefined) return [undefined, undefined];
  // CONNECT and TRACK are no operation fetch sends (it forbids them): refused too.
  const wrong = !TOKEN.test(key) || key !== key.toUpperCase() || /^(CONNECT|TRACK)$/.test(key);
  return [
    (additional as Json)[key],
    wrong ? `${at} is no method in uppercase that fetch sends (as a request would send it)` : undefined,
  ];
}
/**
 * Headers that frame the message or its connection, or are a proxy's (RFC 9110 sections 7.6.1, 7.8, 10.1.1, 11.7):
 * the caller's and fetch's alone, never a parameter's or a credential's.
 */
const FRAMING = /^(host|content-length|transfer-encoding|connection|expect|upgrade|keep-alive|te|trailer|proxy-.*)$/i;

/**
 * `read()` kept under `key`, or the TypeError it raised (naming `route` where given), raised again: each part of a
 * description is read once, however many operations share it.
 */
function once<T>(map: Map<unknown, T | TypeError>, key: unknown, read: () => T, route?: string): T {
  if (!map.has(key)) {
    let found: T | TypeError;
    try {
      found = read();
    } catch (error) {
      // Only the library's own are a description's faults: any other error is no answer to keep.
      if (!(error instanceof TypeError) || !error.message.startsWith("endpoint-options: ")) throw error;
      // The readers name the node at fault; the operation is named here, once.
      found = route ? new TypeError(error.message.replace(": ", `: ${quote(route)}: `)) : error;
    }
    map.set(key, found);
  }
  const found = map.get(key);
  if (found instanceof TypeError) throw found;
  return found as T;
}

/**
 * The route an `operationId` names, `"METHOD /path"` (the method of an `additionalOperations` key as written); none for
 * a path key, or a route that starts with `/`: those are paths. An id two operations share is refused, naming them.
 */
function operationRoute(context: Context, id: string): string | undefined {
  if (id.startsWith("/") || ownField(context.description.paths, id) !== undefined) return undefined;
  context.ids ??= operationIds(context);
  const routes = context.ids.get(id);
  if (routes && routes.length > 1) {
    fail(`operationId ${quote(id)} names ${routes.length} operations: ${routes.slice(0, 3).map(quote).join(", ")}`);
  }
  return routes?.[0];
}

/**
 * Each `operationId` of the operations of the description's paths (not of its callbacks or webhooks: requests the API
 * sends, not calls), with the routes that have it; read once, when a call first names one.
 */
function operationIds(context: Context): Map<string, string[]> {
  const ids = new Map<string, string[]>();
  const { paths } = context.description;
  for (const path of Object.keys(paths)) {
    const item = resolve(context, paths[path]);
    for (const [method, node] of item ? operationsOf(item) : []) {
      const operation = resolve(context, node);
      const id = operation && ownField(operation, "operationId");
      if (typeof id !== "string" || id.startsWith("/") || /\s/.test(id)) continue;
      const routes = ids.get(id) ?? [];
      routes.push(`${method.toUpperCase()} ${path}`);
      ids.set(id, routes);
    }
  }
  return ids;
}

/**
 * An operation's plan, read strictly when it is first called, and kept (see `once()`). A route the description lacks
 * is refused without keeping anything: a caller's strings cannot grow the map.
 */
function planOf(context: Context, method: string, path: string): Plan {
  const id = method + " " + path;
  const known = context.plans.get(id);
  if (known instanceof TypeError) throw known;
  if (known) return known;
  const route = `${method.toUpperCase()} ${path}`;
  const raw = ownField(context.description.paths, path);
  const item = raw === undefined ? raw : resolve(context, raw, `path ${quote(path)}`);
  const [node, refusal] = item ? operationNode(context, item, method) : [];
  if (node === undefined) fail(`route ${quote(route)} is not in the description`);
  return once(
    context.plans,
    id,
    () => {
      if (refusal) fail(refusal);
      const read = resolve(context, node, "the operation")!;
      // What the 3.x readers read: the operation, then what it inherits from, its path item and the description.
      const nodes = context.swagger
        ? [swaggerOperation(context, item!, read), {}, {}]
        : [read, item!, context.description];
      return readPlan(context, route, method, path, nodes as [Json, Json, Json]);
    },
    route,
  );
}

/**
 * An operation node read, with its path item's parameters, as any path that has it needs it: once per node (see
 * `OperationPlan`), so that a thousand paths whose operations `$ref` one node read it once.
 */
function operationOf(context: Context, get: boolean, [operation, item, root]: [Json, Json, Json]): OperationPlan {
  const byNode = context.operations[+get]!;
  let byList = byNode.get(operation);
  if (!byList) {
    byList = new Map();
    byNode.set(operation, byList);
  }
  return once(byList, ownField(item, "parameters"), () => {
    const keys = new Map<string, number[]>(NAMED_OPTIONS.map((name) => [name, OPTION]));
    const parameters = readParameters(context, [item, operation], keys);
    const body = readBody(context, get, ownField(operation, "requestBody"));
    // A body property named like a named option may be a stranger's field too (see readParameters()).
    for (const name of body.options) if (keys.get(name) === OPTION) keys.set(name, CLASH);
    const [answers, accept] = successTypes(context, operation);
    const security = readSecurity(context, operation, root);
    const places = new Map<string, number>();
    const paths = new Map<string, number>();
    const queries = new Set<string>();
    parameters.forEach(({ in: where, name }, i) => {
      const place = where + ":" + (where === "header" ? name.toLowerCase() : name);
      if (security.places.has(place)) places.set(place, i);
      if (where === "path") paths.set(name, i);
      else if (where === "query") queries.add(name);
    });
    const id = ownField(operation, "operationId");
    return {
      parameters,
      keys,
      body,
      answers,
      accept,
      security,
      places,
      paths,
      queries,
      id: typeof id === "string" ? id : undefined,
    };
  });
}

/** An operation, its path item and the description, read into its plan: the operation's, and its path's own parts. */
function readPlan(context: Context, route: string, method: string, path: string, nodes: [Json, Json, Json]): Plan {
  const get = method === "get" || method === "head";
  const operation = operationOf(context, get, nodes);
  const [keyPath] = path.split(/[?#]/, 1) as [string];
  const [template, query, segments] = pathTemplate(path, operation);
  return {
    ...operation,
    route,
    method,
    get,
    rooted: path[0] === "/",
    asObject: !get && !operation.body.form,
    guard: !get && operation.paths.size > 0 && !keyPath.includes("//"),
    trailing: keyPath.endsWith("/"),
    path: template,
    query,
    segments,
    server: readServer(context, nodes),
    operation,
  };
}

/** A call's key that names a credential or a server value: a parameter of such a name is `"<in>:<name>"` alone. */
const RESERVED_KEY = /^(auth|server):/;

/** What `Plan.keys` says of a named option, of one a parameter is named like, and of a header name refused. */
const OPTION: number[] = [];
const CLASH: number[] = [];
const REFUSED: number[] = [];

/**
 * An operation's parameters: the path item's, each overridden by the operation's of its name and place (a Map keeps
 * the first one's place); and what each key of a call names (see `Plan.keys`).
 */
function readParameters(context: Context, nodes: Json[], keys: Map<string, number[]>): Param[] {
  const declared = new Map<string, Param>();
  for (const node of nodes) {
    const list = ownField(node, "parameters") ?? [];
    if (!Array.isArray(list)) mustBe("`parameters`", "a list", list);
    list.forEach((raw, i) => {
      const at = `${node === nodes[0] ? "the path's " : ""}parameter ${i}`;
      const parameter = readParameter(context, needed(context, raw, at), at, keys);
      if (parameter) declared.set(parameter.in + ":" + parameter.name, parameter);
    });
  }
  const parameters = [...declared.values()];
  const [whole, other] = parameters.filter((parameter) => parameter.in === "querystring");
  const query = parameters.find((parameter) => parameter.in === "query");
  // 3.2: a querystring is the whole query, so it is the only parameter there.
  if (whole && (other || query)) {
    fail(
      `querystring parameter ${quote(whole.name)} beside ${(other ? "querystring " : "query ") + quote((other ?? query)!.name)}`,
    );
  }
  parameters.forEach(({ name, key, in: where }, i) => {
    // A named option (or `data`) given where a parameter has its name may be a stranger's field, filled by the
    // description's own names: it never moves the request. Beside a route, `url` is a parameter already, and an
    // `"auth:"` or `"server:"` key is the caller's credential or server value, never a parameter's.
    if (key !== name && name !== "url" && !RESERVED_KEY.test(name)) keys.set(name, CLASH);
    for (const [text, slot] of [[where + ":" + name, 2 * i + 1] as const, [key, 2 * i] as const]) {
      // A parameter's key wins over a header name refused (a query `accept` is a name).
      const slots = keys.get(text);
      if (slots?.length) slots.push(slot);
      else keys.set(text, [slot]);
    }
  });
  return parameters;
}

/**
 * Whether a parameter's schema lists `""` among its values (`enum` or `const`, its own or an `anyOf`/`oneOf`
 * branch's): then `""` is a value the description means to be sent, as `allowEmptyValue` would say (Stripe's
 * `discounts`: "pass an empty string to avoid inheriting any discounts"). Read once per schema: many parameters share
 * one, and a long `enum` read for each would take time as their product.
 */
function listsEmpty(context: Context, schema: Json | undefined): boolean {
  let lists = schema && context.empties.get(schema);
  if (schema && lists === undefined) {
    const nodes = [schema, ...["anyOf", "oneOf"].flatMap((key) => [ownField(schema, key)].flat())];
    lists = nodes.some((node) => {
      const found = resolve(context, node);
      return found !== undefined && (ownField(found, "const") === "" || [ownField(found, "enum")].flat().includes(""));
    });
    context.empties.set(schema, lists);
  }
  return !!lists;
}

/**
 * A parameter as the description declares it, checked, with its defaults worked out; `undefined` for one without a
 * name, or a header it is not the description's to set: `Accept`, `Content-Type` and `Authorization` SHALL be ignored
 * (media types and credentials say them), and `FRAMING` is the caller's. A call's key naming one is refused: it would
 * otherwise go to the query or the body, a token in a URL.
 */
function readParameter(context: Context, found: Json, at: string, keys: Map<string, number[]>): Param | undefined {
  const name = ownField(found, "name");
  const where = ownField(found, "in");
  if (where !== "path" && where !== "query" && where !== "querystring" && where !== "header" && where !== "cookie") {
    const swagger = where === "body" || where === "formData" ? ', as Swagger 2.0 has it, without `swagger: "2.0"`' : "";
    fail(
      `${at}: \`in\` must be "path", "query", "querystring", "header" or "cookie", not ${quote(String(where))}${swagger}`,
    );
  }
  if (typeof name !== "string") return undefined;
  if (where === "header" && (/^(accept|content-type|authorization)$/i.test(name) || FRAMING.test(name))) {
    keys.set(name, REFUSED);
    return undefined;
  }
  if ((where === "header" || where === "cookie") && !TOKEN.test(name)) {
    fail(`${at}: ${where} name ${quote(name)} is not a token`);
  }
  const [style, explode, content] = ["style", "explode", "content"].map((key) => ownField(found, key));
  if (where === "querystring") return queryStringParameter(context, name, found, content, at);
  const schema = resolve(context, ownField(found, "schema"));
  let written = typeof style === "string" ? style : "simple";
  if (typeof style !== "string" && (where === "query" || where === "cookie")) written = "form";
  return {
    name,
    in: where,
    key: NAMED.has(name) || name === "data" || RESERVED_KEY.test(name) ? where + ":" + name : name,
    variable: encode(name, UNRESERVED, name),
    required: where === "path" || ownField(found, "required") === true,
    empty: ownField(found, "allowEmptyValue") === true || listsEmpty(context, schema),
    style: written,
    explode: typeof explode === "boolean" ? explode : written === "form" || written === "cookie",
    reserved: where === "query" && ownField(found, "allowReserved") === true,
    type: isPlainObject(content) ? Object.keys(content).find(isJson) : undefined,
    shape: isPlainObject(content) ? "any" : shapeOf(schema),
    date: schema !== undefined && ownField(schema, "format") === "date",
    fields: undefined,
  };
}

/**
 * 3.2's `in: "querystring"` parameter: the whole query string, written as the one media type of its `content` says
 * (a URL-encoded form by its Encoding Objects, as a form body is).
 */
function queryStringParameter(context: Context, name: string, found: Json, content: unknown, at: string): Param {
  const [type] = isPlainObject(content) ? mediaTypes(content, `${at}: \`content\``) : [];
  if (type === undefined) fail(`${at}: a querystring parameter's \`content\` must name its media type`);
  const media = resolve(context, (content as Json)[type], `${at}: ${quote(type)}`) ?? {};
  const form = FORM_TYPE.test(type) && !MULTIPART.test(type);
  return {
    name,
    in: "querystring",
    key: NAMED.has(name) || name === "data" || RESERVED_KEY.test(name) ? "querystring:" + name : name,
    variable: name,
    required: ownField(found, "required") === true,
    empty: false,
    style: "",
    explode: false,
    reserved: false,
    type,
    shape: "any",
    date: false,
    fields: form
      ? { encoding: fieldEncoding(context, media, at), shapes: schemaShapes(context, ownField(media, "schema")) }
      : undefined,
  };
}

/** The shape a schema's `type` allows (3.1's lists of types too, `null` aside); `any` where it says none. */
function shapeOf(schema: Json | undefined): Shape {
  const type = schema && ownField(schema, "type");
  const types = (Array.isArray(type) ? type : [type]).filter((name) => name !== "null");
  if (!types.length || !types.every((name) => typeof name === "string")) return "any";
  if (types.every((name) => /^(string|number|integer|boolean)$/.test(name))) return "primitive";
  return types.length === 1 && (types[0] === "array" || types[0] === "object") ? types[0] : "any";
}

/**
 * A path key as the RFC 6570 template of its path (`/pets/{;p0*}`), whether it keeps a literal query, and which path
 * parameters are a whole segment of it: each
 * `{name}` the expression of the path parameter it names, in its style; a literal query, less the pairs whose value
 * is a query parameter's placeholder (`?query={query}`: it writes its own pair); a `#fragment` only tells operations
 * apart. Every path parameter must have its placeholder (the specification: its name MUST be a template expression
 * of the path; one that is not would take a value and drop it, and `DELETE /pets` would act on the collection).
 */
function pathTemplate(path: string, { parameters, paths, queries }: OperationPlan): [Template, boolean, Set<number>] {
  const [key] = path.split("#", 1) as [string];
  let question = -1;
  // Where a "?" first stands outside `{…}`: a `?` in `{?q}` does not start a literal query.
  for (let i = 0, depth = 0; i < key.length && question < 0; i++) {
    if (key[i] === "{") depth++;
    else if (key[i] === "}") depth--;
    else if (key[i] === "?" && depth <= 0) question = i;
  }
  const keyPath = question < 0 ? key : key.slice(0, question);
  // A dot segment written in a key would take the request out of the path under the base (`/../../admin`).
  if (DOT_SEGMENT.test(keyPath)) fail("a path key holds a . or .. segment");
  const literal = (question < 0 ? [] : key.slice(question + 1).split("&")).filter((pair) => {
    const value = pair.slice(pair.indexOf("=") + 1);
    return !(pair.includes("=") && value[0] === "{" && value.endsWith("}") && queries.has(value.slice(1, -1)));
  });
  const placed = new Set<number>();
  const segments = new Set<number>();
  // One pass of a regular expression without nested quantifiers.
  const source = (keyPath + (literal.length ? "?" + literal.join("&") : "")).replace(
    /\{([^{}]*)\}/g,
    (match, name, at, text) => {
      const i = paths.get(name) ?? fail(`no path parameter ${quote(name)} for ${match}`);
      const parameter = parameters[i]!;
      let operator = parameter.style === "matrix" ? ";" : "";
      if (parameter.style === "label") operator = ".";
      const end = at + match.length;
      // Alone in its segment and written as it is, an empty value leaves the segment empty.
      if (!operator && at < keyPath.length && text[at - 1] === "/" && (end === keyPath.length || text[end] === "/")) {
        segments.add(i);
      }
      placed.add(i);
      return `{${operator}p${i}${parameter.explode || parameter.style === "deepObject" ? "*" : ""}}`;
    },
  );
  // One in the `#fragment` of a key that only tells operations apart is the description's to drop.
  const inFragment = new Set(Array.from(path.slice(key.length).matchAll(/\{([^{}]*)\}/g), (match) => match[1]));
  for (const [name, i] of paths) {
    if (!placed.has(i) && !inFragment.has(name)) fail(`no placeholder for the path parameter ${quote(name)}`);
  }
  return [compiledPath(source, parameters), literal.length > 0, segments];
}

/**
 * A path template compiled, its variables renamed from `p<index>` to the parameters'; `{?…}`, `{&…}` and `{#…}` end
 * the path, as a literal "?" or "#" does. An empty literal ends it: a path key is the URL as written, and expand()
 * drops a trailing `/` only from the last piece written.
 */
function compiledPath(source: string, parameters: Param[]): Template {
  const template = compile(source, false);
  let inPath = true;
  for (const part of template.parts) {
    inPath &&= typeof part === "string" ? !/[?#]/.test(part) : !/[?&#]/.test(part.first);
    if (typeof part === "string") continue;
    part.inPath = inPath;
    for (const variable of part.varspecs) variable.varname = parameters[+variable.varname.slice(1)]!.variable;
  }
  template.parts.push("");
  template.taken = new Set(NAMED_OPTIONS);
  return template;
}

/**
 * The properties a body's schema declares, its `allOf` parts' too, and the shape each allows. Each schema node is
 * visited once, from a list rather than by recursion: a schema whose `allOf` refers to itself, however often, and a
 * chain of them however long, cost their size; and each body's schema is read once, however many bodies share it.
 */
function schemaShapes(context: Context, root: unknown): Map<string, Shape> {
  const start = resolve(context, root);
  let shapes = context.shapes.get(start);
  if (shapes) return shapes;
  shapes = new Map<string, Shape>();
  context.shapes.set(start, shapes);
  const seen = new Set<Json>();
  const pending: unknown[] = [start];
  while (pending.length) {
    const schema = resolve(context, pending.pop());
    if (!schema || seen.has(schema)) continue;
    seen.add(schema);
    const properties = ownField(schema, "properties");
    if (isPlainObject(properties)) {
      for (const name of Object.keys(properties)) {
        if (!shapes.has(name)) shapes.set(name, shapeOf(resolve(context, properties[name])));
      }
    }
    const parts = ownField(schema, "allOf");
    if (Array.isArray(parts)) for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]);
  }
  return shapes;
}

/** How a form field is written that its Encoding Object does not style (see `writePairs()`). */
const UNSTYLED: Encoding = { style: "", explode: false, reserved: false, type: undefined };

/**
 * A form's Encoding Object, by property: a `style` or `explode` writes it as a query parameter of that style would
 * be (`form`, exploded, where only one is said); a part's `contentType` may list several types, and its header holds
 * one, the first.
 */
function fieldEncoding(context: Context, media: Json, at: string): Map<string, Encoding> {
  const encoding = new Map<string, Encoding>();
  const fields = resolvedField(context, media, "encoding", at);
  for (const name of Object.keys(fields)) {
    const where = `${at}: encoding ${quote(name)}`;
    const found = needed(context, fields[name], where);
    const [style, explode, type] = ["style", "explode", "contentType"].map((key) => ownField(found, key));
    const first = typeof type === "string" ? type.split(",", 1)[0]! : "";
    let written = typeof style === "string" ? style : "";
    if (!written && typeof explode === "boolean") written = "form";
    encoding.set(name, {
      style: written,
      explode: typeof explode === "boolean" ? explode : written === "form",
      reserved: false,
      type: first.trim() ? asMediaType(first, where) : undefined,
    });
  }
  return encoding;
}

/** No request body: what an operation without one reads as. */
const NO_BODY: Json = {};

/**
 * An operation's request body: its media types, whether required, a form's fields and encoding, and which type each
 * kind of value goes as (see `bodyType()`); for a GET or HEAD, which send none, only the properties it declares,
 * which a call cannot pass. Read once per Request Body Object, which many operations may share.
 */
function readBody(context: Context, get: boolean, node: unknown): BodyPlan {
  const at = "`requestBody`";
  const body = resolve(context, node, at) ?? NO_BODY;
  return once(context.bodies[+get]!, body, () => bodyPlan(context, get, body));
}

/** A Request Body Object read (see `readBody()`). */
function bodyPlan(context: Context, get: boolean, body: Json): BodyPlan {
  const at = "`requestBody`";
  const content = resolvedField(context, body, "content", at);
  const keys = mediaTypes(content, `${at}: \`content\``, true);
  const media = (key: string) => resolve(context, content[key], `${at}: ${quote(key)}`) ?? {};
  const schemas = [...new Set(keys.map((key) => schemaShapes(context, ownField(media(key), "schema"))))];
  const form = get ? undefined : keys.find((key) => FORM_TYPE.test(key.trim()));
  // For a GET: one media type's properties are its schema's, shared with every body that refers to it; several, merged.
  // Each schema once: many media types may share one.
  const each = get ? schemas : [];
  let shapes = each.length > 1 ? new Map(each.flatMap((found) => [...found])) : each[0];
  if (form) shapes = schemaShapes(context, ownField(media(form), "schema"));
  const types = get ? [] : keys.map((key) => key.trim()).filter((type) => !RANGE.test(type));
  const json = types.filter(isJson);
  const object = json.find((type) => !JSON_PATCH.test(type)) ?? json[0];
  const formType = types.find((type) => FORM_TYPE.test(type));
  const usual = object ?? formType ?? types[0];
  return {
    types,
    required: !get && ownField(body, "required") === true,
    shapes: shapes ?? new Map(),
    encoding: form ? fieldEncoding(context, media(form), `${at}: ${quote(form)}`) : new Map(),
    form: !json.length && formType !== undefined,
    list: types.find((type) => isJson(type) || SEQUENTIAL.test(type)),
    object,
    formType,
    multipart: types.find((type) => MULTIPART.test(type)),
    usual: usual === undefined ? usual : [usual, labelFor(usual)],
    options: NAMED_OPTIONS.filter((name) => name !== "url" && schemas.some((found) => found.has(name))),
  };
}

/**
 * What the operation answers with on success, JSON first, and the same as an accept header (`*∕*` for none): its 2xx
 * responses' media types. Kept by the contents they come from, which many operations may share.
 */
function successTypes(context: Context, operation: Json): [string[], string] {
  const responses = resolvedField(context, operation, "responses", "the operation");
  const contents: [Json, string][] = [];
  for (const status of Object.keys(responses)) {
    const at = `\`responses\`: ${status}`;
    const response = SUCCESS.test(status) && resolve(context, responses[status], at);
    if (response) contents.push([resolvedField(context, response, "content", at), `${at}: \`content\``]);
  }
  const key = contents.length === 1 ? contents[0]![0] : contents.map(([content]) => nodeId(context, content)).join();
  return once(context.answers, key, () => {
    const types = new Set<string>();
    for (const [content, at] of contents) for (const type of mediaTypes(content, at)) types.add(type.trim());
    const all = [...types];
    const sorted = [...all.filter(isJson), ...all.filter((type) => !isJson(type))];
    return [sorted, sorted.join(", ") || "*/*"];
  });
}

// --- 8.6 Servers: the server an operation goes to, its variables, the base URL of a call ----------------------------

/**
 * The server an operation goes to: the first of the first `servers` list that has one, of the operation, its path,
 * the description. Read once per Server Object, since every operation shares the description's.
 */
function readServer(context: Context, nodes: Json[]): Server | undefined {
  for (const node of nodes) {
    const servers = ownField(node, "servers");
    if (servers === undefined) continue;
    if (!Array.isArray(servers)) mustBe("`servers`", "a list of Server Objects", servers);
    if (!servers.length) continue;
    const [server] = servers;
    if (!isPlainObject(server)) mustBe("`servers`[0]", "a Server Object", server);
    let plan = context.servers.get(server);
    if (!plan) {
      plan = serverOf(context, server, "`servers`[0]");
      context.servers.set(server, plan);
    }
    return plan;
  }
  return undefined;
}

/** Characters a URL reference (RFC 3986) never holds as they are: a server's literal text must not either. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const NOT_IN_URL = /[\s"<>\\^`{|}\0-\x1f\x7f]/;

/** A piece of a path made of dots alone (`.`, `..`, `%2e`…), which URL parsers resolve: a way out of a base. */
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$)/i;

/**
 * A server's URL, split into literal pieces and variables, each variable classed by where it stands in the
 * template, whatever its default: before `://`, the scheme; between `//` and the first `/`, `?` or `#`, the host,
 * or the port after a `:`; after that, the path. A variable that ends the authority right after host or port text
 * (`https://api.example.com{basePath}`) starts the path: its value must start with `/`.
 */
function serverOf(context: Context, server: Json, at: string): Server {
  const url = ownField(server, "url");
  if (typeof url !== "string") mustBe(`${at}: \`url\``, "a string", url);
  const declared = resolvedField(context, server, "variables", at);
  const pieces: (string | ServerVariable)[] = [];
  const variables = new Map<string, ServerVariable>();
  const colon = url.indexOf("://");
  const scheme = colon > 0 && !/[/?#]/.test(url.slice(0, colon)) ? colon : -1;
  let authority = scheme < 0 ? -1 : scheme + 3;
  if (url.startsWith("//")) authority = 2;
  let part: ServerPart = authority < 0 ? "path" : "scheme";
  let last = 0;
  let origin: ServerVariable | undefined;
  const literal = (text: string) => {
    if (NOT_IN_URL.test(text)) fail(`${at}: ${quote(url)} is not a URL`);
    if (text) pieces.push(text);
  };
  for (const match of url.matchAll(/\{([^{}]*)\}/g)) {
    literal(url.slice(last, match.index));
    part = partAfter(part, url, last, match.index, authority);
    const end = match.index + match[0].length;
    // One character either side, not the text: a thousand variables cost a thousand looks.
    if ((part === "host" || part === "port") && /\w/.test(url[match.index - 1]!) && /^[/?#]?$/.test(url[end] ?? "")) {
      part = "fromRoot";
    }
    // Right after an origin variable, with no `/` between, the authority may still be open: a path from `/`.
    if (pieces[pieces.length - 1] === origin && part === "path") part = "fromRoot";
    // A variable that starts the URL, before any `://`, is the whole origin (`{server}/v1`).
    if (match.index === 0 && authority < 0) part = "origin";
    const variable = serverVariable(context, declared, match[1]!, part, at);
    variables.set(variable.name, variable);
    pieces.push(variable);
    if (part === "origin") origin = variable;
    if (part === "fromRoot" || part === "origin") part = "path";
    last = end;
  }
  literal(url.slice(last));
  checkServerUrl(url, scheme, authority, at);
  // With an origin variable, the value (the description's default or `enum`) tells whether it is absolute.
  return { url, pieces, variables, absolute: origin ? undefined : authority >= 0 };
}

/**
 * A server URL as written, refused where it is no HTTP URL reference: an absolute one with another scheme written
 * out (`ws:`, `file:`) or no host (`https://`); a relative one holding a query, a fragment or a dot segment, which
 * would take the request out of the path under the caller's base URL.
 */
function checkServerUrl(url: string, scheme: number, authority: number, at: string): void {
  let wrong = authority >= 0 && (url[authority] === undefined || "/?#".includes(url[authority]!));
  if (scheme >= 0 && !url.slice(0, scheme).includes("{")) wrong ||= !/^https?$/i.test(url.slice(0, scheme));
  // A relative one whose first segment holds a `:` (`http:evil.example`) is no relative reference (RFC 3986, 4.2):
  // a URL parser would read a scheme in it.
  if (authority < 0) wrong ||= /[?#]/.test(url) || /^[^/{]*:/.test(url);
  if (wrong) fail(`${at}: ${quote(url)} is not an HTTP URL, or a path`);
  if (!url.slice(0, authorityOf(url)?.[1]).includes("{")) checkAuthority(url, at);
}

/** The part of a server URL that position `end` is in, from `part` at `start` and the literal text between. */
function partAfter(part: ServerPart, url: string, start: number, end: number, authority: number): ServerPart {
  for (let i = start; i < end; i++) {
    const char = url[i];
    if (i === authority) part = "host";
    if (part === "path" || part === "scheme") continue;
    if (char === "/" || char === "?" || char === "#") part = "path";
    else if (char === "@") part = "host";
    else if (char === ":" && part === "host") part = "port";
  }
  if (part === "scheme" && end >= authority) part = "host";
  return part;
}

/**
 * What a description's own value (a default, an `enum`) may be for the part of a server URL a variable fills:
 * looser than a caller's (a host may hold dots, a path slashes), but never a way into another part: no `/`, `@`,
 * `:` or `?` in a host, only digits in a port, no dot segment, `?` or `#` in a path.
 */
const DESCRIBED_VALUES: Record<ServerPart, RegExp> = {
  origin: /^(https?:\/\/[\w.-]+(:\d{1,5})?)?(\/[^?#\s]*)?$/i,
  scheme: /^https?$/i,
  host: /^[\w.-]+$/,
  port: /^\d{1,5}$/,
  path: /^[^?#\s]*$/,
  fromRoot: /^(\/[^?#\s]*)?$/,
};

/** A server variable as the description declares it: its default and its `enum`, as text. */
function serverVariable(context: Context, declared: Json, name: string, part: ServerPart, at: string): ServerVariable {
  const where = `${at}: variable ${quote(name)}`;
  const node = resolve(context, ownField(declared, name), where) ?? {};
  const fallback = ownField(node, "default");
  const choices = ownField(node, "enum");
  if (choices !== undefined && !Array.isArray(choices)) mustBe(`${where}: \`enum\``, "a list", choices);
  const described = (value: unknown) => {
    const text = asText(value, `server:${name}`);
    const dots = part !== "host" && part !== "port" && part !== "scheme" && DOT_SEGMENT.test(text);
    if (dots || !DESCRIBED_VALUES[part].test(text)) fail(`${where}: ${quote(text)} cannot stand in the ${part}`);
    return text;
  };
  return { name, part, fallback: fallback == null ? undefined : described(fallback), choices: choices?.map(described) };
}

/** What a caller's value for a server variable must be, by the part of the URL it fills. */
const SERVER_VALUES: Record<ServerPart, [RegExp, string]> = {
  origin: [/(?!)/, "its default or one of its `enum` (set `baseUrl` for another origin)"],
  // The scheme decides whether a request, credentials and all, is encrypted: the description's alone.
  scheme: [/(?!)/, "its default or one of its `enum`"],
  host: [/^[a-z\d-]{1,63}$/i, "a DNS label (letters, digits and hyphens)"],
  port: [/^\d{1,5}$/, "a port number"],
  path: [/^(?!\.\.?$)./s, "a path segment other than . and .."],
  fromRoot: [/^(\/(?!\.\.?(\/|$))[^/]*)*$/, 'a path starting with "/", without . or .. segments'],
};

/**
 * A caller's value for a server variable, checked and encoded for its place: one of its `enum` where it declares
 * one (written as the description writes them), else a DNS label for a host, a port number, a path segment
 * (percent-encoded), a path from `/`.
 */
function serverValue({ name, part, choices, fallback }: ServerVariable, value: unknown, url: string): string {
  const text = asText(sendable(value, `server:${name}`), `server:${name}`);
  const bad = (what: string) =>
    fail(`server variable ${quote(name)} must be ${what} in ${quote(url)}, not ${quote(text)}`);
  if (choices) {
    if (!choices.includes(text)) bad(`one of ${choices.map((choice) => quote(choice)).join(", ")}`);
    return encode(text, RESERVED, name, "server variable");
  }
  // An origin or a scheme is the description's to choose: only its default, or an `enum` above, is taken.
  if ((part === "origin" || part === "scheme") && text === fallback) {
    return encode(text, RESERVED, name, "server variable");
  }
  const [allowed, expected] = SERVER_VALUES[part];
  if (!allowed.test(text) || (part === "port" && +text > 65535)) bad(expected);
  if (part !== "fromRoot") return encode(text, part === "path" ? UNRESERVED : RESERVED, name, "server variable");
  return text
    .split("/")
    .map((segment) => encode(segment, UNRESERVED, name, "server variable"))
    .join("/");
}

/** Where a URL's authority stands, after `scheme://` or a leading `//`; `undefined` for a path. */
function authorityOf(url: string): [start: number, end: number] | undefined {
  const start = /^([a-z][\w+.-]*:)?\/\//i.exec(url)?.[0].length;
  if (start === undefined) return undefined;
  let end = start;
  while (end < url.length && !"/?#".includes(url[end]!)) end++;
  return [start, end];
}

/**
 * A path with its `.` and `..` segments removed (RFC 3986, section 5.2.4), `%2e` read as a dot: a `..` at its root
 * stays there, so the path never climbs above it.
 */
function withoutDots(path: string): string {
  const kept: string[] = [];
  const segments = path.split("/");
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    // `%2e` is a dot to the URL parser, which would resolve it later: resolved here, within the path.
    const dots = segment.length <= 6 ? segment.toLowerCase().replace(/%2e/g, ".") : segment;
    if (dots === "..") {
      if (kept.length > 1) kept.pop();
      if (last) kept.push("");
    } else if (dots === ".") {
      if (last) kept.push("");
    } else kept.push(segment);
  });
  return kept.join("/");
}

/**
 * A reference (`.`, `./test`, `../v2/`, `/api/v3`, a URL) resolved against an absolute URL by RFC 3986, section 5.2:
 * a path merged with the base's and its dot segments removed, so never above the base's origin; its query and
 * fragment left out.
 */
function resolved(base: string, reference: string): string {
  if (/^[a-z][\w+.-]*:/i.test(reference)) return reference;
  const [start, end] = authorityOf(base)!;
  if (reference.startsWith("//")) return base.slice(0, start - 2) + reference;
  const path = base.slice(end).split(/[?#]/, 1)[0]!;
  const merged = reference[0] === "/" ? reference : (path ? path.slice(0, path.lastIndexOf("/") + 1) : "/") + reference;
  return base.slice(0, end) + withoutDots(merged.split(/[?#]/, 1)[0]!);
}

/** A host (a name, or an IPv6 address in brackets) and maybe a port: no user info, which fetch refuses. */
const AUTHORITY = /^(\[[\da-f:.]+\]|[\w.~%-]+)(:\d{1,5})?$/i;

/** A server URL's authority, where it has one, is a host a request can go to, and a port up to 65535. */
function checkAuthority(url: string, at: string): void {
  const [start, end] = authorityOf(url) ?? [0, -1];
  const port = AUTHORITY.exec(url.slice(start, end))?.[2] ?? "";
  if (end >= 0 && (!AUTHORITY.test(url.slice(start, end)) || +port.slice(1) > 65535)) {
    fail(`${at}: ${quote(url)} names no host and port a request can go to`);
  }
}

/**
 * The host a URL names is not an IP address (nor a number the WHATWG URL parser reads as one, `2130706433`,
 * `0x7f000001`) where a caller's value helped make it: a description may name one, a stranger's value may not.
 */
function checkHost(url: string, variable: string): void {
  const [start, end] = authorityOf(url)!;
  let host = url.slice(start, end);
  host = host.slice(host.lastIndexOf("@") + 1);
  if (host[0] !== "[") host = host.split(":", 1)[0]!;
  const labels = host.endsWith(".") ? host.slice(0, -1).split(".") : host.split(".");
  if (host[0] === "[" || /^(0x[\da-f]*|\d+)$/i.test(labels[labels.length - 1]!)) {
    fail(`server variable ${quote(variable)} makes the host ${quote(host)}, an IP address`);
  }
  // One label that names this machine is as far from the description's host as an IP address.
  if (/^localhost$/i.test(labels.join("."))) fail(`server variable ${quote(variable)} makes the host "localhost"`);
}

/**
 * A server's URL with its variables filled: the caller's values (see serverValue()), else the defaults. What it
 * names must be a host, and a caller's value for the path must stand in the path: after an origin variable, or
 * where an empty one leaves `//`, the authority may not have ended where the template's text suggests.
 */
function fillServer(server: Server, values: Map<string, unknown>): string {
  let url = "";
  let inHost: string | undefined;
  let inPath: [start: number, name: string] | undefined;
  for (const piece of server.pieces) {
    if (typeof piece === "string") {
      url += piece;
      continue;
    }
    const value = values.get(piece.name);
    if (value == null) {
      if (piece.fallback === undefined) {
        fail(`server ${quote(server.url)} has no default for {${piece.name}}: pass "server:${piece.name}"`);
      }
      url += encode(piece.fallback, RESERVED, piece.name, "server variable");
      continue;
    }
    if (piece.part === "host") inHost = piece.name;
    if (!piece.choices && (piece.part === "path" || piece.part === "fromRoot")) inPath ??= [url.length, piece.name];
    url += serverValue(piece, value, server.url);
  }
  if (server.pieces.length > 1 || typeof server.pieces[0] === "object") {
    checkAuthority(url, `server ${quote(server.url)}`);
  }
  if (inHost !== undefined) checkHost(url, inHost);
  if (inPath && inPath[0] < (authorityOf(url)?.[1] ?? 0)) {
    fail(`server variable ${quote(inPath[1])} would stand in the host of ${quote(server.url)}, not its path`);
  }
  return url;
}

/**
 * The base URL of a call: the server's, variables filled, unless the caller set one. A relative server goes under
 * the caller's; with no server, the caller's. Either without one is refused: the library's own GitHub default is no
 * server of the description's, and a request (with its credentials) must not go there unasked.
 */
function serverBase(context: Context, plan: Plan, baseUrl: unknown, values: Map<string, unknown>): SplitBase {
  const { server } = plan;
  const { location } = context;
  const set = baseUrl !== undefined && baseUrl !== context.own.baseUrl;
  const absolute = server && (server.absolute ?? /^([a-z][\w+.-]*:)?\/\//i.test(fillServer(server, values)));
  // 3.2: a relative server is relative to where the description was retrieved from, when that is known.
  const own = absolute || (server && location !== undefined);
  const filled = server && !absolute ? fillServer(server, values) : "";
  // A relative one whose values make a scheme (`h{v}`, `ttp:evil.example`) is no relative reference: never resolved.
  if (/^[^/]*:/.test(filled)) fail(`server ${quote(server!.url)} makes ${quote(filled)}, which is no HTTP URL or path`);
  if (own && !set) {
    const url = absolute ? fillServer(server!, values) : resolved(location!, filled);
    return splitBase(url.startsWith("//") ? "https:" + url : url);
  }
  if (!set) {
    const what = server ? `its server ${quote(server.url)} is relative` : "its description names no server";
    fail(`${quote(plan.route)}: ${what}: set \`baseUrl\`, or withOpenAPI()'s \`url\``);
  }
  const base = checkBase(baseUrl);
  if (!server || own) return base;
  // Its own `.` and `..` resolved within it: never above the base URL you set.
  const path = withoutTrailingSlashes(withoutDots("/" + filled.replace(/^\//, "")));
  return [base[0] + path, base[1], base[2]];
}

/**
 * The names of the variables of every server a call may go to (the first of each `servers` list: of the description,
 * its paths and operations), as their URLs write them, for `"server:"` keys: what `reduceOpenAPI()` keeps.
 */
function serverNames(context: Context): Set<string> {
  const { description } = context;
  const names = new Set<string>();
  const add = (node: unknown) => {
    const servers = isPlainObject(node) ? ownField(node, "servers") : undefined;
    const url = Array.isArray(servers) && isPlainObject(servers[0]) ? ownField(servers[0], "url") : undefined;
    if (typeof url === "string") for (const [, name] of url.matchAll(/\{([^{}]*)\}/g)) names.add(name!);
  };
  add(description);
  for (const path of Object.keys(description.paths)) {
    const item = resolve(context, description.paths[path]);
    add(item);
    for (const [, node] of item ? operationsOf(item) : []) add(resolve(context, node));
  }
  return names;
}

// --- 8.7 Credentials: schemes, requirements, choosing and placing ---------------------------------------------------

/** A Security Scheme Object read: its `type`, and `in` and `name` or `scheme`, checked (see `Scheme`). */
function readScheme(context: Context, name: string): Scheme {
  const at = `security scheme ${quote(name)}`;
  const node = resolve(context, ownField(context.schemes, name), at);
  if (!node) fail(`${at} is not declared`);
  const type = ownField(node, "type");
  const sends = (place: Scheme["in"], field: string, prefix: string): Scheme => ({ name, in: place, field, prefix });
  if (type === "oauth2" || type === "openIdConnect") return sends("header", "authorization", "Bearer");
  if (type === "mutualTLS") return sends("none", "", "");
  if (type === "http") {
    const scheme = ownField(node, "scheme");
    if (typeof scheme !== "string" || !TOKEN.test(scheme)) fail(`${at}: \`scheme\` is not an auth-scheme`);
    // RFC 9110: auth-schemes are case-insensitive; Basic and Bearer are written as their RFCs write them.
    const known = /^(basic|bearer)$/i.test(scheme);
    return sends("header", "authorization", known ? scheme[0]!.toUpperCase() + scheme.slice(1).toLowerCase() : scheme);
  }
  if (type !== "apiKey") {
    fail(
      `${at}: \`type\` must be "apiKey", "http", "oauth2", "openIdConnect" or "mutualTLS", not ${quote(String(type))}`,
    );
  }
  const where = ownField(node, "in");
  const key = ownField(node, "name");
  if (where !== "header" && where !== "query" && where !== "cookie") {
    fail(`${at}: \`in\` must be "header", "query" or "cookie", not ${quote(String(where))}`);
  }
  // A header or cookie name is a token, and no header the library, the caller or fetch writes (see `FRAMING`); a query
  // name is percent-encoded as any other.
  const named = typeof key === "string" && key !== "" && (where === "query" || TOKEN.test(key));
  if (!named || (where === "header" && (FRAMING.test(key) || /^(accept|content-type|user-agent)$/i.test(key)))) {
    fail(`${at}: ${quote(String(key))} is no ${where} name for a credential`);
  }
  return sends(where, where === "header" ? key.toLowerCase() : key, "");
}

/**
 * A scheme read once (see `readScheme()`). One the description gets wrong is kept with its fault, which a call that
 * gives credentials meets: a call that gives none sends none (the caller wires them), and needs no scheme.
 */
function schemeFor(context: Context, name: string): Scheme {
  try {
    return once(context.schemeOf, name, () => readScheme(context, name));
  } catch (error) {
    const fault = (error as TypeError).message.slice("endpoint-options: ".length);
    return { name, in: "none", field: "", prefix: "", fault };
  }
}

/** No security: what an operation without requirements needs. */
const NO_SECURITY: Security = { alternatives: [], places: new Set(), query: false, fault: undefined };

/**
 * The security an operation needs: its own `security` list (`[]` needs none), else the description's. Each list is
 * read once, and each scheme once: a thousand operations sharing the description's thousand alternatives cost a
 * thousand, not a million.
 */
function readSecurity(context: Context, operation: Json, root: Json): Security {
  const own = ownField(operation, "security");
  const list = own ?? ownField(root, "security");
  if (list === undefined) return NO_SECURITY;
  const at = own === undefined ? "the description's `security`" : "`security`";
  return once(context.securityOf, list, () => {
    if (!Array.isArray(list)) mustBe(at, "a list of Security Requirement Objects", list);
    const places = new Set<string>();
    let fault: string | undefined;
    // Array.from() visits a hole too, as `undefined`: refused as any other non-object.
    const alternatives = Array.from(list, (requirement: unknown, i) => {
      if (!isPlainObject(requirement)) mustBe(`${at}: requirement ${i}`, "an object", requirement);
      return Object.keys(requirement).map((name) => {
        const scheme = schemeFor(context, name);
        places.add(scheme.in + ":" + scheme.field);
        fault ??= scheme.fault;
        return scheme;
      });
    });
    return { alternatives, places, query: [...places].some((place) => place.startsWith("query:")), fault };
  });
}

/** The names of a cookie header's pairs, or of a query's (percent-encoded): split by `separator`. */
function pairNames(text: unknown, separator: string): Set<string> {
  if (typeof text !== "string") return new Set();
  return new Set(text.split(separator).map((pair) => pair.split("=", 1)[0]!.trim()));
}

/**
 * Whether the caller fills a scheme's place: a header they set, a cookie of theirs, a parameter given in its place,
 * or a query pair of that name (`names` reads the cookies' and the query's once, however many schemes ask). The one
 * answer to it.
 */
function callerFills(
  plan: Plan,
  { in: where, field }: Scheme,
  headers: Json,
  call: Call | undefined,
  names: (where: "cookie" | "query") => Set<string>,
): boolean {
  if (where === "header" && ownField(headers, field) !== undefined) return true;
  if (where === "cookie" && names(where).has(field)) return true;
  const i = plan.places.get(where + ":" + field);
  const given = call?.given;
  if (i !== undefined && given !== undefined && (given[2 * i] ?? given[2 * i + 1]) !== undefined) return true;
  return where === "query" && !!call && names(where).has(encode(field, UNRESERVED, field));
}

/** Text as base64 of its UTF-8 bytes, as RFC 7617 sends a user and password; a lone surrogate (no UTF-8) refused. */
function base64(text: string, key: string): string {
  encode(text, UNRESERVED, key, "credential");
  const globals = globalThis as Json;
  let binary = "";
  for (const byte of new globals.TextEncoder().encode(text) as Uint8Array) binary += String.fromCharCode(byte);
  return globals.btoa(binary);
}

/** RFC 6750's token68, which a bearer token is: one or more of these characters, then any `=` padding. */
const TOKEN68 = /^[\w.~+/-]+=*$/;
/**
 * What a header's value may hold (RFC 9110's field-value, as fetch takes it): tab, space, visible ASCII and Latin-1.
 * A control character, a character beyond U+00FF or a lone surrogate has no place in a header fetch sends.
 */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** RFC 6265's cookie-octets: what a cookie's value holds unquoted. */
const COOKIE_OCTETS = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;

/**
 * A credential checked for its scheme, as it is sent, as its RFC has it: `Basic` a user and password without control
 * characters, the user without `:` (RFC 7617); a bearer token a token68 (RFC 6750); a cookie's value cookie-octets
 * (RFC 6265); any other text without CR, LF or NUL, which would end its header. No lone surrogate anywhere. Never
 * quoted in a message: it is a secret.
 */
function credentialText({ name, in: where, prefix }: Scheme, value: unknown): string {
  const key = quote("auth:" + name);
  if (prefix === "Basic") {
    const { username, password } = (isPlainObject(value) ? value : {}) as Json;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
    const control = /[\0-\x1f\x7f]/;
    if (
      typeof username !== "string" ||
      typeof password !== "string" ||
      /:/.test(username) ||
      control.test(username + password)
    ) {
      fail(`${key} must be { username, password }: two strings without control characters, the user name without ":"`);
    }
    return "Basic " + base64(username + ":" + password, "auth:" + name);
  }
  if (typeof value !== "string" || /[\r\n\0]/.test(value)) fail(`${key} must be a string without CR, LF or NUL`);
  if (prefix === "Bearer" && !TOKEN68.test(value)) {
    fail(`${key} must be a bearer token: letters, digits, -._~+/ and = at its end`);
  }
  if (where === "cookie" && !COOKIE_OCTETS.test(value)) fail(`${key} holds a character no cookie holds`);
  if (where === "header" && !FIELD_VALUE.test(value)) fail(`${key} holds a character no header holds`);
  return prefix ? prefix + " " + value : value;
}

/** No credentials: what a call sends that needs none, or gave none. */
const NO_CREDENTIALS: Credentials = { headers: [], query: "", cookie: "", fills: [], error: undefined };

/** A credential's text put in its scheme's place: a header, a query pair or a cookie. */
function placeCredential(chosen: Credentials, plan: Plan, scheme: Scheme, text: string): void {
  const { in: where, field } = scheme;
  if (where === "header") chosen.headers.push([field, text]);
  else if (where === "cookie") chosen.cookie += (chosen.cookie && "; ") + field + "=" + text;
  else {
    const pair = encode(field, UNRESERVED, field) + "=" + encode(text, UNRESERVED, "auth:" + scheme.name, "credential");
    chosen.query += (chosen.query && "&") + pair;
  }
  const index = plan.places.get(where + ":" + field);
  if (index !== undefined) chosen.fills.push(index);
}

/**
 * What a call sends for its operation's security, from the credentials `given` (the defaults' and the call's): none
 * where it needs none, and none where none was given, for credentials the caller wires themselves (a browser's
 * cookie session, a token a fetch wrapper adds) are theirs. Else those of the first alternative whose every scheme
 * is met (a credential given, a place the caller fills, or mutual TLS), one per place (the scheme listed first writes
 * it), none where the caller fills the place; where none is met, the alternatives named, at most five.
 */
function chooseCredentials(
  plan: Plan,
  given: Map<string, unknown>,
  headers: Json,
  call?: Call,
  choices?: Map<Security, Scheme[] | undefined>,
): Credentials {
  const { alternatives } = plan.security;
  if (!alternatives.length || !given.size) return NO_CREDENTIALS;
  const read = new Map<string, Set<string>>();
  const names = (where: "cookie" | "query") => {
    let found = read.get(where);
    if (!found) {
      found =
        where === "cookie"
          ? pairNames(ownField(headers, "cookie"), ";")
          : pairNames(`${call!.query}&${call!.pairs}`, "&");
      read.set(where, found);
    }
    return found;
  };
  const filled = (scheme: Scheme) => callerFills(plan, scheme, headers, call, names);
  // `null` is no credential, as it is no value for a parameter: a call may unset one the defaults give.
  const met = (scheme: Scheme) => {
    if (scheme.fault !== undefined) fail(`${quote(plan.route)}: ${scheme.fault}`);
    return scheme.in === "none" || given.get(scheme.name) != null || filled(scheme);
  };
  // Without a call, the choice is the same for every operation of one list: made once (see `apiFor()`).
  const alternative = choices?.has(plan.security)
    ? choices.get(plan.security)
    : alternatives.find((schemes) => schemes.every(met));
  choices?.set(plan.security, alternative);
  if (!alternative) {
    const named = alternatives
      .slice(0, 5)
      .map((schemes) => schemes.map(({ name }) => quote("auth:" + name)).join(" with "));
    if (alternatives.length > 5) named.push(`${alternatives.length - 5} more`);
    return { ...NO_CREDENTIALS, error: `${quote(plan.route)} needs credentials: ${named.join(", or ")}` };
  }
  const chosen: Credentials = { headers: [], query: "", cookie: "", fills: [], error: undefined };
  const written = new Set<string>();
  for (const scheme of alternative) {
    const place = scheme.in + ":" + scheme.field;
    if (scheme.in === "none" || written.has(place) || filled(scheme)) continue;
    written.add(place);
    placeCredential(chosen, plan, scheme, credentialText(scheme, given.get(scheme.name)));
  }
  return chosen;
}

/** Headers with a call's credentials (none in a place the caller set), a cookie beside theirs. */
function addCredentials(headers: Json, { headers: pairs, cookie }: Credentials): void {
  for (const [name, text] of pairs) put(headers, name, text);
  if (cookie) headers.cookie = headers.cookie ? headers.cookie + "; " + cookie : cookie;
}

// --- 8.8 Values: checked, shaped, and written where they go ---------------------------------------------------------

/**
 * A value that is neither a list nor a plain object, checked for a text form: a `Date` as ISO 8601 (`YYYY-MM-DD`
 * where `date`), else one with a text form of its own (a `URL`); a `Map`, a `Blob`, an object whose text is
 * `[object …]` are refused, naming `name`.
 */
function opaque(value: object, name: string, date: boolean): unknown {
  if (tagOf(value) === "[object Date]") {
    const time = (value as Date).getTime();
    if (Number.isNaN(time)) fail(`parameter ${quote(name)} is an invalid Date`);
    const text = (value as Date).toISOString();
    return date ? text.slice(0, 10) : text;
  }
  asText(value, name);
  return value;
}

/**
 * A value as it can be sent: checked all through for a text form (see `opaque()`), lists and plain objects walked,
 * copied only where a `Date` in them changes. A cycle is refused in linear time: the walk goes down it as soon as
 * it meets it, so the depth bound ends it before anything beside it is walked twice.
 */
function sendable(value: unknown, name: string, date = false, depth = 0): unknown {
  if (typeof value !== "object" || value === null) {
    if (typeof value === "symbol" || typeof value === "function") asText(value, name);
    // `NaN` and `Infinity` are no number an API reads: refused rather than sent as their names.
    if (typeof value === "number" && !Number.isFinite(value)) fail(`parameter ${quote(name)} is not a finite number`);
    return value;
  }
  const list = Array.isArray(value);
  if (!list && !isPlainObject(value)) return opaque(value, name, date);
  if (depth > MAX_DEPTH) fail(`parameter ${quote(name)} is nested too deeply, or holds itself`);
  const keys = list ? undefined : Object.keys(value);
  const count = keys ? keys.length : (value as unknown[]).length;
  let changed: Record<string, unknown> | unknown[] | undefined;
  for (let i = 0; i < count; i++) {
    const key = keys ? keys[i]! : i;
    const item = (value as Record<string | number, unknown>)[key];
    // Text, the commonest item, has nothing to check.
    const done = typeof item === "string" ? item : sendable(item, name, date, depth + 1);
    if (done === item) continue;
    changed ??= list ? [...(value as unknown[])] : shallowCopy(value as Record<string, unknown>);
    put(changed as Record<string, unknown>, String(key), done);
  }
  return changed ?? value;
}

/**
 * A value as JSON text, or a TypeError naming `what`: a cycle, a `BigInt`, a `Map`, a `Blob`, a symbol, `NaN` or
 * `Infinity` (which JSON would write as `null`), an invalid `Date` (whose `toJSON()` gives `null`) have none.
 */
function jsonOf(value: unknown, what: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, function (this: Record<string, unknown>, key, item) {
      const kind = typeof item;
      const other = kind === "object" && item !== null && !Array.isArray(item) && !isPlainObject(item);
      if (kind === "symbol" || kind === "function" || (other && typeof item.toJSON !== "function")) throw 0;
      if ((kind === "number" && !Number.isFinite(item)) || (item === null && this[key] != null)) throw 0;
      return item;
    });
  } catch {}
  return text ?? fail(`${what} has no JSON form`);
}

/** Whether a value is undefined in RFC 6570's sense: none, an empty list or object, or one of nothing but null. */
function isAbsent(value: unknown): boolean {
  if (value == null) return true;
  if (typeof value !== "object") return false;
  if (Array.isArray(value)) return value.every((item) => item == null);
  return isPlainObject(value) && Object.keys(value).every((key) => value[key] == null);
}

/**
 * A value held to the shape its schema's `type` allows: a list or object for a primitive, and a primitive for an
 * object, are refused; a primitive for a list is a list of one, as users write it.
 */
function shaped(shape: Shape, value: unknown, what: string, name: string, route: string): unknown {
  if (shape === "any") return value;
  const list = Array.isArray(value);
  const compound = list || isPlainObject(value);
  const at = () => `${what} ${quote(name)} of ${quote(route)}`;
  if (shape === "primitive" && compound) fail(`${at()} must be one value, not ${list ? "a list" : "an object"}`);
  if (shape === "object" && (list || !compound)) fail(`${at()} must be an object`);
  return shape === "array" && !compound ? [value] : value;
}

/**
 * Parameter `i`'s value from the call, checked (a JSON one as its text), or `undefined` when absent: `""` is absent
 * from a query where the parameter does not say `allowEmptyValue` (3.0 and 2.0: it defaults to false, so the pair is
 * not sent). A required one absent, or a whole path segment made empty for a method that changes things, refused.
 */
function parameterValue(plan: Plan, i: number, value: unknown): unknown {
  const parameter = plan.parameters[i]!;
  const { key, required, shape, type } = parameter;
  const kind = typeof value;
  // Text, a number or a boolean, for a parameter of one value or any: nothing to walk or shape (the commonest).
  const one = kind === "string" || kind === "number" || kind === "boolean";
  const plain = one && value !== "" && (kind !== "number" || Number.isFinite(value));
  if (plain && !type && (shape === "primitive" || shape === "any")) return value;
  const empty = value === "" && parameter.in === "query" && !parameter.empty && !type;
  if (empty || isAbsent(value)) {
    if (required) fail(`parameter ${quote(key)} is required by ${quote(plan.route)}${empty ? ", and not empty" : ""}`);
    return undefined;
  }
  // A querystring is written whole, by its media type (see `queryString()`).
  if (type) {
    return parameter.in === "querystring" ? value : jsonOf(value, `parameter ${quote(key)} of ${quote(plan.route)}`);
  }
  value = shaped(shape, sendable(value, key, parameter.date), "parameter", key, plan.route);
  if (value === "" && !plan.get && plan.segments.has(i)) {
    fail(`parameter ${quote(key)} of ${quote(plan.route)} is empty: the request would act on the path without it`);
  }
  return value;
}

/**
 * At most this many characters of pairs from one value: the bracket form writes each leaf's whole path of keys, so
 * a megabyte key over a thousand leaves would write a gigabyte. No server takes a URL of 16 MB.
 */
const MAX_WRITTEN = 2 ** 24;

/** A value whose pairs would pass MAX_WRITTEN, refused. */
const tooLarge = (name: string): never =>
  fail(`parameter ${quote(name)} writes over ${MAX_WRITTEN} characters of pairs`);

/**
 * Takes one name-value pair of a query, a cookie header or a form; an unexploded list's, or object's, as its items'
 * texts and the `delimiter` that joins them.
 */
type AddPair = (name: string, value: unknown, delimiter?: string) => void;

/**
 * A value nested in lists and objects in the bracket form `qs`, Rails and Stripe read, pair by pair: `name[key]`,
 * `name[0]`, `name[0][key]`, each with a value that is not a list or object. `null` and `undefined` are left out.
 * A cycle is refused: the walk goes down it first, so the depth bound ends it in linear time (see `sendable()`).
 */
function bracketPairs(name: string, value: unknown, add: AddPair, depth = 0): void {
  if (typeof value !== "object" || value === null || !(Array.isArray(value) || isPlainObject(value))) {
    if (value != null) add(name, value);
    return;
  }
  if (depth > MAX_DEPTH) fail(`parameter ${quote(name)} is nested too deeply, or holds itself`);
  // A list by index: for-in over an array is several times slower in V8.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) bracketPairs(name + "[" + i + "]", value[i], add, depth + 1);
    return;
  }
  for (const key of Object.keys(value)) bracketPairs(name + "[" + key + "]", value[key], add, depth + 1);
}

const isListOrObject = (value: unknown) => Array.isArray(value) || isPlainObject(value);

/**
 * Whether a list or object holds another: a value no OpenAPI style writes but deepObject's brackets. A list is
 * read as it is (a call asks this of every list value it writes; Object.values() would copy it).
 */
function isNested(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(isListOrObject);
  return isPlainObject(value) && Object.values(value).some(isListOrObject);
}

/** An item as the text of its pair: text as it is, an object as JSON text, anything else as `sendable()` checks it. */
function pairText(item: unknown, name: string): string {
  if (typeof item === "string") return item;
  return isPlainObject(item) ? jsonOf(item, `form field ${quote(name)}`) : asText(sendable(item, name), name);
}

/** What joins an unexploded list's items in a delimited style; the others join them with `,`. */
const DELIMITERS = new Map([
  ["spaceDelimited", " "],
  ["pipeDelimited", "|"],
  ["tabDelimited", "\t"],
]);

/**
 * A value as name-value pairs, as OpenAPI's style table writes a query parameter and a cookie, and a form field its
 * Encoding Object styles: one value one pair; exploded, a list a pair per item and an object a pair per property;
 * else one pair, the items (an object's keys and values) joined by `,`, or by the delimited styles' space, pipe or
 * tab; `deepObject`, and a value nested deeper than its style writes, in the bracket form (see `bracketPairs()`). A
 * form field its Encoding Object does not style, as the 3.1.1 defaults have it: a list a pair per item, any other
 * value one pair. The one writer of pairs: `add` percent-encodes them for a query, or appends them to a form.
 */
function writePairs(name: string, value: unknown, { style, explode }: Encoding, add: AddPair): void {
  const list = Array.isArray(value);
  if (!style && list) for (const item of value) add(name, item);
  else if (!style || !(list || isPlainObject(value))) add(name, value);
  else if (style === "deepObject" || isNested(value)) bracketPairs(name, value, add);
  else {
    const delimiter = DELIMITERS.get(style) ?? ",";
    const items = list
      ? value.filter((item) => item != null)
      : Object.entries(value as Json).filter((entry) => entry[1] != null);
    if (!explode) {
      const texts = (list ? items : items.flat()).map((item) => pairText(item, name));
      add(name, texts, delimiter);
    } else if (list) for (const item of items) add(name, item);
    else for (const [key, item] of items as [string, unknown][]) add(key, item);
  }
}

/**
 * Pairs of a value (see `writePairs()`) added to `text` (a query's, joined by `&`, or a cookie header's, by `; `), each
 * name and value percent-encoded: an unexploded list's items each, joined by a `,` as it is or by a delimited style's
 * space, pipe or tab escaped. `allowReserved` keeps reserved characters, but not the three a query cannot hold as
 * they are: `#` would end it, `[` and `]` belong to hosts.
 */
function queryPairs(text: string, name: string, value: unknown, encoding: Encoding, separator: string): string {
  const keep = encoding.reserved ? RESERVED : UNRESERVED;
  const percent = (item: string) => encode(item, keep, name);
  writePairs(name, value, encoding, (pair, item, delimiter) => {
    if (item == null) return;
    let escaped =
      delimiter === undefined
        ? percent(pairText(item, pair))
        : (item as string[]).map(percent).join(delimiter === "," ? delimiter : percent(delimiter));
    if (keep === RESERVED) escaped = escaped.replace(/[#[\]]/g, encodeURIComponent);
    text += (text && separator) + encode(pair, UNRESERVED, pair) + "=" + escaped;
    if (text.length > MAX_WRITTEN) tooLarge(name);
  });
  return text;
}

/** A space or comma, then a cookie's `name=`: where a lenient parser starts another pair. Linear: no runs overlap. */
const COOKIE_PAIR = /[\s,][\w!#$%&'*+.^`|~-]+=/;

/**
 * 3.2's `style: "cookie"`: a value's pairs as `form` writes them, joined by `; `, neither percent-encoded nor decoded
 * (Appendix D): the caller escapes what a cookie cannot hold. A pair's name that is no token, or a value holding `;`
 * or a character no header holds (CR, LF, NUL…), is refused: a stranger's value never adds a cookie or a header.
 */
function cookiePairs(text: string, name: string, value: unknown, encoding: Encoding): string {
  writePairs(name, value, encoding, (pair, item, delimiter) => {
    if (item == null) return;
    const written = delimiter === undefined ? pairText(item, pair) : (item as string[]).join(delimiter);
    // A space or comma before `name=` is another pair to lenient parsers (RFC 2109's, Python's): refused as `;` is.
    if (!TOKEN.test(pair) || written.includes(";") || !FIELD_VALUE.test(written) || COOKIE_PAIR.test(written)) {
      fail(`cookie parameter ${quote(name)}: the pair ${quote(pair)} holds what no cookie holds as it is`);
    }
    text += (text && "; ") + pair + "=" + written;
  });
  return text;
}

/**
 * A header parameter's value as `simple` writes it, not percent-encoded: one value as its text, a list's items and
 * an object's keys and values (`key=value` pairs where exploded) comma-joined, nulls left out.
 */
function headerText({ explode, key }: Param, value: unknown): string {
  let text: string;
  if (!isPlainObject(value)) text = asText(Array.isArray(value) ? value.filter((item) => item != null) : value, key);
  else {
    const entries = Object.entries(value).filter(([, item]) => item != null);
    text = asText(explode ? entries.map((entry) => entry.join("=")) : entries.flat(), key);
  }
  return FIELD_VALUE.test(text) ? text : fail(`header parameter ${quote(key)} holds a character no header holds`);
}

/** No values: what a template expands when a call gives none. */
const NONE: Json = {};

// --- 8.9 Bodies: the media type a body goes as, forms, sequences, and a querystring written as a media type ----------

/** A surrogate that is not half of a pair: UTF-8 has no bytes for it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether text has no lone surrogate: ES2024's `isWellFormed()` where the engine has it (a form checks every pair). */
const wellFormed = (text: string): boolean =>
  typeof (text as { isWellFormed?: unknown }).isWellFormed === "function"
    ? (text as unknown as { isWellFormed(): boolean }).isWellFormed()
    : !LONE_SURROGATE.test(text);

/** A file a form part holds: a `Blob` (a `File`), or bytes (an `ArrayBuffer`, a typed array, a Node `Buffer`). */
const isFile = (value: unknown): boolean =>
  // Text, the commonest field, is no file: answered without a tag (forms write a pair per field).
  typeof value === "object" &&
  value !== null &&
  !isPlainObject(value) &&
  (isBlob(value) || ArrayBuffer.isView(value) || tagOf(value) === "[object ArrayBuffer]");

/** Whether a property holds a file, or a list holding one (a loop, not `some()`: this runs for every body property). */
function holdsFile(value: unknown): boolean {
  if (!Array.isArray(value)) return isFile(value);
  for (let i = 0; i < value.length; i++) if (isFile(value[i])) return true;
  return false;
}

/**
 * For a form, `data` given whole as an object becomes its fields; a `FormData`, a `URLSearchParams`, or a URL-encoded
 * form's text stays the whole body (a multipart one's text needs a boundary only fetch writes).
 */
function formFields({ body, route }: Plan, call: Call, type: string): void {
  const { whole } = call;
  if (whole === undefined || isForm(whole) || (typeof whole === "string" && !MULTIPART.test(type))) return;
  if (!isPlainObject(whole)) {
    mustBe(`option \`data\` of ${quote(route)}`, "an object of form fields, a FormData or form text", whole);
  }
  for (const name of Object.keys(whole)) addField(call, body.form, name, whole[name], false);
  call.whole = undefined;
}

/**
 * The media type a call's body goes as: the caller's `content-type`, where they set one, so that the body is written
 * as it is labelled; else by the value: a whole `FormData` as multipart and a whole `URLSearchParams` as URL-encoded
 * where listed (else as the form the operation takes); fields holding a file as multipart (refused where none is
 * listed); a list as the first JSON type, an object as the first JSON type but JSON Patch (which holds a list); else
 * a form, else the first type listed. A form's fields given whole in `data` (an object) become fields first, and a
 * `url` beside the route a field; `data` beside `"body:"` keys is refused.
 */
function bodyType(plan: Plan, call: Call, label: unknown): string | undefined {
  const { body, route } = plan;
  const given = typeof label === "string" ? label : undefined;
  const form = given === undefined ? body.form : FORM_TYPE.test(given);
  if (call.loose && call.whole !== undefined) {
    fail(`option \`data\` is the whole body: ${quote(route)} takes no "body:" keys beside it`);
  }
  if (form) formFields(plan, call, given ?? body.formType!);
  const { whole, file } = call;
  if (whole === undefined && call.url !== undefined) {
    addField(call, body.form, "url", call.url, false);
    call.url = undefined;
  }
  if (given !== undefined) return given;
  if (whole !== undefined && isForm(whole)) {
    const urlEncoded = body.types.find((listed) => FORM_TYPE.test(listed) && !MULTIPART.test(listed));
    return (tagOf(whole) === "[object FormData]" ? body.multipart : urlEncoded) ?? body.formType;
  }
  if (whole === undefined && file !== undefined) {
    return body.multipart ?? fail(`form field ${quote(file)} is a file: ${quote(route)} takes no multipart body`);
  }
  if (Array.isArray(whole) && body.list !== undefined) return body.list;
  return body.object ?? body.formType ?? body.types[0];
}

/** A whole form as the form `type` names: a `FormData` of text alone as `URLSearchParams`, and the other way. */
function asForm(whole: object, type: string | undefined): unknown {
  const multipart = type !== undefined && MULTIPART.test(type);
  if (type === undefined || !FORM_TYPE.test(type) || (tagOf(whole) === "[object FormData]") === multipart) return whole;
  const form = new (globalThis as Json)[multipart ? "FormData" : "URLSearchParams"]();
  for (const [name, value] of whole as Iterable<[string, unknown]>) {
    if (typeof value !== "string") fail(`form field ${quote(name)} is a file: a URL-encoded form holds text alone`);
    form.append(name, value);
  }
  return form;
}

/**
 * Form fields as the environment's `URLSearchParams` or `FormData` (so that no DOM type is named here), each held to
 * the shape its schema allows and written as its Encoding Object says (see `writePairs()`): in a URL-encoded form,
 * one with a JSON `contentType` as JSON text, and no file; in a multipart one, a file or bytes as a binary part (of
 * `application/octet-stream` where the part names no type), a part that names one as a blob of it (JSON text for
 * JSON), the rest as text parts.
 */
function formBody(
  type: string,
  fields: [string, unknown][],
  { encoding, shapes }: Pick<BodyPlan, "encoding" | "shapes">,
  route: string,
): unknown {
  const globals = globalThis as Json;
  const multipart = MULTIPART.test(type);
  const body = new globals[multipart ? "FormData" : "URLSearchParams"]();
  // The fields' names written, counted: the bracket form repeats them (see MAX_WRITTEN).
  let written = 0;
  for (const [name, field] of fields) {
    const encoded = encoding.get(name) ?? UNSTYLED;
    const value = shaped(shapes.get(name) ?? "any", field, "form field", name, route);
    const json = encoded.type !== undefined && isJson(encoded.type);
    const part = multipart && !encoded.style && encoded.type && !RANGE.test(encoded.type) ? encoded.type : "";
    const add: AddPair = (pair, given, delimiter) => {
      if (given == null) return;
      written += pair.length;
      if (written > MAX_WRITTEN) tooLarge(name);
      const item = delimiter === undefined ? given : (given as string[]).join(delimiter);
      if (!isFile(item)) {
        const text = part && json ? jsonOf(item, `form field ${quote(pair)}`) : pairText(item, pair);
        // A form would write a lone surrogate as U+FFFD: refused, as in a query.
        if (!wellFormed(pair) || !wellFormed(text)) {
          fail(`form field ${quote(pair)} has a lone surrogate`);
        }
        body.append(pair, part ? new globals.Blob([text], { type: part }) : text);
      } else if (multipart) {
        body.append(pair, isBlob(item) ? item : new globals.Blob([item], { type: part || "application/octet-stream" }));
      } else fail(`form field ${quote(pair)} is a file: a URL-encoded form holds text alone`);
    };
    if (!multipart && json) add(name, jsonOf(value, `form field ${quote(name)}`));
    else writePairs(name, value, encoded, add);
  }
  return body;
}

/**
 * 3.2's `in: "querystring"`: the whole query string, as its media type writes it. A URL-encoded form by its Encoding
 * Objects, spaces as `+` (Appendix E: it is query-ready as it is); JSON as its text, and any other as its text,
 * percent-encoded, so that no `#` ends it and no `&` or `=` is taken for a pair's.
 */
function queryString({ key, type, fields }: Param, value: unknown, route: string): string {
  if (fields) {
    if (typeof value === "string" || tagOf(value) === "[object URLSearchParams]") {
      // A form would write a lone surrogate as U+FFFD: refused, as in a field.
      if (typeof value === "string" && !wellFormed(value)) fail(`parameter ${quote(key)} has a lone surrogate`);
      return String(new (globalThis as Json).URLSearchParams(value));
    }
    if (!isPlainObject(value)) mustBe(`parameter ${quote(key)} of ${quote(route)}`, "an object of fields", value);
    return String(formBody(type!, Object.entries(value), fields, route));
  }
  const text = isJson(type!) ? jsonOf(value, `parameter ${quote(key)} of ${quote(route)}`) : asText(value, key);
  return encode(text, UNRESERVED, key);
}

/**
 * A list as a sequential JSON media type writes it (3.2, Sequential JSON): JSON Lines and NDJSON one JSON text per
 * line; JSON Text Sequences (RFC 7464) each after an RS. Any other value has no place in a sequence.
 */
function sequence(list: object, type: string, route: string): string {
  if (!Array.isArray(list)) fail(`the body of ${quote(route)} is a sequence, ${quote(type)}: give it as a list`);
  const separator = /json-seq/i.test(type) ? "\x1e" : "";
  let text = "";
  for (const item of list) text += separator + jsonOf(item, `an item of the body of ${quote(route)}`) + "\n";
  return text;
}

/**
 * The body a call sends, written as `type` says: `data` as it is (a whole form as that form, a string as JSON text
 * where the type is JSON); else its fields, as a form where the type is one, else as one object. A PUT or PATCH
 * without one sends `""` (as `endpoint()` does); a required one left out is its media type's empty value.
 */
function bodyValue(plan: Plan, call: Call, type: string | undefined): unknown {
  const { body, route, method } = plan;
  const { whole, fields, object } = call;
  const form =
    whole === undefined &&
    type !== undefined &&
    type !== body.object &&
    (type === body.formType || FORM_TYPE.test(type));
  let value: unknown = whole;
  if (whole === undefined && form) {
    const list = fields ?? Object.entries(object ?? {});
    value = list.length || body.required ? formBody(type, list, body, route) : undefined;
  } else if (whole === undefined) value = fields ? Object.fromEntries(fields) : object;
  else if (isForm(whole)) value = asForm(whole as object, type);
  else if (typeof whole === "string" && type !== undefined && isJson(type)) value = JSON.stringify(whole);
  // The type an object usually goes as is JSON's: only another is looked at (a body is sent every call).
  if (typeof value === "object" && value !== null && type !== body.object && type !== undefined && isSequence(type)) {
    value = sequence(value, type, route);
  }
  if (value === undefined && (method === "put" || method === "patch")) value = "";
  if ((value !== undefined && value !== "") || !body.required) return value;
  // The empty value of the media type: a JSON Patch is a list of operations, a form an empty one.
  if (type === undefined) return {};
  if (isJson(type)) return JSON_PATCH.test(type) ? [] : {};
  return FORM_TYPE.test(type) ? formBody(type, [], body, route) : "";
}

// --- 8.10 The call: one way from a call's keys to request options ---------------------------------------------------

/** The endpoint `withOpenAPI()` returns, for `wrapped`'s defaults; its `defaults()` makes another. */
// biome-ignore lint/suspicious/noExplicitAny: an endpoint with any defaults; only its runtime surface is used.
function openAPIEndpoint(wrapped: Endpoint<any>, context: Context): Endpoint {
  const api = apiFor(context, toState(wrapped.DEFAULTS));
  const call = (route: unknown, options?: unknown): RequestOptions => {
    if (typeof route !== "string") return callOperation(api, checkOptions(route, "route"), undefined);
    return callOperation(api, checkOptions(options), route);
  };
  return Object.defineProperties(call as Endpoint, {
    DEFAULTS: { get: () => wrapped.DEFAULTS, enumerable: true },
    defaults: { value: (options: EndpointOptions) => openAPIEndpoint(wrapped.defaults(options), context) },
    merge: {
      value: (given: unknown, options?: unknown) => {
        // An operationId is merged as its route, which parse() reads.
        const route =
          typeof given === "string" && !given.includes(" ") ? (operationRoute(context, given) ?? given) : given;
        if (typeof route === "string" && isPlainObject(options)) refuseClashes(api, route, options);
        return wrapped.merge(route as never, options as never);
      },
    },
    // Merged options carry everything, defaults included: none apply beneath them.
    parse: {
      value: (options: MergedOptions) => {
        context.parser ??= apiFor(context, EMPTY_STATE);
        return callOperation(context.parser, checkOptions(options), undefined);
      },
    },
  });
}

/**
 * `merge()` beside a route refuses what the call would (see `CLASH`): merged options cannot tell the call's named
 * options from the defaults'. A route the description lacks is left for the call to refuse.
 */
function refuseClashes(api: Api, route: string, options: Json): void {
  let plan: Plan;
  try {
    plan = api.prepared(route).plan;
  } catch {
    return;
  }
  for (const key of Object.keys(options)) {
    if (plan.keys.get(key) === CLASH && options[key] !== undefined) refuseKey(plan, key, CLASH);
  }
}

/** The name of `names` nearest to `name`, by edit distance, when one is near enough to be what was meant. */
function nearest(name: string, names: Iterable<string>): string | undefined {
  let best: string | undefined;
  let least = Math.max(2, name.length / 3);
  // A bound on the comparisons' work: a description may declare thousands of long names, and a wrong key is often
  // a stranger's; past it, no suggestion.
  let work = 1e6;
  for (const other of names) {
    if (Math.abs(other.length - name.length) > least || name.length > 100) continue;
    work -= name.length * other.length;
    if (work < 0) break;
    let row = Array.from({ length: other.length + 1 }, (_, i) => i);
    for (let i = 1; i <= name.length; i++) {
      const next = [i];
      for (let j = 1; j <= other.length; j++) {
        next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (name[i - 1] === other[j - 1] ? 0 : 1));
      }
      row = next;
    }
    if (row[other.length]! <= least) [best, least] = [other, row[other.length]! - 0.5];
  }
  return best;
}

/**
 * The `"server:<name>"` or `"auth:<name>"` keys (by `prefix`) of `params`, over `values`: each must name a variable of
 * the description's servers, or one of its security schemes; else a TypeError with the nearest name.
 */
function namedValues(
  context: Context,
  prefix: "server:" | "auth:",
  params: Json | null,
  values?: Map<string, unknown>,
) {
  const found = new Map(values);
  for (const key in params) {
    if (!hasOwn(params, key) || !key.startsWith(prefix)) continue;
    let names = context.names.get(prefix);
    if (!names) {
      names = prefix === "auth:" ? new Set(Object.keys(context.schemes)) : serverNames(context);
      context.names.set(prefix, names);
    }
    const name = key.slice(prefix.length);
    if (!names.has(name)) {
      const near = nearest(name, names);
      const what = prefix === "auth:" ? "security scheme of the description" : "variable of the description's servers";
      fail(`${quote(key)} names no ${what}${near ? `: did you mean ${quote(prefix + near)}?` : ""}`);
    }
    found.set(name, params![key]);
  }
  return found;
}

/**
 * The headers a call starts from: `merged`'s with the call's over them, `accept` the operation's where it is the
 * library's own and no media type amends it, else with the media type applied.
 */
function startHeaders(context: Context, plan: Plan, merged: Json, given: unknown, mediaType: unknown): Json {
  const headers = addHeaders(shallowCopy(merged.headers ?? {}), given);
  const media = mergeMediaType(merged.mediaType ?? { format: "" }, mediaType);
  const { accept } = headers;
  if (accept === context.own.accept && !media.format && !media.previews?.length) headers.accept = plan.accept;
  else if (typeof accept === "string") headers.accept = applyMediaType(accept, media);
  return headers;
}

/**
 * One endpoint of a description (see `Api`), its operations prepared when each is first called. The defaults'
 * `"server:"` and `"auth:"` keys are worked out once, and left out of its parameters (`null` when none is left), so
 * that a call through `defaults({ "auth:key": … })` reads its own options alone, as one without defaults.
 */
function apiFor(context: Context, defaults: State): Api {
  const { params } = defaults;
  const values = namedValues(context, "server:", params);
  const credentials = namedValues(context, "auth:", params);
  const rest = params && Object.keys(params).filter((key) => !/^(server|auth):/.test(key));
  const state = {
    ...defaults,
    params: rest?.length ? Object.fromEntries(rest.map((key) => [key, params![key]])) : null,
  };
  const choices = new Map<Security, Scheme[] | undefined>();
  const prepared = cached((id): Prepared => {
    // `"<method> <path>"`: a route as the caller wrote it, or the method (lowercase) and path a call gave; or an
    // operationId, as its route.
    const route = id.includes(" ") ? id : (operationRoute(context, id) ?? id);
    const space = route.indexOf(" ");
    const plan = planOf(context, space < 0 ? state.verb : checkMethod(route.slice(0, space)), route.slice(space + 1));
    let base: SplitBase | undefined;
    try {
      base = serverBase(context, plan, state.merged.baseUrl, values);
    } catch {
      // A server variable the defaults leave without a value, or no base: each call gives it or is refused.
    }
    const headers = startHeaders(context, plan, state.merged, undefined, undefined);
    const chosen = chooseCredentials(plan, credentials, headers, undefined, choices);
    addCredentials(headers, chosen);
    const label = headers["content-type"] === undefined ? plan.body.usual?.[1] : undefined;
    return {
      plan,
      base,
      headers,
      bodyHeaders: label ? { ...headers, "content-type": label } : headers,
      credentials: chosen,
    };
  }, 1000);
  return { context, state, values, credentials, prepared };
}

/** A named option given where the operation has a parameter of its name, or a header name it may not set, refused. */
function refuseKey({ route, parameters }: Plan, key: string, slots: number[]): never {
  if (slots === REFUSED) fail(`${quote(route)} sends no header parameter ${quote(key)}: set it in \`headers\``);
  const where = parameters.find(({ name }) => name === key)?.in ?? "body";
  const what = where === "body" ? "body property" : `${where} parameter`;
  return fail(
    `${quote(route)} has a ${what} ${quote(key)}: pass it as ${quote(`${where}:${key}`)}, or set the option in defaults()`,
  );
}

/**
 * What the endpoint prepared for the operation a call names by the method and path that `method`, `url` or the
 * defaults give, beside a route or without one. A `method` beside a route is refused where the route's operation
 * has a parameter of that name (see `CLASH`).
 */
function readyFor(api: Api, options: Json, given: string | undefined, method: unknown): Prepared {
  const { prepared, state, context } = api;
  // An operationId names its route: a `method` beside it is read as beside that route.
  const route = given === undefined || given.includes(" ") ? given : (operationRoute(context, given) ?? given);
  let plan: Plan | undefined;
  try {
    plan = route === undefined ? undefined : prepared(route).plan;
  } catch {}
  if (plan?.keys.get("method") === CLASH) refuseKey(plan, "method", CLASH);
  const space = route === undefined ? -1 : route.indexOf(" ");
  let lower = method === undefined ? state.verb : checkMethod(method);
  if (method === undefined && space > 0) lower = checkMethod(route!.slice(0, space));
  const path = route === undefined ? (ownField(options, "url") ?? state.merged.url) : route.slice(space + 1);
  if (typeof path !== "string") mustBe("option `url`", "an operation's path", path);
  return prepared(lower + " " + path);
}

/** A named option of a call, over the state's (`method` and `url` named the operation already). */
function readNamed(call: Call, key: string, value: unknown): void {
  if (key === "baseUrl" || key === "headers" || key === "mediaType") call[key] = value;
  else if (key === "request") {
    checkRequest(value);
    call.request = mergeValue(call.request, value, "request");
  }
}

/** A parameter's value put in the slots its key fills; one in a credential's place makes the credentials the call's. */
function give(call: Call, plan: Plan, slots: number[], value: unknown): void {
  call.given ??= new Array(plan.parameters.length * 2);
  for (const slot of slots) call.given[slot] = value;
  if (plan.places.size) call.places = true;
}

/** Whether a body property holds a file: the first one that does is noted (see `Call.file`). */
function noteFile(call: Call, name: string, value: object): void {
  if (call.file === undefined && holdsFile(value)) call.file = name;
}

/** A property of the body object (the commonest key). */
function addProperty(call: Call, name: string, value: unknown): void {
  if (typeof value === "object" && value !== null) noteFile(call, name, value);
  call.object ??= {};
  // put() only for `__proto__`: a store of its own here costs a fraction of one shared by every caller of put().
  if (name === "__proto__") put(call.object, name, value);
  else call.object[name] = value;
}

/** A body property or form field added (see `Call`). */
function addField(call: Call, form: boolean, name: string, value: unknown, loose: boolean): void {
  call.loose ||= loose;
  if (!form) addProperty(call, name, value);
  else {
    if (typeof value === "object" && value !== null) noteFile(call, name, value);
    call.fields ??= [];
    call.fields.push([name, value]);
  }
}

/** How an undeclared `"query:"` key is written: a list, or an object in the bracket form (see `placeKey()`). */
const EXPLODED: Encoding = { style: "form", explode: true, reserved: false, type: undefined };
const DEEP: Encoding = { style: "deepObject", explode: true, reserved: false, type: undefined };

/**
 * A call's key that no parameter took, by where it goes: a `"server:"` or `"auth:"` key to the server or the
 * credentials (checked where they are read), an undeclared `"query:"` key to the query, a `"body:"` key to the body;
 * any other to the body, or for a GET or HEAD (which send none) to the query, unless the description declares it a
 * body property.
 */
function placeKey(plan: Plan, call: Call, key: string, value: unknown, own: boolean): void {
  const { route, get, body } = plan;
  const colon = key.indexOf(":");
  const where = colon < 0 ? "" : key.slice(0, colon);
  if (where === "server") call.servers ||= own;
  else if (where === "auth") call.auths ||= own;
  else if (where === "query") {
    // A parameter newer than the description, as the query's default style writes it (`form`, exploded: a list
    // repeats its name), an object in the bracket form.
    const given = sendable(value, key);
    call.pairs = queryPairs(call.pairs, key.slice(6), given, isPlainObject(given) ? DEEP : EXPLODED, "&");
  } else if (where === "path" || where === "header" || where === "cookie") {
    const hint = where === "path" ? "" : ": set it in `headers`";
    fail(`${quote(route)} declares no ${where} parameter ${quote(key.slice(colon + 1))} for ${quote(key)}${hint}`);
  } else if (get && where === "body") fail(`${quote(route)} has no body for ${quote(key)}`);
  else if (get && body.shapes.has(key)) {
    fail(`${quote(route)} sends no body: ${quote(key)} is a property of the body its description declares`);
  } else if (get) call.query = addPairs(call.query, key, sendable(value, key));
  else if (key === "data" && !(body.form && body.shapes.has(key))) call.whole = value;
  else addField(call, body.form, where === "body" ? key.slice(5) : key, value, where === "body");
}

/** A call's record, before its keys are read. */
function newCall(state: State, url: unknown): Call {
  const { request } = state.merged;
  return {
    baseUrl: undefined,
    headers: undefined,
    mediaType: undefined,
    request: request === undefined ? undefined : copy(request, "request"),
    servers: false,
    auths: false,
    given: undefined,
    places: false,
    object: undefined,
    fields: undefined,
    loose: false,
    file: undefined,
    whole: undefined,
    query: "",
    pairs: "",
    url,
    querystring: undefined,
  };
}

/**
 * A call's keys in one pass: its named options (from `options`), and each key of `params` (the call's over the
 * defaults'): a parameter's value to its slots, any other key placed (see `placeKey()`). Merged options (`routed`
 * false) hold the defaults' named options too: a named option there is one, which `merge()` let through.
 */
function readCall(state: State, plan: Plan, options: Json, params: Json, url: unknown, routed: boolean): Call {
  const call = newCall(state, url);
  const properties = plan.asObject && params === options;
  // The body properties before any other key, counted: where they are all the keys (the commonest POST), the
  // body is one spread copy, which costs a fraction of a store per key.
  let run = 0;
  for (const key in options) {
    const value = options[key];
    const skip = value === undefined || !hasOwn(options, key);
    // One lookup tells a named option, a parameter's key or escaped key from the rest.
    const slots = skip ? undefined : plan.keys.get(key);
    if (!skip && slots === undefined && properties && key !== "data" && key.indexOf(":") < 0) {
      if (run < 0) addProperty(call, key, value);
      else run++;
      if (run > 0 && typeof value === "object" && value !== null) noteFile(call, key, value);
      continue;
    }
    // Another kind of key: the properties before it, all of its keys before it, are stored.
    if (run > 0) {
      for (const name in options) {
        if (name === key) break;
        addProperty(call, name, options[name]);
      }
    }
    run = -1;
    if (skip) continue;
    if (slots === OPTION || (slots === CLASH && !routed && NAMED.has(key))) readNamed(call, key, value);
    else if (slots === REFUSED || (slots === CLASH && routed)) refuseKey(plan, key, slots);
    else if (params !== options) {
      if (slots === undefined && key.startsWith("server:")) call.servers = true;
      if (slots === undefined && key.startsWith("auth:")) call.auths = true;
    } else if (slots !== undefined && slots !== CLASH) give(call, plan, slots, value);
    else placeKey(plan, call, key, value, true);
  }
  if (run > 0) call.object = { ...options };
  if (params !== options) readParams(plan, call, params);
  if (url !== undefined) placeUrl(plan, call);
  if ((call.query || call.pairs) && plan.security.query) call.places = true;
  return call;
}

/** Each key of the call's parameters merged over the defaults' (see `readCall()`). */
function readParams(plan: Plan, call: Call, params: Json): void {
  for (const key in params) {
    const value = params[key];
    if (value === undefined || !hasOwn(params, key)) continue;
    const slots = plan.keys.get(key);
    if (slots === REFUSED) refuseKey(plan, key, slots);
    else if (slots === undefined || slots === CLASH) placeKey(plan, call, key, value, false);
    else if (slots !== OPTION) give(call, plan, slots, value);
  }
}

/**
 * A `url` beside the route: the first parameter named `url` that the call gives no value takes it; else it stays for
 * the body, or a GET's query.
 */
function placeUrl(plan: Plan, call: Call): void {
  const i = plan.parameters.findIndex(
    ({ name }, at) => name === "url" && (call.given?.[2 * at] ?? call.given?.[2 * at + 1]) === undefined,
  );
  if (i < 0) return;
  give(call, plan, [2 * i], call.url);
  call.url = undefined;
}

/**
 * A call's headers: its own where it worked them out (see `callOperation()`), else the prepared ones copied; labelled
 * for its body where the caller did not: by the body's media type, or, where only ranges are listed, as JSON when it
 * is an object (text and bytes go unlabelled). A spread copy is quickest, but V8 before Node 22 makes adding a key
 * to one cost several times the copy: the usual label is in `bodyHeaders` already.
 */
function headersFor(
  { plan, headers: preset, bodyHeaders }: Prepared,
  own: Json | undefined,
  body: unknown,
  type?: string,
): Json {
  const { required, usual } = plan.body;
  let label: string | undefined;
  // A PUT's `""` is no body, unless the description requires one: then it is the empty one.
  if (body !== undefined && (body !== "" || required)) {
    // The type an object goes as is labelled as the plan says, without a lookup (most calls send one).
    if (type !== undefined) label = type === usual?.[0] ? usual[1] : labelFor(type);
    else if (typeof body !== "string" && !isRawBody(body)) label = JSON_TYPE;
  }
  if (own) {
    if (label !== undefined && own["content-type"] === undefined) own["content-type"] = label;
    return own;
  }
  if (label === undefined || preset["content-type"] !== undefined) return { ...preset };
  if (bodyHeaders["content-type"] === label) return { ...bodyHeaders };
  const headers = shallowCopy(preset);
  headers["content-type"] = label;
  return headers;
}

/** A path that values left with an empty segment (`//`, or a `/` the key does not end with), refused. */
function refuseEmptySegment({ route, trailing }: Plan, url: string): void {
  const [path] = url.split("?", 1) as [string];
  if (path.includes("//") || (!trailing && path.endsWith("/"))) {
    fail(`${quote(route)}: a path parameter's value makes an empty segment in ${quote(path)}`);
  }
}

/**
 * Each parameter the call gives, checked and in shape (see `parameterValue()`), written where it goes: the path's
 * into its template, the query's as pairs (before the call's undeclared ones, in `call.pairs`), the headers' and the
 * cookies' into `headers`. A value under `"<in>:<name>"` wins over one under the parameter's key. Most parameters are
 * optional and absent from a call: nothing to check; a required one may be a credential's place, or a header set in
 * `headers`. The expanded path.
 */
function placeParameters(plan: Plan, call: Call, fills: number[], headers: Json): string {
  const { parameters } = plan;
  const { given } = call;
  let values: Json | undefined;
  let query = "";
  let cookie = "";
  let emptyish = false;
  for (let i = 0; i < parameters.length; i++) {
    const parameter = parameters[i]!;
    const { in: where, name, variable } = parameter;
    let value = given && (given[2 * i + 1] ?? given[2 * i]);
    if (value === undefined && (!parameter.required || fills.includes(i))) continue;
    if (value === undefined && where === "header" && ownField(headers, name.toLowerCase()) !== undefined) continue;
    value = parameterValue(plan, i, value);
    if (value === undefined) continue;
    if (typeof value === "object" && where !== "query" && where !== "querystring" && isNested(value)) {
      fail(`parameter ${quote(name)} holds a list or object in another: no ${where} style writes it`);
    }
    if (where === "query") query = queryPairs(query, name, value, parameter, "&");
    else if (where === "querystring") {
      call.querystring = [queryString(parameter, value, plan.route), !!parameter.fields];
    } else if (where === "cookie" && parameter.style === "cookie") cookie = cookiePairs(cookie, name, value, parameter);
    else if (where === "cookie") cookie = queryPairs(cookie, name, value, parameter, "; ");
    else if (where === "header") addHeaders(headers, { [name]: headerText(parameter, value) });
    else {
      // Only `""`, a list or an object can leave a path segment empty: the path is looked at then.
      emptyish ||= plan.guard && (value === "" || typeof value === "object");
      values ??= {};
      // put() only for `__proto__` (see addProperty()).
      if (variable === "__proto__") put(values, variable, value);
      else values[variable] = value;
    }
  }
  if (cookie) headers.cookie = headers.cookie ? headers.cookie + "; " + cookie : cookie;
  if (query) call.pairs = call.pairs ? query + "&" + call.pairs : query;
  const url = expand(plan.path, values ?? NONE);
  if (emptyish) refuseEmptySegment(plan, url);
  return url;
}

/**
 * A call's query with its querystring first: other pairs (an undeclared `"query:"` key, a query credential, the base
 * URL's query) may follow a URL-encoded form's; a querystring of any other media type is the whole query.
 */
function withQueryString({ route, query: literal }: Plan, [text, form]: [string, boolean], query: string): string {
  if (!form && (query || literal)) {
    fail(`${quote(route)}: its querystring is the whole query: no other pair goes with it`);
  }
  return query ? (text && text + "&") + query : text;
}

/**
 * One call of an operation, the one way every call takes: what the endpoint prepared for its operation, its keys
 * read, its own credentials where it brings them (or a place of theirs), the body, its headers, the parameters
 * placed, the URL on the server's base.
 */
function callOperation(api: Api, options: Json, route: string | undefined): RequestOptions {
  const { context, state } = api;
  // Named loads, not ownField()'s keyed one, which every description read shares: a call's options are read often.
  const method = options.method !== undefined && hasOwn(options, "method") ? options.method : undefined;
  const ready =
    route !== undefined && method === undefined ? api.prepared(route) : readyFor(api, options, route, method);
  const { plan } = ready;
  // Beside a route, `url` is a parameter; merged options set theirs aside.
  let url = route === undefined ? urlParameterOf(options) : options.url;
  if (route !== undefined && !hasOwn(options, "url")) url = undefined;
  const call = readCall(state, plan, options, callParameters(state, options), url, route !== undefined);
  let own: Json | undefined;
  let chosen = ready.credentials;
  if (call.headers !== undefined || call.mediaType !== undefined || call.auths || call.places) {
    own = startHeaders(context, plan, state.merged, call.headers, call.mediaType);
    const given = call.auths ? namedValues(context, "auth:", options, api.credentials) : api.credentials;
    chosen = chooseCredentials(plan, given, own, call);
    addCredentials(own, chosen);
  }
  const label = (own ?? ready.headers)["content-type"];
  const type = plan.get ? undefined : bodyType(plan, call, label);
  const body = plan.get ? undefined : bodyValue(plan, call, type);
  const headers = headersFor(ready, own, body, type);
  // Multipart's label is fetch's, which writes its boundary.
  if (body !== undefined && typeof label === "string" && MULTIPART.test(label)) delete headers["content-type"];
  const path = placeParameters(plan, call, chosen.fills, headers);
  if (chosen.error) fail(chosen.error);
  let base = ready.base;
  if (call.servers || call.baseUrl !== undefined || !base) {
    const given = call.servers ? namedValues(context, "server:", options, api.values) : api.values;
    base = serverBase(context, plan, call.baseUrl ?? state.merged.baseUrl, given);
  }
  // After the parameters' pairs: the base URL's query, the credentials', a GET's other keys as endpoint() writes them.
  let query = call.pairs;
  if (base[1]) query = query ? query + "&" + base[1] : base[1];
  if (chosen.query) query = query ? query + "&" + chosen.query : chosen.query;
  const rest = plan.get && (call.query || call.url !== undefined) ? addPairs(call.query, "url", call.url) : "";
  if (rest) query = query ? query + "&" + rest : rest;
  if (call.querystring) query = withQueryString(plan, call.querystring, query);
  const result: RequestOptions = {
    method: plan.method,
    // Whether the path key starts with "/" is the plan's: reading a string just built would flatten it.
    url: base[0] + (plan.rooted ? "" : "/") + path + (query ? (plan.query ? "&" : "?") + query : "") + base[2],
    headers: headers as RequestHeaders,
  };
  if (body !== undefined) result.body = body;
  if (call.request) result.request = call.request as RequestMeta;
  return result;
}

// --- 8.11 `reduceOpenAPI()`: each plan written back as a description ------------------------------------------------

/** A server plan written back as a Server Object: its URL, its variables' defaults and `enum`s. */
function reducedServer({ url, variables }: Server): Json[] {
  const declared: Json = {};
  for (const { name, fallback, choices } of variables.values()) {
    const variable: Json = {};
    if (fallback !== undefined) variable.default = fallback;
    if (choices) variable.enum = choices;
    if (fallback !== undefined || choices) put(declared, name, variable);
  }
  return [Object.keys(declared).length ? { url, variables: declared } : { url }];
}

/** A querystring parameter written back (see `reducedParameter()`): its media type, a form's fields and encoding. */
function reducedQueryString(reduced: Json, { required, type, fields }: Param): string {
  if (required) reduced.required = true;
  const media: Json = {};
  if (fields) {
    const properties: Json = {};
    for (const [name, shape] of fields.shapes) {
      put(properties, name, shape === "any" ? {} : { type: shape === "primitive" ? "string" : shape });
    }
    media.schema = { properties };
    media.encoding = {};
    for (const [name, { style, explode, type: part }] of fields.encoding) {
      put(media.encoding, name, style ? { style, explode, contentType: part } : { contentType: part });
    }
  }
  reduced.content = { [type!]: media };
  return JSON.stringify(reduced);
}

/** A parameter plan written back as JSON text (to be compared between operations): defaults left out. */
function reducedParameter(parameter: Param): string {
  const { name, in: where, style, explode, required, type, shape, date, reserved, empty } = parameter;
  const reduced: Json = { name, in: where };
  if (where === "querystring") return reducedQueryString(reduced, parameter);
  if (style !== (where === "query" || where === "cookie" ? "form" : "simple")) reduced.style = style;
  if (explode !== (style === "form" || style === "cookie")) reduced.explode = explode;
  if (reserved) reduced.allowReserved = true;
  if (empty) reduced.allowEmptyValue = true;
  if (required && where !== "path") reduced.required = true;
  if (type) reduced.content = { [type]: {} };
  else if (shape !== "any" || date) {
    reduced.schema = { type: shape === "primitive" ? "string" : shape, format: date ? "date" : undefined };
  }
  return JSON.stringify(reduced);
}

/**
 * A reduced body's schema: one many bodies share is written once, under `components`, and referred to (its copies
 * would grow as operations times properties).
 */
function reducedSchema(shapes: Map<string, Shape>, schemas: Map<Map<string, Shape>, string>): Json {
  let name = schemas.get(shapes);
  if (name === undefined) {
    name = schemas.size.toString(36);
    schemas.set(shapes, name);
  }
  return { $ref: "#/components/schemas/" + name };
}

/** The schemas reduced bodies refer to (see `reducedSchema()`), each property with the type its shape needs. */
function reducedComponents(schemas: Map<Map<string, Shape>, string>): Json {
  const components: Json = {};
  for (const [shapes, name] of schemas) {
    const properties: Json = {};
    for (const [property, shape] of shapes) {
      put(properties, property, shape === "any" ? {} : { type: shape === "primitive" ? "string" : shape });
    }
    components[name] = { properties };
  }
  return components;
}

/** A request body plan written back: its media types, a form's encoding and fields, whether required. */
function reducedBody(
  { types, required, encoding, shapes, options }: BodyPlan,
  get: boolean,
  schemas: Map<Map<string, Shape>, string>,
) {
  if (get) {
    return shapes.size ? { content: { "application/json": { schema: reducedSchema(shapes, schemas) } } } : undefined;
  }
  // A required body of media ranges alone is still required: left out, it goes as `{}`.
  if (!types.length && !required) return undefined;
  const content: Json = {};
  // The named options its schemas declare stay declared, so that a call's key of that name is still refused.
  const declared = options.length
    ? { schema: { properties: Object.fromEntries(options.map((name) => [name, {}])) } }
    : {};
  for (const type of types) put(content, type, declared);
  const formType = types.find((type) => FORM_TYPE.test(type));
  if (formType !== undefined) {
    const media: Json = shapes.size ? { schema: reducedSchema(shapes, schemas) } : {};
    if (encoding.size) {
      media.encoding = {};
      for (const [name, { style, explode, type }] of encoding) {
        put(media.encoding, name, style ? { style, explode, contentType: type } : { contentType: type });
      }
    }
    content[formType] = media;
  }
  return required ? { required, content } : { content };
}

/** A security scheme written back as a Security Scheme Object that sends the same (see `Scheme`). */
function reducedScheme(context: Context, name: string): Json {
  let scheme: Scheme;
  try {
    scheme = once(context.schemeOf, name, () => readScheme(context, name));
  } catch {
    return {};
  }
  const { in: where, field, prefix } = scheme;
  if (where === "none") return { type: "mutualTLS" };
  return prefix ? { type: "http", scheme: prefix } : { type: "apiKey", in: where, name: field };
}

/** A `security` list written back. */
const reducedSecurity = ({ alternatives }: Security) =>
  alternatives.map((schemes) => Object.fromEntries(schemes.map(({ name }) => [name, []])));

/**
 * An operation's plan written back: its own server and security where they are not the description's, its
 * parameters, body and success types.
 */
function reducedOperation(
  plan: Plan,
  root: readonly [Server | undefined, Security | undefined],
  parameters: string[],
  [schemas, written, at]: [Map<Map<string, Shape>, string>, Map<unknown, string>, string],
): Json {
  const operation: Json = plan.id === undefined ? {} : { operationId: plan.id };
  if (plan.server && plan.server !== root[0]) operation.servers = reducedServer(plan.server);
  // An operation that inherits the description's requirements keeps inheriting them: one list, however many share it.
  if (plan.security !== root[1]) operation.security = reducedSecurity(plan.security);
  // A scheme the description gets wrong cannot be written back as what it is: refused, as a call giving it would be.
  if (plan.security.fault) fail(`${quote(plan.route)}: ${plan.security.fault}`);
  // A header parameter the description may not set stays declared: a call's key naming it is refused, not sent.
  const refused = [...plan.keys].filter(([, slots]) => slots === REFUSED).map(([name]) => ({ name, in: "header" }));
  const declared = [...parameters.map((text) => JSON.parse(text)), ...refused];
  if (declared.length) operation.parameters = declared;
  const body = writeOnce(written, plan.body, `${at}/requestBody`, () => reducedBody(plan.body, plan.get, schemas));
  if (body) operation.requestBody = body;
  if (plan.answers.length) {
    const response = writeOnce(written, plan.answers, `${at}/responses/200`, () => {
      const content: Json = {};
      for (const type of plan.answers) put(content, type, {});
      return { content };
    });
    operation.responses = { 200: response };
  }
  return operation;
}

/**
 * A part many operations share (a `$ref` put it under them) written where it is first met, and referred to from
 * there after: the reduced description grows with the description, not with the operations times their parts.
 */
function writeOnce(written: Map<unknown, string>, part: unknown, at: string, write: () => Json | undefined) {
  const first = written.get(part);
  if (first !== undefined) return { $ref: first };
  const made = write();
  // A part no longer than a reference to it is written again: a copy costs no more than the `$ref` would.
  if (made !== undefined && JSON.stringify(made).length > at.length + 12) written.set(part, at);
  return made;
}

/** A JSON Pointer's token as a URI fragment writes it (RFC 6901, section 6): what `lookUp()` reads back. */
const pointerToken = (key: string) => encodeURIComponent(key.replace(/~/g, "~0").replace(/\//g, "~1"));

/**
 * A path's operations written back. A path parameter every operation declares alike is declared once, for the
 * path (counted in one pass, not compared pairwise): where a path parameter is declared changes nothing.
 */
function reducedPath(
  context: Context,
  path: string,
  root: readonly [Server | undefined, Security | undefined],
  [schemas, written]: [Map<Map<string, Shape>, string>, Map<unknown, string>],
): Json {
  const item = needed(context, ownField(context.description.paths, path), `path ${quote(path)}`);
  const plans = operationsOf(item).map(([method]) => planOf(context, method, path));
  // Operations read from the nodes another path's were, on its server: that path's item, referred to.
  const key = plans
    .map((plan) => `${plan.method} ${nodeId(context, plan.operation)} ${nodeId(context, plan.server ?? NONE)}`)
    .join();
  const at = `#/paths/${pointerToken(path)}`;
  const first = written.get(key);
  if (first !== undefined) return { $ref: first };
  written.set(key, at);
  const lists = plans.map((plan) => [...new Set(plan.parameters.map(reducedParameter))]);
  const counts = new Map<string, number>();
  for (const list of lists) for (const text of list) counts.set(text, (counts.get(text) ?? 0) + 1);
  const common = new Set(
    [...counts]
      .filter(([text, count]) => count === plans.length && plans.length > 1 && JSON.parse(text).in === "path")
      .map(([text]) => text),
  );
  const reduced: Json = {};
  if (common.size) reduced.parameters = [...common].map((text) => JSON.parse(text));
  plans.forEach((plan, i) => {
    const own = lists[i]!.filter((text) => !common.has(text));
    // 3.2's `additionalOperations` keys are the methods as they are sent: uppercase (see `operationNode()`).
    const fixed = METHOD.test(plan.method);
    const field = fixed ? plan.method : plan.method.toUpperCase();
    if (!fixed) reduced.additionalOperations ??= {};
    const pointer = `${at}/${fixed ? "" : "additionalOperations/"}${pointerToken(field)}`;
    put(
      fixed ? reduced : reduced.additionalOperations,
      field,
      reducedOperation(plan, root, own, [schemas, written, pointer]),
    );
  });
  return reduced;
}

/** The description reduced (see `reduceOpenAPI()`): OpenAPI 3.x as it says, or 3.0.3 for a Swagger 2.0 one. */
function reduceDescription(context: Context): OpenAPIDescription {
  const { description } = context;
  const root = context.swagger ? swaggerOperation(context, {}, {}) : description;
  // The description's server and security, where they can be read: a broken one that every operation overrides is
  // no fault of any operation's, and none inherits it (one that did was refused when it was read).
  const attempt = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch {
      return undefined;
    }
  };
  const shared = [attempt(() => readServer(context, [root])), attempt(() => readSecurity(context, {}, root))] as const;
  const paths: Json = {};
  const schemas = new Map<Map<string, Shape>, string>();
  const written = new Map<unknown, string>();
  for (const path of Object.keys(description.paths)) {
    put(paths, path, reducedPath(context, path, shared, [schemas, written]));
  }
  const openapi = ownField(description, "openapi");
  const result: Json = { openapi: typeof openapi === "string" ? openapi : "3.0.3", paths };
  if (shared[0]) result.servers = reducedServer(shared[0]);
  if (shared[1] && shared[1] !== NO_SECURITY) result.security = reducedSecurity(shared[1]);
  const components: Json = {};
  if (schemas.size) components.schemas = reducedComponents(schemas);
  // Every scheme declared, used or not: a caller's `"auth:"` keys name them (one no operation reads, or cannot read,
  // is declared empty).
  const names = Object.keys(context.schemes);
  if (names.length) {
    components.securitySchemes = Object.fromEntries(names.map((name) => [name, reducedScheme(context, name)]));
  }
  if (Object.keys(components).length) result.components = components;
  // `undefined` parts (a parameter schema's absent format) are left out, as JSON would.
  return JSON.parse(JSON.stringify(result));
}

// --- 8.12 The types of a description's calls (compile time only) -----------------------------------------------------

/** `withOpenAPI()`'s options. */
export interface OpenAPIOptions {
  /**
   * The URL the description was retrieved from (`response.url` of the `fetch()` that got it). A relative server URL
   * (`.`, `./test`, `../v2/`, `/api/v3`) resolves against it, as OpenAPI 3.2 says, never above its origin; and it is
   * the description's own URI for its `$ref`s where it says no `$self`.
   * @default undefined: a relative server goes under the `baseUrl` you set
   */
  url?: string;
}

/**
 * An OpenAPI 3.0 or 3.1 description, or a Swagger 2.0 one, parsed from JSON (or YAML). `withOpenAPI()` reads its
 * `paths`, its `servers` (2.0: `host`, `basePath`, `schemes`), and `components` (2.0: `definitions`, `parameters`,
 * `responses`) through `$ref`s; `reduceOpenAPI()` keeps only those parts, as OpenAPI 3.0.
 */
export interface OpenAPIDescription {
  /** The operations, by path and then by method, as the OpenAPI Specification defines them. */
  paths: Record<string, unknown>;
  /** Any other part of the description: `servers`, `components`, `info`… */
  [key: string]: unknown;
}

// Types from an OpenAPI description. `Paths` is the `paths` interface openapi-typescript generates (for
// GitHub, `@octokit/openapi-types`); the routes, parameters and bodies it describes become the types of
// `endpoint()`'s calls. Types only: casting `endpoint` adds no runtime bytes.

/** The methods an OpenAPI path item has a field for (3.2's `query` is QUERY). */
type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace" | "query";

/** The operation of a path item under a method, or `never` (openapi-typescript 7 writes `put?: never`). */
type OperationAt<PathItem, Method> = Method extends keyof PathItem ? Exclude<PathItem[Method], undefined> : never;

/**
 * Every route of `Paths` as `"METHOD /path"`, method uppercase: what editors complete. Only the methods a path
 * item has, one test each (`put?: never` reads as `undefined`): every program that calls a typed endpoint lists
 * the routes once (inference reaches the route check's fallback), so this is kept cheap.
 */
export type OpenAPIRoute<Paths> = {
  [Path in keyof Paths & string]: {
    [Method in keyof Paths[Path] & HttpMethod]: Paths[Path][Method] extends undefined
      ? never
      : `${Uppercase<Method>} ${Path}`;
  }[keyof Paths[Path] & HttpMethod];
}[keyof Paths & string];

/** The operation a route names: by `"METHOD /path"`, or by its `operationId` (`Operations`, openapi-typescript's). */
type RouteOperation<Paths, Route, Operations = never> = [Route] extends [
  `${infer Method extends Uppercase<HttpMethod>} ${infer Path}`,
]
  ? Path extends keyof Paths
    ? OperationAt<Paths[Path], Lowercase<Method>>
    : never
  : Route extends OperationIds<Operations>
    ? Operations[Route & keyof Operations]
    : never;

/**
 * The operationIds of openapi-typescript's `operations`, for completions; none where it has none (it writes
 * `Record<string, never>` then, whose keys would be every string).
 */
type OperationIds<Operations> = [Operations] extends [never]
  ? never
  : string extends keyof Operations
    ? never
    : keyof Operations & string;

/**
 * Whether a route is one `Paths` cannot type: a path it has, under a method in uppercase that no field of it types
 * (3.2's QUERY and `additionalOperations`, which openapi-typescript leaves out). Such a call is taken as it is.
 */
type Untyped<Paths, Route> = Route extends `${infer Method} ${infer Path}`
  ? Path extends keyof Paths
    ? Method extends Uppercase<Exclude<HttpMethod, "query">> | Lowercase<Method>
      ? false
      : true
    : false
  : false;

/** Where a parameter can be: a plain `endpoint` sends path and query parameters by name, `withOpenAPI()` all four. */
export type OpenAPILocation = "path" | "query" | "header" | "cookie";

/** The keys of an object type written out by name, its index signatures left out. */
type NamedKeys<T> = keyof {
  [Key in keyof T as string extends Key ? never : number extends Key ? never : symbol extends Key ? never : Key]: 0;
};

/**
 * Whether a type names nothing a call could set: `never`, or an object with only index signatures. That is how
 * openapi-typescript writes an object schema without properties (`Record<string, never>`: Stripe's empty form on
 * every GET, Kubernetes' `Patch`); read as fields, its index signature would bind every other option.
 */
type NamesNothing<T> = [T] extends [never]
  ? true
  : T extends readonly unknown[]
    ? false
    : T extends object
      ? [NamedKeys<T>] extends [never]
        ? true
        : false
      : false;

/**
 * An object's properties by name, its index signatures left out (a name the description does not declare is then an
 * error, or a `"body:<name>"` escape), and an optional one also `undefined`: absent, as the runtime reads it, under
 * `exactOptionalPropertyTypes` too.
 */
type Named<T> = {
  [Key in keyof T as string extends Key
    ? never
    : number extends Key
      ? never
      : symbol extends Key
        ? never
        : Key]: // Reading an optional property gives `undefined` too, under `exactOptionalPropertyTypes` as well.
  undefined extends T[Key] ? T[Key] | undefined : T[Key];
};

/**
 * Header parameters not the description's to set: the media types and the credentials (the specification says to
 * ignore them), and the request's framing (see `FRAMING`).
 */
type IgnoredHeader =
  | "accept"
  | "content-type"
  | "authorization"
  | "host"
  | "content-length"
  | "transfer-encoding"
  | "connection"
  | "expect"
  | "upgrade"
  | "keep-alive"
  | "te"
  | "trailer"
  | `proxy-${string}`;

/**
 * A parameter's key in a call: its name; none for an ignored header; through `withOpenAPI()` (`Escaping`), a
 * name that is a named option's or `data` as `"<in>:<name>"` (`"query:headers"`), as the runtime reads it.
 */
type ParameterKey<Key, Where extends string, Escaping> = Key extends string
  ? [Where, Lowercase<Key>] extends ["header", IgnoredHeader]
    ? never
    : [Escaping, Key] extends [true, Exclude<NamedOption, "url"> | "data"]
      ? `${Where}:${Key}`
      : Key
  : Key;

/** An operation's parameters in one location under their keys, `{}` when it has none or names none. */
type ParametersIn<Operation, Where extends OpenAPILocation, Escaping = false> = Operation extends {
  parameters?: infer Parameters;
}
  ? Where extends keyof Parameters
    ? Exclude<Parameters[Where], undefined> extends infer Found
      ? NamesNothing<Found> extends true
        ? {}
        : { [Key in keyof Named<Found> as ParameterKey<Key, Where, Escaping>]: Named<Found>[Key] }
      : never
    : {}
  : {};

/**
 * A location's parameters whose names an earlier location has (`Taken`) left out: one key fills both, typed as the
 * earlier one. Through `withOpenAPI()` (`Escaping`), each of them is also `"<in>:<name>"` with its own type.
 */
type SharedName<Parameters, Taken, Where extends string, Escaping> = [keyof Parameters & Taken] extends [never]
  ? Parameters
  : { [Key in keyof Parameters as Key extends Taken ? never : Key]: Parameters[Key] } & (Escaping extends true
      ? { [Key in keyof Parameters as Key extends Taken ? `${Where}:${Key & string}` : never]?: Parameters[Key] }
      : {});

/**
 * An operation's parameters in every location of `In`, as one object type. A name in two locations is one key
 * (the runtime fills both from it), typed as the path's, then the query's, then the header's.
 */
type ParametersOf<Operation, In extends OpenAPILocation, Escaping = OpenAPILocation extends In ? true : false> = [
  ParametersIn<Operation, "path", Escaping>,
  "query" extends In ? ParametersIn<Operation, "query", Escaping> : {},
  "header" extends In ? ParametersIn<Operation, "header", Escaping> : {},
  "cookie" extends In ? ParametersIn<Operation, "cookie", Escaping> : {},
] extends [infer Path, infer Query, infer Header, infer Cookie]
  ? Path &
      SharedName<Query, keyof Path, "query", Escaping> &
      SharedName<Header, keyof Path | keyof Query, "header", Escaping> &
      SharedName<Cookie, keyof Path | keyof Query | keyof Header, "cookie", Escaping>
  : never;

/** Media types whose bodies `endpoint()` sends as JSON when given as parameters. */
type JsonMediaType = `application/json${string}` | `${string}+json${string}`;

/** A media type range (`*∕*`, `application/*`), which names no type to send. */
type MediaRange = `${string}*${string}`;

/**
 * The media types of `Content` whose properties are sent as JSON: its JSON ones; else, where it lists only ranges
 * (Kubernetes' `*∕*`), those: a body of any type may be JSON. Where it lists another type, that type's.
 */
type PropertiesTypes<Content> = [keyof Content & JsonMediaType] extends [never]
  ? [Exclude<keyof Content, MediaRange>] extends [never]
    ? keyof Content
    : never
  : keyof Content & JsonMediaType;

/** `data` holds the whole body: required, or optional when the description marks the body optional. */
type DataOption<Body, Required> = Required extends true ? { data: Body } : { data?: Body };

/** A JSON body whose schema names no property: any object or list, given whole (a merge patch, a JSON Patch). */
type OpenBody = Record<string, unknown> | readonly unknown[];

/** None of `Fields`: beside a whole body in `data`, a field would be lost. */
type NoFields<Fields> = { [Key in keyof Fields]?: never };

/**
 * The two ways to pass a body: its fields beside the parameters (required as the description says), or the whole
 * of it in `data` with no field beside it. One or the other, as the runtime takes them.
 */
type FieldsOrWhole<Fields, Whole, Required> = Required extends true
  ? (Fields & { data?: never }) | ({ data: Whole } & NoFields<Fields>)
  : (Partial<Fields> & { data?: never }) | ({ data?: Whole } & NoFields<Fields>);

/**
 * A JSON body: an object's properties sit at the top level beside the other parameters, or the whole body is
 * `data`; any other JSON (a list, say) is `data`. An object that names no property is `data` (sent as `{}` when
 * left out).
 */
type JsonBodyOptions<Body, Required, Escape = never> =
  NamesNothing<Body> extends true
    ? FieldsOrWhole<{}, OpenBody, false>
    : Body extends readonly unknown[]
      ? DataOption<Body, Required>
      : Body extends object
        ? FieldsOrWhole<Escaped<Named<Body>, Escape>, Body, Required>
        : DataOption<Body, Required>;

/** Form media types, whose bodies `withOpenAPI()` builds from the call's properties. */
type FormMediaType = "application/x-www-form-urlencoded" | "multipart/form-data";

/**
 * `withOpenAPI()`: body properties whose names a call takes for something else (`Taken`) are passed as
 * `"body:<name>"`, required as the description says; the others by name.
 */
type Escaped<Body, Taken> = [Taken & keyof Body] extends [never]
  ? Body
  : { [Key in keyof Body as Key extends Taken ? `body:${Key & string}` : Key]: Body[Key] };

/** A global class's instance type, read off `globalThis` so that no DOM type is named here: `never` where there is none. */
type Global<Name extends string> = typeof globalThis extends { [Key in Name]: { prototype: infer Instance } }
  ? Instance
  : never;

/** A file in a form: the environment's `Blob`. */
type FileField = Global<"Blob">;

/** A whole form in `data`: a `FormData` or `URLSearchParams`, or a URL-encoded form's text. */
type WholeForm<Multipart> = Global<"FormData"> | Global<"URLSearchParams"> | (Multipart extends true ? never : string);

/** What a multipart field that takes text also takes: a file, or files for a list of text (descriptions type files as text). */
type FileFor<Value> = Value extends string
  ? string extends Value
    ? FileField
    : never
  : Value extends readonly (infer Item)[]
    ? string extends Item
      ? (Item | FileField)[]
      : never
    : never;

/** A form field's value: as the description types it, and in a multipart form a file where it takes text. */
type FieldValue<Value, Multipart> = Multipart extends true ? Value | FileFor<Value> : Value;

/**
 * `withOpenAPI()`'s form body: its fields by name, with their nested values (a file as a `Blob` in a multipart
 * form); `data` one of them where the form declares it, else the whole form, or its fields as one object.
 */
type FormOptions<Body, Required, Taken, Multipart> =
  NamesNothing<Body> extends true
    ? FieldsOrWhole<{}, WholeForm<Multipart>, false>
    : [Body] extends [readonly unknown[] | string | number | boolean]
      ? // A form of a list or a scalar has no fields: only a whole form.
        DataOption<WholeForm<Multipart>, Required>
      : { [Key in keyof Named<Body>]: FieldValue<Named<Body>[Key], Multipart> } extends infer Fields
        ? "data" extends keyof Fields
          ? Required extends true
            ? Escaped<Fields, Exclude<Taken, "data">>
            : Partial<Escaped<Fields, Exclude<Taken, "data">>>
          : FieldsOrWhole<Escaped<Fields, Taken>, WholeForm<Multipart> | Partial<Fields>, Required>
        : never;

/** A body that is neither JSON nor a form, given whole: as the description types it, or bytes, a file, a stream. */
type RawBody<Body> = Body | ArrayBuffer | ArrayBufferView | FileField | Global<"ReadableStream">;

/**
 * What a call passes for the operation's request body: nothing for a GET or HEAD, or when it has none; `data` for
 * a body that is not JSON (descriptions type bytes as `string`, so bytes are taken too). Through `withOpenAPI()`
 * (`Escape`, the names a call takes for something else), a form's fields sit beside the parameters, and a JSON
 * property named like one of `Escape` is passed as `"body:<name>"`.
 */
type BodyOptions<
  Operation,
  Escape = never,
  Method = string,
  Required = Operation extends { requestBody: unknown } ? true : false,
> = Method extends "get" | "head"
  ? {}
  : Operation extends { requestBody?: infer RequestBody }
    ? Exclude<RequestBody, undefined> extends { content: infer Content }
      ? [PropertiesTypes<Content>] extends [never]
        ? [Escape] extends [never]
          ? DataOption<RawBody<Content[keyof Content]>, Required>
          : [keyof Content & FormMediaType] extends [never]
            ? DataOption<RawBody<Content[keyof Content]>, Required>
            : FormOptions<
                Content[keyof Content & FormMediaType],
                Required,
                Escape,
                "multipart/form-data" extends keyof Content ? true : false
              >
        : JsonBodyOptions<Content[PropertiesTypes<Content>], Required, Escape>
      : {}
    : {};

/** One object type with the same properties, so that editors show property names, not `Omit<…> & …`. */
type Flatten<T> = { [Key in keyof T]: T[Key] } & {};

/** `Keys` made optional in each member of `Options`: what `defaults()` already set. */
type Defaulted<Options, Keys> = [Keys] extends [never]
  ? Options
  : Options extends unknown
    ? { [Key in keyof Options as Key extends Keys ? never : Key]: Options[Key] } & {
        [Key in keyof Options as Key extends Keys ? Key : never]?: Options[Key];
      }
    : never;

/** The named options a route's call takes beside its parameters (the route sets its method and URL). */
export interface CallOptions extends Pick<EndpointOptions, "baseUrl" | "headers" | "mediaType" | "request"> {}

/** `withOpenAPI()`'s keys for what the description does not declare, beside a call's parameters. */
export interface Undeclared {
  /** A query parameter the description does not declare (yet): `"query:include[]": "total_count"`. */
  [query: `query:${string}`]: ParameterValue | null | undefined;
  /** A server variable's value: `"server:region": "eu"` (see `withOpenAPI()`). */
  [variable: `server:${string}`]: string | number | undefined;
  /** A credential for a security scheme of the description: `"auth:api_key": key` (see `withOpenAPI()`). */
  [credential: `auth:${string}`]: OpenAPICredential | null | undefined;
  /** 3.2's `in: "querystring"` parameter, which openapi-typescript does not type: `"querystring:filter": { … }`. */
  [querystring: `querystring:${string}`]: unknown;
}

/**
 * A credential for a security scheme: a user name and password for HTTP `basic`; the key, token or other
 * credential, as text, for the rest.
 */
export type OpenAPICredential = string | { username: string; password: string };

/**
 * `withOpenAPI()`'s key for a body property the description does not declare: beside a JSON body's or a form's
 * fields, not beside a whole body in `data`, and not on a GET or HEAD.
 */
export interface UndeclaredBody {
  /** A body property or form field, sent as it is: `"body:preferred_locales": ["de"]`. */
  [property: `body:${string}`]: unknown;
}

/** `UndeclaredBody` where a call may add a body property: its body (if any) goes as fields, not whole in `data`. */
type BodyEscapes<Options, Method> = Method extends "get" | "head"
  ? {}
  : [Exclude<Options["data" & keyof Options], undefined>] extends [never]
    ? UndeclaredBody
    : {};

/** The names a `withOpenAPI()` call takes for something other than a body property: those are `"body:<name>"`. */
type TakenNames<Parameters> = Exclude<NamedOption, "url"> | "data" | keyof Parameters;

/**
 * The options of an operation's call: its parameters and body, and the named options beside them; nothing else,
 * so that a misspelled name is an error. Through `withOpenAPI()` (`In` all four locations), the escapes too.
 * `Method` (lowercase) leaves the body out of a GET's or HEAD's. A union where a body can be passed two ways.
 */
export type OperationOptions<Operation, Defaults = {}, In extends OpenAPILocation = "path" | "query", Method = string> =
  // Through `infer`, so that an error prints the options' properties, not this alias and the whole operation.
  Flatten<
    Defaulted<
      ParametersOf<Operation, In> &
        BodyOptions<Operation, OpenAPILocation extends In ? TakenNames<ParametersOf<Operation, In>> : never, Method>,
      keyof Defaults
    >
  > extends infer Options
    ? Options extends unknown
      ? Options & CallOptions & (OpenAPILocation extends In ? Undeclared & BodyEscapes<Options, Method> : {})
      : never
    : never;

/**
 * A description's route's method, lowercase: simpler than RouteMethod(), which a check of every call would pay for.
 * An `operationId` tells no method: one whose operation has no request body is read as a GET's (no body options).
 */
type OperationMethod<Route, Operation = unknown> = Route extends `${infer Method} ${string}`
  ? Lowercase<Method>
  : Operation extends { requestBody?: infer Body }
    ? [Exclude<Body, undefined>] extends [never]
      ? "get"
      : string
    : "get";

/** The options argument: required when something in it is. */
type OptionsArgument<Options> = {} extends Options ? [options?: Options] : [options: Options];

/**
 * The arguments after the route: found by indexing the description with the route, never by relating the
 * call to every route of it, so one more call costs the same whatever the description's size. Required when
 * something in them is; loose for a route known only as a `string` (and for an unknown one, which is an error
 * on the route itself); none after the `endpoint(options)` form.
 */
export type OpenAPIArguments<
  Paths,
  Route,
  Defaults = {},
  In extends OpenAPILocation = "path" | "query",
  Operations = never,
> =
  RouteOperation<Paths, Route, Operations> extends infer Operation
    ? [Operation] extends [never]
      ? [Route] extends [string]
        ? [options?: EndpointOptions]
        : []
      : OptionsArgument<OperationOptions<Operation, Defaults, In, OperationMethod<Route, Operation>>>
    : never;

/**
 * The route argument: itself when the description has it (or it is only known as a `string`), else every route, for
 * the error and the editor's completions. Whether it has it is read off the route (its method, its path key), so
 * that a right call never lists every route of a big description.
 */
type RouteArgument<Paths, Route, Operations = never> = [Route] extends [string]
  ? string extends Route
    ? Route
    : [RouteOperation<Paths, Route, Operations>] extends [never]
      ? Untyped<Paths, Route> extends true
        ? Route
        : OpenAPIRoute<Paths> | OperationIds<Operations>
      : Route
  : Route;

/** Every call of the description as `[route, ...options]`, for wrappers that take a call's arguments as they are. */
export type OpenAPICall<Paths, Defaults = {}> = {
  [Route in OpenAPIRoute<Paths>]: [route: Route, ...options: OpenAPIArguments<Paths, Route, Defaults>];
}[OpenAPIRoute<Paths>];

/** A response's JSON body type, or `never` when it has no JSON content. */
type JsonContent<Response> = Response extends { content?: infer Content }
  ? [Exclude<Content, undefined>] extends [never]
    ? never
    : Exclude<Content, undefined>[keyof Exclude<Content, undefined> & JsonMediaType]
  : never;

/** Success statuses in the order descriptions list them; `2XX` is OpenAPI's range. */
type SuccessStatuses = [200, 201, 202, 203, 204, 205, 206, 207, 208, 226, "2XX"];

/** Whether a response has content, in any media type. */
type HasContent<Response> = Response extends { content?: infer Content }
  ? [Exclude<Content, undefined>] extends [never]
    ? false
    : true
  : false;

/**
 * The JSON body of the first success status that has one; else `undefined` when a success has no content
 * (204), else `unknown` (text, bytes).
 */
type SuccessBody<Responses, Statuses, Otherwise = unknown> = Statuses extends [infer Status, ...infer Rest]
  ? Status extends keyof Responses
    ? [JsonContent<Responses[Status]>] extends [never]
      ? SuccessBody<Responses, Rest, HasContent<Responses[Status]> extends true ? Otherwise : undefined>
      : JsonContent<Responses[Status]>
    : SuccessBody<Responses, Rest, Otherwise>
  : Otherwise;

/**
 * The JSON body a route answers with on success: the first 2xx status of the description that has JSON
 * content, `undefined` for a success without content (204), `unknown` when the success is not JSON (text,
 * bytes). Types only, for typing what `fetch()` returns: `(await response.json()) as OpenAPIResponse<paths, Route>`.
 * @example type Repository = OpenAPIResponse<paths, "GET /repos/{owner}/{repo}">; // has `full_name: string`
 */
export type OpenAPIResponse<Paths, Route extends OpenAPIRoute<Paths>> =
  RouteOperation<Paths, Route> extends { responses: infer Responses }
    ? SuccessBody<Responses, SuccessStatuses>
    : unknown;

/**
 * `endpoint` typed by an OpenAPI description: `const api = endpoint as OpenAPIEndpoint<paths>`, where
 * `paths` comes from openapi-typescript (`@octokit/openapi-types` for GitHub). Every route of the
 * description is completed and checked with its parameters and body; an unknown literal route is an
 * error; a route typed `string` and the `endpoint(options)` form are not checked. `DEFAULTS`, `merge()` and
 * `parse()` are `Endpoint`'s.
 * @example
 * import type { paths } from "@octokit/openapi-types";
 * const github = endpoint as OpenAPIEndpoint<paths>;
 * github("POST /repos/{owner}/{repo}/issues", { owner: "octocat", repo: "hello-world", title: "Found a bug" });
 */
export interface OpenAPIEndpoint<
  Paths,
  Defaults extends object = {},
  In extends OpenAPILocation = "path" | "query",
  Operations = never,
> extends Pick<Endpoint<Defaults>, "DEFAULTS" | "merge" | "parse"> {
  /**
   * Build request options for one of the description's routes, such as `"POST /repos/{owner}/{repo}/issues"`,
   * and its options; or from options alone, where `url` is required and `method` defaults to GET. One
   * signature, so that a wrong call gets one error that names what is wrong.
   * @throws {TypeError} naming the option, header, parameter or template position at fault.
   */
  <Route extends string | EndpointOptions>(
    route: RouteArgument<Paths, Route, Operations>,
    ...options: OpenAPIArguments<Paths, Route, Defaults, In, Operations>
  ): RequestOptions & {
    method: Route extends `${string} ${string}` ? RouteMethod<Route> : string;
    headers: EndpointHeaders;
  };
  /**
   * A typed endpoint with these options as defaults: a parameter they set is optional in every call; server values
   * and credentials (`"auth:<scheme>"`) are given once.
   */
  defaults<const Options extends EndpointOptions & Undeclared>(
    options: Options,
  ): OpenAPIEndpoint<Paths, Omit<Defaults, keyof Options> & Options, In, Operations>;
}

// What the public types above are built from, exported (each documented where it is declared) so that the
// generated API docs name no type a reader cannot open.
export type {
  BodyEscapes,
  BodyOptions,
  DataOption,
  Defaulted,
  Escaped,
  FieldsOrWhole,
  FieldValue,
  FileField,
  FileFor,
  Flatten,
  FormMediaType,
  FormOptions,
  Global,
  HasContent,
  HttpMethod,
  IgnoredHeader,
  JsonBodyOptions,
  JsonContent,
  JsonMediaType,
  MediaRange,
  Named,
  NamedKeys,
  NamesNothing,
  NoFields,
  OpenBody,
  OperationAt,
  OperationIds,
  OperationMethod,
  OptionsArgument,
  ParameterKey,
  ParametersIn,
  ParametersOf,
  PropertiesTypes,
  RawBody,
  RouteArgument,
  RouteOperation,
  SharedName,
  SuccessBody,
  SuccessStatuses,
  TakenNames,
  Untyped,
  WholeForm,
};

// #endregion
