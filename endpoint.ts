/**
 * endpoint-options — turn a REST route and parameters into plain request options.
 *
 * One file, no dependencies, read top to bottom: each part uses only the parts above it.
 *
 *   1. The contract: the types a caller reads — options, results, `Endpoint`, `FetchInit`, `OpenAPIDescription`.
 *   2. Shared helpers: errors, plain objects, a bounded cache, the named options, what kind of body a value is.
 *   3. RFC 6570 templates: `compile()` reads a template once, `expand()` fills it, `encode()` escapes.
 *   4. Options, checks and merging: `mergeOptions()` is what `merge()` returns, `toState()` what `defaults()` keeps.
 *   5. Building a request: `build()`, the one path from options to request options.
 *   6. `endpoint`, `parseTemplate()` and `toFetch()`.
 *   7. Types for literal routes and OpenAPI descriptions: compile time only, no runtime bytes.
 *   8. `withOpenAPI()` and `reduceOpenAPI()`, between `#region openapi` markers (the CDN bundle leaves it out).
 *
 * The two call paths:
 *   - `endpoint(route, options)`: parseRoute() (cached) → build(): callParameters(), targetUrl() → expand(),
 *     remainingBody(), requestHeaders().
 *   - a `withOpenAPI()` call: preparer() (once per route) → fastCall() → build(); or, when the call needs
 *     reshaping, merge() → callOperation(): placeParameters(), operationUrl(), gatherBody() → build().
 *
 * Where a change goes:
 *
 *   | a change to …                                         | part | start at                          |
 *   |-------------------------------------------------------|------|-----------------------------------|
 *   | what a caller may pass or gets back                   | 1, 7 | `EndpointOptions`, `Endpoint`     |
 *   | how a value is percent-encoded                        | 3    | `encode()`, `KEPT`                |
 *   | template syntax, dot-segment checks                   | 3    | `compile()`, `expand()`           |
 *   | defaults, headers, media types (`mediaType`)          | 4    | `mergeOptions()`, `toState()`     |
 *   | where a parameter goes: path, query or body           | 5    | `build()`                         |
 *   | how a result is sent with fetch                       | 6    | `toFetch()`                       |
 *   | the types of a literal route's or a description's call | 7    | `RouteOptions`, `OperationOptions` |
 *   | how a description's parameters, bodies, servers are read | 8  | `readOperation()`                 |
 *   | how an OpenAPI call is built                          | 8    | `callOperation()`, `fastCall()`   |
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

/**
 * An OpenAPI 3.0 or 3.1 description, parsed from JSON (or YAML). `withOpenAPI()` reads its `paths`, its
 * `servers`, and `components` through `$ref`s; `reduceOpenAPI()` keeps only those parts.
 */
export interface OpenAPIDescription {
  /** The operations, by path and then by method, as the OpenAPI Specification defines them. */
  paths: Record<string, unknown>;
  /** Any other part of the description: `servers`, `components`, `info`… */
  [key: string]: unknown;
}

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
  name: string;
  /** At most this many characters of the value for `{var:N}`; 0 for all. */
  prefix: number;
  explode: boolean;
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
  variables: Variable[];
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
    return { name, explode: !!match[2], prefix: +match[3]! || 0, skip: url && NAMED.has(name) };
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
      variables,
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
  { name, prefix, explode }: Variable,
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
    for (const variable of part.variables) {
      const value = variable.skip || !hasOwn(variables, variable.name) ? undefined : variables[variable.name];
      const text = value == null ? undefined : expandValue(part, variable, value);
      if (text === undefined) continue;
      const at = out.length;
      out += joiner + text;
      last = text || joiner || last;
      // What an expansion writes, its operator or separator too (`{.a,b}` with empty values), can help build
      // a dot segment only with a piece made of dots alone. Escaped, a value has no "/" or "%", so unless
      // its operator keeps them or writes "/" or "." (`{+a}`, `{/a*}`, `{.a}`), it must start with a dot.
      const mayDot = text[0] === "." || part.keep === RESERVED || part.separator !== ",";
      if (part.inPath && mayDot && DOT_PIECE.test(joiner + text)) {
        dotted ??= [];
        dotted.push([at, out.length, variable.name]);
      }
      joiner = part.separator;
    }
  }
  if (dotted) rejectDotSegments(out, dotted);
  return trimSlash && out.length > 1 && last[last.length - 1] === "/" ? out.slice(0, -1) : out;
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
    mustBe(what, what === "route" ? "a string or a plain object" : "a plain object", options);
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

/**
 * `name=value` added to `query` (after a "&" when it has pairs), none for `null` and `undefined`. A list
 * under a name ending in `[]` repeats the name for each item; any other list is comma-joined, as GitHub's
 * comma lists want. `q` keeps literal `+` between encoded parts (GitHub's search syntax).
 */
function addPairs(query: string, name: string, value: unknown): string {
  if (value == null) return query;
  if (name === "data") fail("option `data` is a body: GET and HEAD have none");
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
    put(body, key, params[key]);
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
  toState(
    mergeOptions(
      {},
      {
        method: "GET",
        baseUrl: "https://api.github.com",
        // The version is package.json's; a test holds the two equal.
        headers: { accept: "application/vnd.github.v3+json", "user-agent": "endpoint-options/1.0.0" },
        mediaType: { format: "" },
      },
    ),
  ),
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
// 7. Types for literal routes and OpenAPI descriptions (compile time only)
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

// Types from an OpenAPI description. `Paths` is the `paths` interface openapi-typescript generates (for
// GitHub, `@octokit/openapi-types`); the routes, parameters and bodies it describes become the types of
// `endpoint()`'s calls. Types only: casting `endpoint` adds no runtime bytes.

/** The methods an OpenAPI path item can have an operation for. */
type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";

/** The operation of a path item under a method, or `never` (openapi-typescript 7 writes `put?: never`). */
type OperationAt<PathItem, Method> = Method extends keyof PathItem ? Exclude<PathItem[Method], undefined> : never;

/** Every route of `Paths` as `"METHOD /path"`, method uppercase: what editors complete. */
export type OpenAPIRoute<Paths> = {
  [Path in keyof Paths & string]: {
    [Method in HttpMethod]: [OperationAt<Paths[Path], Method>] extends [never] ? never : `${Uppercase<Method>} ${Path}`;
  }[HttpMethod];
}[keyof Paths & string];

/** The operation a route names. */
type RouteOperation<Paths, Route> = [Route] extends [`${infer Method} ${infer Path}`]
  ? Path extends keyof Paths
    ? OperationAt<Paths[Path], Lowercase<Method>>
    : never
  : never;

/** Where a parameter can be: a plain `endpoint` sends path and query parameters by name, `withOpenAPI()` all four. */
export type OpenAPILocation = "path" | "query" | "header" | "cookie";

/** An operation's parameters in one location, `{}` when it has none. */
type ParametersIn<Operation, Where extends OpenAPILocation> = Operation extends { parameters?: infer Parameters }
  ? Where extends keyof Parameters
    ? Exclude<Parameters[Where], undefined> extends infer Found
      ? [Found] extends [never]
        ? {}
        : Found
      : never
    : {}
  : {};

/** An operation's parameters in every location of `In`, as one intersection. */
type ParametersOf<Operation, In extends OpenAPILocation> = (
  In extends unknown
    ? (parameters: ParametersIn<Operation, In>) => void
    : never
) extends (parameters: infer All) => void
  ? All
  : never;

/** Media types whose bodies `endpoint()` sends as JSON when given as parameters. */
type JsonMediaType = `application/json${string}` | `${string}+json${string}`;

/** `data` holds the whole body: required, or optional when the description marks the body optional. */
type DataOption<Body, Required> = Required extends true ? { data: Body } : { data?: Body };

/**
 * A JSON body: an object's properties sit at the top level beside the other parameters, or the whole body
 * is `data`; any other JSON (a list, say) is `data`. An optional object body may be left out whole.
 */
type JsonBodyOptions<Body, Required, Escape = never> = Body extends readonly unknown[]
  ? DataOption<Body, Required>
  : Body extends object
    ? Required extends true
      ? { data: Body } | Flatten<Escaped<Body, Escape>>
      : Partial<Escaped<Body, Escape>> & { data?: Body }
    : DataOption<Body, Required>;

/** Form media types, whose bodies `withOpenAPI()` builds from the call's properties. */
type FormMediaType = "application/x-www-form-urlencoded" | "multipart/form-data";

/**
 * `withOpenAPI()`: body properties whose names a call takes for something else (`Taken`) are passed as
 * `"body:<name>"`, required as the description says; the others by name.
 */
type Escaped<Body, Taken> = [Taken & keyof Body] extends [never]
  ? Body
  : Omit<Body, Taken & keyof Body> & {
      [Key in keyof Body as Key extends Taken ? `body:${Key & string}` : never]: Body[Key];
    };

/** A file in a form: the environment's `Blob`, read off `globalThis` so that no DOM type is named here. */
type FileField = typeof globalThis extends { Blob: { prototype: infer Blob } } ? Blob : never;

/** `withOpenAPI()`'s form body: its fields by name (a file as a `Blob`), `data` one of them. */
type FormOptions<Body, Required, Taken> = Body extends object
  ? Escaped<{ [Key in keyof Body]: Body[Key] | FileField }, Exclude<Taken, "data">> extends infer Fields
    ? Required extends true
      ? Fields
      : Partial<Fields>
    : never
  : {};

/**
 * What a call passes for the operation's request body: nothing when it has none; `data` for a body that is not
 * JSON (descriptions type bytes as `string`, so bytes are taken too). Through `withOpenAPI()` (`Escape`, the
 * names a call takes for something else), a form's fields sit beside the parameters, and a JSON property named
 * like one of `Escape` is passed as `"body:<name>"`.
 */
type BodyOptions<
  Operation,
  Escape = never,
  Required = Operation extends { requestBody: unknown } ? true : false,
> = Operation extends { requestBody?: infer RequestBody }
  ? Exclude<RequestBody, undefined> extends { content: infer Content }
    ? [keyof Content & JsonMediaType] extends [never]
      ? [Escape] extends [never]
        ? DataOption<Content[keyof Content] | ArrayBuffer | ArrayBufferView, Required>
        : [keyof Content & FormMediaType] extends [never]
          ? DataOption<Content[keyof Content] | ArrayBuffer | ArrayBufferView, Required>
          : FormOptions<Content[keyof Content & FormMediaType], Required, Escape>
      : JsonBodyOptions<Content[keyof Content & JsonMediaType], Required, Escape>
    : {}
  : {};

/** One object type with the same properties, so that editors show property names, not `Omit<…> & …`. */
type Flatten<T> = { [Key in keyof T]: T[Key] } & {};

/** `Keys` made optional in each member of `Options`: what `defaults()` already set. */
type Defaulted<Options, Keys> = Options extends unknown
  ? Omit<Options, Keys & keyof Options> & Partial<Pick<Options, Keys & keyof Options>>
  : never;

/**
 * The options of an operation's call: its parameters and body, the named options beside them, and any other
 * parameter (an API newer than its description still works).
 */
export type OperationOptions<Operation, Defaults = {}, In extends OpenAPILocation = "path" | "query"> = Flatten<
  Defaulted<
    ParametersOf<Operation, In> &
      BodyOptions<Operation, "header" extends In ? NamedOption | "data" | keyof ParametersOf<Operation, In> : never>,
    keyof Defaults
  > &
    Pick<EndpointOptions, "baseUrl" | "headers" | "mediaType" | "request"> & { [parameter: string]: unknown }
>;

/** The options argument: required when something in it is. */
type OptionsArgument<Options> = {} extends Options ? [options?: Options] : [options: Options];

/**
 * The arguments after the route: found by indexing the description with the route, never by relating the
 * call to every route of it, so one more call costs the same whatever the description's size. Required when
 * something in them is; loose for a route known only as a `string` (and for an unknown one, which is an error
 * on the route itself); none after the `endpoint(options)` form.
 */
export type OpenAPIArguments<Paths, Route, Defaults = {}, In extends OpenAPILocation = "path" | "query"> = [
  Route,
] extends [OpenAPIRoute<Paths>]
  ? OptionsArgument<OperationOptions<RouteOperation<Paths, Route>, Defaults, In>>
  : [Route] extends [string]
    ? [options?: EndpointOptions]
    : [];

/** The route argument: itself when the description has it (or it is only known as a `string`), else every route. */
type RouteArgument<Paths, Route> = [Route] extends [string]
  ? string extends Route
    ? Route
    : [Route] extends [OpenAPIRoute<Paths>]
      ? Route
      : OpenAPIRoute<Paths>
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
export interface OpenAPIEndpoint<Paths, Defaults extends object = {}, In extends OpenAPILocation = "path" | "query">
  extends Pick<Endpoint<Defaults>, "DEFAULTS" | "merge" | "parse"> {
  /**
   * Build request options for one of the description's routes, such as `"POST /repos/{owner}/{repo}/issues"`,
   * and its options; or from options alone, where `url` is required and `method` defaults to GET. One
   * signature, so that a wrong call gets one error that names what is wrong.
   * @throws {TypeError} naming the option, header, parameter or template position at fault.
   */
  <Route extends string | EndpointOptions>(
    route: RouteArgument<Paths, Route>,
    ...options: OpenAPIArguments<Paths, Route, Defaults, In>
  ): RequestOptions & { method: Route extends string ? RouteMethod<Route> : string; headers: EndpointHeaders };
  /** A typed endpoint with these options as defaults: a parameter they set is optional in every call. */
  defaults<const Options extends EndpointOptions>(
    options: Options,
  ): OpenAPIEndpoint<Paths, Omit<Defaults, keyof Options> & Options, In>;
}

// What the public types above are built from, exported (each documented where it is declared) so that the
// generated API docs name no type a reader cannot open.
export type {
  BodyOptions,
  ColonNames,
  DataOption,
  Defaulted,
  Escaped,
  Expressions,
  FileField,
  Flatten,
  FormMediaType,
  FormOptions,
  GlobalRequestInit,
  HasContent,
  HttpMethod,
  JsonBodyOptions,
  JsonContent,
  JsonMediaType,
  Letter,
  NamedOption,
  OperationAt,
  Operator,
  OptionalIn,
  OptionsArgument,
  ParametersIn,
  ParametersOf,
  RequiredIn,
  RouteArgument,
  RouteArguments,
  RouteOperation,
  SuccessBody,
  SuccessStatuses,
  VariableNames,
  Word,
  WordChar,
};

// #region openapi
// ---------------------------------------------------------------------------------------------------------------------
// 8. Requests as an OpenAPI description says: `withOpenAPI()`, and `reduceOpenAPI()` for a light description.
//    build.mjs leaves this region out of the CDN bundle.
// ---------------------------------------------------------------------------------------------------------------------

// biome-ignore lint/suspicious/noExplicitAny: a description is JSON of any shape; each read checks what it needs.
type DescriptionNode = Record<string, any>;

/** A parameter of an operation, read from the description once. */
interface Parameter {
  name: string;
  /** The call's key for it: its name, or `in:name` when the name is a named option's (`query:headers`). */
  key: string;
  /** Its name in the URL or cookie, percent-encoded where RFC 3986 needs it (`StartTime%3C`). */
  variable: string;
  /** `path`, `query`, `header` or `cookie`; `query+` for an `allowReserved` query parameter. */
  in: string;
  style: string;
  explode: boolean;
  required: boolean;
  /** A `content` parameter, sent as JSON text. */
  json: boolean;
}

/** What `withOpenAPI()` works out once per operation. */
interface CompiledOperation {
  route: string;
  /** Lowercase. */
  method: string;
  parameters: Parameter[];
  /** The keys of the required parameters: what a call must give for the fast way (see `fast`). */
  required: string[];
  /**
   * The path and query as a template, each parameter an expression of its style (`/pets/{;id*}{?tags*,limit}`),
   * after a relative server's path; then `allowReserved` query parameters (`{&a}`, reserved characters kept),
   * and the cookies (`{?a}`).
   */
  templates: Template[];
  /**
   * Whether `build()` can take the call's options as they are, with the first template: every parameter is a
   * `simple` path or `form` query one, under its own name, with a name the URL takes as it is; the body is not a form.
   */
  fast: boolean;
  /** A form body's media type. */
  form: string | undefined;
  /** What a body is labelled when the caller does not say: the description's media type (none for multipart). */
  label: string | undefined;
  /** The success responses' media types, JSON first, as an accept header; `*∕*` when they have none. */
  accept: string;
  /** An absolute server URL, split as a base URL is; `undefined` when the server is relative or there is none. */
  server: SplitBase | undefined;
}

const METHOD = /^(get|put|post|delete|options|head|patch|trace)$/;
const SUCCESS = /^2(\d\d|XX)$/i;

/** What the location of a parameter makes its default style. */
const defaultStyle = (where: string) => (where === "query" || where === "cookie" ? "form" : "simple");

/** A node of the description, its `$ref`s (`#/components/...`) followed; one that names nothing is refused. */
function follow(description: OpenAPIDescription, node: unknown): DescriptionNode {
  for (let depth = 0; isPlainObject(node) && typeof node.$ref === "string"; depth++) {
    const ref = node.$ref;
    let target: unknown;
    if (depth < MAX_DEPTH && ref.startsWith("#/")) {
      const keys = ref.slice(2).split("/");
      target = keys.reduce<unknown>(
        (at, key) => (at as DescriptionNode)?.[key.replace(/~1/g, "/").replace(/~0/g, "~")],
        description,
      );
    }
    if (!isPlainObject(target)) fail(`$ref ${quote(ref)} names nothing`);
    node = target;
  }
  return isPlainObject(node) ? node : {};
}

/** The media types of a request body's or a response's `content`, in the description's order. */
const mediaTypes = (description: OpenAPIDescription, node: unknown) =>
  Object.keys(follow(description, follow(description, node).content));

/** The first server of the first list that has one, its variables at their defaults. */
function serverUrl(servers: unknown[]): string | undefined {
  const list = servers.find((candidate): candidate is unknown[] => Array.isArray(candidate) && candidate.length > 0);
  const server = list?.[0] as DescriptionNode | undefined;
  if (!server) return;
  const { url } = server;
  if (typeof url !== "string") mustBe("a server's `url`", "a string", url);
  return url.replace(/\{([^{}]*)\}/g, (_, name: string) => {
    const value = server.variables?.[name]?.default;
    return typeof value === "string" ? value : fail(`server ${quote(url)} has no default for {${name}}`);
  });
}

/** A parameter as the description declares it, with its defaults worked out; `undefined` for one without a name. */
function toParameter(found: DescriptionNode): Parameter | undefined {
  const { name, in: where, style = defaultStyle(where) } = found;
  if (typeof name !== "string") return undefined;
  return {
    name,
    key: NAMED.has(name) || name === "data" ? where + ":" + name : name,
    variable: encode(name, UNRESERVED, name),
    in: where + (found.allowReserved ? "+" : ""),
    style,
    explode: found.explode ?? style === "form",
    required: found.required || where === "path",
    json: !!found.content,
  };
}

/** An operation's parameters by `in:name`: the path item's, overridden by the operation's of the same name and location. */
function readParameters(description: OpenAPIDescription, item: DescriptionNode, operation: DescriptionNode) {
  const declared = new Map<string, Parameter>();
  for (const raw of [item.parameters, operation.parameters].flat()) {
    const found = follow(description, raw);
    const parameter = toParameter(found);
    if (parameter) declared.set(found.in + ":" + parameter.name, parameter);
  }
  return declared;
}

/** A relative server's path, which starts the operation's template (it goes under the endpoint's baseUrl). */
function serverPrefix(server: string | undefined): string {
  if (server === undefined || ABSOLUTE.test(server)) return "";
  let prefix = (server[0] === "/" ? "" : "/") + server;
  while (prefix.endsWith("/")) prefix = prefix.slice(0, -1);
  return prefix;
}

/** The RFC 6570 operator that writes a path parameter's style. */
function pathOperator(style: string): string {
  if (style === "label") return ".";
  return style === "matrix" ? ";" : "";
}

/**
 * The sources of an operation's templates (see `CompiledOperation.templates`). Each parameter is an expression named
 * by its index, `p0`, `p1`…, because any parameter name compiles so (`$filter`, `StartTime<`); they are renamed
 * to the parameters' variables once compiled. RFC 6570 writes every OpenAPI style once the value is in shape
 * (see styled()). A `#fragment` in the path key only tells operations apart; a literal query stays, and the
 * parameters join it.
 */
function templateSources(route: string, path: string, prefix: string, declared: Map<string, Parameter>): string[] {
  const parameters = [...declared.values()];
  const expression = ({ style, explode }: Parameter, i: number) =>
    `p${i}${explode || style === "label" || style === "deepObject" ? "*" : ""}`;
  const group = (operator: string, where: string) => {
    const names = parameters.map((parameter, i) => (parameter.in === where ? expression(parameter, i) : ""));
    const list = names.filter(Boolean);
    return list.length ? `{${operator}${list}}` : "";
  };
  const [key] = path.split("#", 1) as [string];
  const source = key.replace(/\{([^{}]*)\}/g, (_, name: string) => {
    const parameter = declared.get("path:" + name) ?? fail(`${quote(route)} has no path parameter ${quote(name)}`);
    return `{${pathOperator(parameter.style)}${expression(parameter, parameters.indexOf(parameter))}}`;
  });
  return [prefix + source + group(key.includes("?") ? "&" : "?", "query"), group("&", "query+"), group("?", "cookie")];
}

/**
 * One of an operation's templates compiled, its variables renamed from `p<index>` to the parameters' variables.
 * In the first (the path and query), `{?…}`, `{&…}` and `{#…}` end the path, as a literal "?" or "#" does; the
 * second holds the `allowReserved` parameters, which keep reserved characters.
 */
function operationTemplate(source: string, i: number, parameters: Parameter[]): Template {
  const template = compile(source, false);
  template.taken = new Set(NAMED_OPTIONS);
  let inPath = i === 0;
  for (const part of template.parts) {
    if (typeof part === "string") {
      inPath &&= !/[?#]/.test(part);
      continue;
    }
    inPath &&= !/[?&#]/.test(part.first);
    part.inPath = inPath;
    if (i === 1) part.keep = RESERVED;
    for (const variable of part.variables) {
      variable.name = parameters[+variable.name.slice(1)]!.variable;
      template.taken.add(variable.name);
    }
  }
  return template;
}

/**
 * The request body's media type: JSON first, then a form, then the first listed. `label` is what the body is
 * labelled: none for multipart, which fetch labels with its boundary; `application/json` as endpoint() labels it.
 */
function requestMediaType(types: string[]): { form: string | undefined; label: string | undefined } {
  const json = types.find(isJson);
  const isFormType = (mediaType: string) =>
    /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i.test(mediaType);
  const form = json ? undefined : types.find(isFormType);
  const type = json ?? form ?? types[0];
  if (!type || /^multipart\/|\*/i.test(type)) return { form, label: undefined };
  return { form, label: /^application\/json$/i.test(type) ? JSON_TYPE : type };
}

/** What the operation answers with on success, JSON first, as an accept header; `*∕*` when it says nothing. */
function successMediaTypes(description: OpenAPIDescription, operation: DescriptionNode): string {
  const types = new Set<string>();
  const responses = follow(description, operation.responses);
  for (const status of Object.keys(responses)) {
    if (!SUCCESS.test(status)) continue;
    for (const type of mediaTypes(description, responses[status])) types.add(type);
  }
  const all = [...types];
  return [...all.filter(isJson), ...all.filter((type) => !isJson(type))].join(", ") || "*/*";
}

/** Whether `build()` can take a call's options as they are (see `CompiledOperation.fast`). */
function takesOptionsAsTheyAre(parameters: Parameter[], form: string | undefined): boolean {
  if (form) return false;
  return parameters.every(({ key, name, variable, json, in: where, style }) => {
    if (key !== name || variable !== name || json) return false;
    return where === "path" ? style === "simple" : where === "query" && style === "form";
  });
}

/** An operation of the description, read once: its parameters, its path and query as templates, its server and media types. */
function readOperation(description: OpenAPIDescription, method: string, path: string): CompiledOperation {
  const route = `${method.toUpperCase()} ${path}`;
  const item = follow(description, description.paths[path]);
  if (!hasOwn(description.paths, path) || !METHOD.test(method) || !hasOwn(item, method)) {
    fail(`route ${quote(route)} is not in the description`);
  }
  const operation = follow(description, item[method]);
  const declared = readParameters(description, item, operation);
  const parameters = [...declared.values()];
  // The server: the operation's, else the path's, else the description's.
  const server = serverUrl([operation.servers, item.servers, description.servers]);
  const sources = templateSources(route, path, serverPrefix(server), declared);
  const { form, label } = requestMediaType(mediaTypes(description, operation.requestBody));
  return {
    route,
    method,
    parameters,
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.key),
    templates: sources.map((source, i) => operationTemplate(source, i, parameters)),
    fast: takesOptionsAsTheyAre(parameters, form),
    form,
    label,
    accept: successMediaTypes(description, operation),
    server: server !== undefined && ABSOLUTE.test(server) ? splitBase(server) : undefined,
  };
}

/** What one `withOpenAPI()` call shares with the endpoints its `defaults()` make. */
interface OpenAPIContext {
  description: OpenAPIDescription;
  /** The operations read so far, by `"<method> <path>"`. */
  operations: Map<string, CompiledOperation>;
  /**
   * What the library sets when the caller does not, GitHub's base URL and accept header (`endpoint.DEFAULTS`):
   * where they stand, the description's server and media types take their place.
   */
  own: { baseUrl: string; accept: string | number | undefined };
}

/** An operation, read from the description when first called. */
function readOnce({ description, operations }: OpenAPIContext, method: string, path: string): CompiledOperation {
  const id = method + " " + path;
  let operation = operations.get(id);
  if (!operation) {
    operation = readOperation(description, method, path);
    operations.set(id, operation);
  }
  return operation;
}

/** A state whose base is the operation's server, when the base is the library's own (or none). */
function onServer({ own }: OpenAPIContext, state: State, { server }: CompiledOperation, baseUrl: unknown): State {
  const ownBase = baseUrl === undefined || baseUrl === own.baseUrl;
  return server && ownBase ? { ...state, base: server } : state;
}

/**
 * A value in the shape RFC 6570 expands as OpenAPI's style table writes it: JSON text for a `content`
 * parameter; a `deepObject`'s keys as `name[key]`; not exploded, an object as its keys and values in one list
 * (what `{x}`, `{;x}` and `{?x}` write for either, and label's dots need), and `spaceDelimited` and
 * `pipeDelimited` lists joined by a space or a pipe. A header exploded: `key=value` pairs, comma-joined.
 */
function styled({ name, style, explode, json, in: where }: Parameter, value: unknown): unknown {
  if (json) return JSON.stringify(value);
  const object = isPlainObject(value) ? value : undefined;
  const entries = object && Object.entries(object).filter(([, item]) => item != null);
  if (entries && style === "deepObject") {
    return Object.fromEntries(entries.map(([key, item]) => [`${name}[${key}]`, item]));
  }
  if (entries && explode && where === "header") return entries.map((entry) => entry.join("=")).join(",");
  if (explode || !(entries || Array.isArray(value))) return value;
  const list = entries ? entries.flat() : (value as unknown[]);
  if (style === "spaceDelimited") return list.join(" ");
  return style === "pipeDelimited" ? list.join("|") : list;
}

/** The call's headers, with the operation's success media types as accept where the caller asked for none. */
function operationHeaders({ own }: OpenAPIContext, operation: CompiledOperation, call: Record<string, unknown>) {
  const { format, previews } = (call.mediaType ?? {}) as Partial<MediaType>;
  const headers = addHeaders({}, call.headers);
  if (headers.accept === own.accept && !format && !previews?.length) headers.accept = operation.accept;
  return headers;
}

/**
 * Each parameter taken out of the call, in shape: a header parameter's into `headers`, the others' into the
 * values the templates expand. A `url` parameter may have come beside the route (see URL_PARAMETER): what is
 * left of it is returned with the values.
 */
function placeParameters(
  { parameters, route }: CompiledOperation,
  call: Record<string, unknown>,
  headers: Record<string, unknown>,
  urlParameter: unknown,
): { values: Record<string, unknown>; urlParameter: unknown } {
  const values: Record<string, unknown> = {};
  for (const parameter of parameters) {
    let value = call[parameter.key];
    delete call[parameter.key];
    if (value === undefined && parameter.name === "url") {
      value = urlParameter;
      urlParameter = undefined;
    }
    if (value == null) {
      if (parameter.required) fail(`parameter ${quote(parameter.key)} is required by ${quote(route)}`);
    } else if (parameter.in === "header") {
      addHeaders(headers, { [parameter.name]: asText(styled(parameter, value), parameter.name) });
    } else put(values, parameter.variable, styled(parameter, value));
  }
  return { values, urlParameter };
}

/** The URL from the operation's templates; the cookie parameters go into `headers`. */
function operationUrl(
  { templates }: CompiledOperation,
  values: Record<string, unknown>,
  headers: Record<string, unknown>,
) {
  const [url, reserved, cookies] = templates.map((template, i) => expand(template, values, i === 0)) as string[];
  if (cookies) {
    const pairs = cookies.slice(1).replace(/&/g, "; ");
    headers.cookie = headers.cookie ? headers.cookie + "; " + pairs : pairs;
  }
  if (!reserved) return url!;
  // `allowReserved` values keep reserved characters, but not the three a query cannot hold: `#` would end it,
  // `[` and `]` belong to hosts.
  return url + (url!.includes("?") ? "&" : "?") + reserved.slice(1).replace(/[#[\]]/g, encodeURIComponent);
}

/**
 * Form fields as the environment's `URLSearchParams` or `FormData` (so that no DOM type is named here): a list
 * is a field per item, files and blobs go as they are, objects as JSON.
 */
function formBody(form: string, fields: [string, unknown][]): unknown {
  const Form = (globalThis as DescriptionNode)[/^multipart/i.test(form) ? "FormData" : "URLSearchParams"];
  const body = new Form() as { append(name: string, value: unknown): void };
  for (const [name, value] of fields) {
    for (const item of [value].flat()) {
      if (item == null) continue;
      if (isBlob(item)) body.append(name, item);
      else body.append(name, isPlainObject(item) ? JSON.stringify(item) : asText(item, name));
    }
  }
  return body;
}

/** Body properties as one object. */
function objectBody(fields: [string, unknown][]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of fields) if (value !== undefined) put(body, name, value);
  return body;
}

/**
 * Body properties and form fields taken out of the call into `data`, when one is escaped (`body:method`) or the
 * body is a form (where `data` is a field too, unless it is a whole form); otherwise build() gathers them.
 * Returns the `url` parameter that is still build()'s to place.
 */
function gatherBody({ route, method, form }: CompiledOperation, call: Record<string, unknown>, urlParameter: unknown) {
  const names = Object.keys(call);
  const escaped = names.find((name) => name.startsWith("body:"));
  if (escaped && (method === "get" || method === "head")) fail(`${quote(route)} has no body for ${quote(escaped)}`);
  if (!escaped && (!form || isForm(call.data))) return urlParameter;
  if (!form && call.data !== undefined) {
    fail(`option \`data\` is the whole body: ${quote(route)} takes no "body:" keys beside it`);
  }
  const fields: [string, unknown][] = [];
  for (const name of names) {
    if (NAMED.has(name)) continue;
    fields.push([name.startsWith("body:") ? name.slice(5) : name, call[name]]);
    delete call[name];
  }
  if (urlParameter !== undefined) fields.push(["url", urlParameter]);
  call.data = form ? formBody(form, fields) : objectBody(fields);
  return undefined;
}

/** A built URL as a template with nothing to expand, for build(): only the named options are not parameters. */
const literalTemplate = (url: string): Template => ({
  parts: [url],
  taken: NAMED,
  relative: undefined,
  rooted: url[0] === "/",
  mayHoldQuery: true,
});

/**
 * The general way, from merged options (`parse()`, and the calls the fast way does not take): the options
 * copied, the parameters taken out of them in shape, the body gathered, then build() with the URL as a literal.
 */
function callOperation(context: OpenAPIContext, options: MergedOptions): RequestOptions {
  const checked = checkOptions(options);
  const call = shallowCopy(checked);
  const operation = readOnce(context, checkMethod(call.method), call.url as string);
  delete call.url;
  const state = onServer(context, EMPTY_STATE, operation, call.baseUrl);
  if (state !== EMPTY_STATE) delete call.baseUrl;
  const headers = operationHeaders(context, operation, call);
  const labelled = headers["content-type"] !== undefined;
  const placed = placeParameters(operation, call, headers, checked[URL_PARAMETER as never]);
  const url = operationUrl(operation, placed.values, headers);
  call.headers = headers;
  const urlParameter = gatherBody(operation, call, placed.urlParameter);
  const result = build(state, operation.method, literalTemplate(url), call, urlParameter);
  const { label } = operation;
  if (!labelled && label && result.body !== undefined && result.body !== "") result.headers["content-type"] = label;
  return result;
}

/** An operation, and the state the fast way builds it with; `undefined` when it cannot take the fast way. */
interface Prepared {
  operation: CompiledOperation;
  state: State | undefined;
}

/**
 * For one `defaults()` call's state, each route's operation and its state for the fast way, worked out once:
 * the operation's server, and the description's media types where the caller set none.
 */
function preparer(context: OpenAPIContext, state: State): (route: string) => Prepared {
  const { merged } = state;
  const headers = merged.headers as RequestHeaders;
  const { format, previews } = merged.mediaType as MediaType;
  const ownAccept = headers.accept === context.own.accept && !format && !previews?.length;
  const escapesInDefaults = Object.keys(merged).some((name) => name.startsWith("body:"));
  return cached((route): Prepared => {
    const { url, lower } = parseRoute(route);
    const operation = readOnce(context, lower ?? state.verb, url);
    if (!operation.fast || escapesInDefaults) return { operation, state: undefined };
    const presetHeaders = ownAccept ? { ...state.presetHeaders, accept: operation.accept } : state.presetHeaders;
    const labelled = headers["content-type"] !== undefined;
    const contentType = labelled ? state.bodyHeaders["content-type"] : (operation.label ?? JSON_TYPE);
    const bodyHeaders = { ...presetHeaders, "content-type": contentType };
    return { operation, state: { ...onServer(context, state, operation, merged.baseUrl), presetHeaders, bodyHeaders } };
  }, 1000);
}

/** Whether a call can take the fast way: nothing in it changes the server, the operation or the media types. */
function takesFastWay(
  { required, label }: CompiledOperation,
  given: Record<string, unknown>,
  defaults: State,
): boolean {
  for (const key in given) {
    if (key === "baseUrl" || key === "method" || key === "mediaType" || key.startsWith("body:")) return false;
    // The caller's headers may hold a content-type that a non-JSON body's label would replace.
    if (key === "headers" && label && label !== JSON_TYPE) return false;
  }
  for (const key of required) {
    if ((!hasOwn(given, key) || given[key] == null) && defaults.params?.[key] == null) return false;
  }
  return true;
}

/** The fast way: build() takes the call's options as they are, with the operation's template and state. */
function fastCall({ method, templates, label }: CompiledOperation, state: State, given: Record<string, unknown>) {
  const result = build(state, method, templates[0], given);
  const { body, headers } = result;
  if (label && body !== undefined && body !== "" && headers["content-type"] === undefined) {
    headers["content-type"] = label;
  }
  return result;
}

/** The endpoint `withOpenAPI()` returns, for `wrapped`'s defaults; its `defaults()` makes another. */
// biome-ignore lint/suspicious/noExplicitAny: an endpoint with any defaults; only its runtime surface is used.
function openAPIEndpoint(wrapped: Endpoint<any>, context: OpenAPIContext): Endpoint {
  const state = toState(wrapped.DEFAULTS);
  const prepare = preparer(context, state);
  const parseOperation = (options: MergedOptions) => callOperation(context, options);
  const api = (route: unknown, options?: unknown): RequestOptions => {
    if (typeof route === "string" && (options == null || isPlainObject(options))) {
      const { operation, state: fast } = prepare(route);
      const given = (options ?? {}) as Record<string, unknown>;
      if (fast && takesFastWay(operation, given, state)) return fastCall(operation, fast, given);
    }
    return parseOperation(wrapped.merge(route as string, options as EndpointOptions));
  };
  return Object.defineProperties(api as Endpoint, {
    DEFAULTS: { get: () => wrapped.DEFAULTS, enumerable: true },
    defaults: { value: (options: EndpointOptions) => openAPIEndpoint(wrapped.defaults(options), context) },
    merge: { value: wrapped.merge },
    parse: { value: parseOperation },
  });
}

/**
 * `endpoint` building each call as an OpenAPI 3.0 or 3.1 description says, with nothing to configure:
 * - the URL on the operation's server (else the path's, else the description's; variables at their defaults),
 *   unless you set `baseUrl` (a relative server, `/v1`, goes under it);
 * - `accept` from what the operation answers on success, `content-type` from its request body's media type,
 *   unless you set them (or a `mediaType`);
 * - path, query, header and cookie parameters where the description puts them, each in its `style` and
 *   `explode` (query parameters of every method, `allowReserved` too), percent-encoded as RFC 3986 needs;
 * - a JSON body as `endpoint()` builds it, a form body as `URLSearchParams` or `FormData`.
 *
 * The route names the operation as the description's path key (`"GET /pet/findByStatus"`, `"GET
 * /files/{id}#shared"`); parameters and body properties sit beside each other by name. A parameter named like a
 * named option (`headers`, `data`…) is passed as `"<in>:<name>"` (`"query:headers"`), and a body property or
 * form field that clashes with anything as `"body:<name>"` (`"body:method"`). Each operation is read from the
 * description once, when it is first called; `reduceOpenAPI()` makes a description light enough to ship.
 * @throws {TypeError} when the description is not one; when called, for a route the description lacks, a
 * missing required parameter, or a `$ref` that names nothing.
 * @example
 * const petstore = withOpenAPI<paths>(endpoint, description);
 * petstore("GET /pet/findByStatus", { status: ["available", "pending"] }).url
 * // "https://petstore.swagger.io/v2/pet/findByStatus?status=available&status=pending"
 */
export function withOpenAPI<Paths = never>(
  // biome-ignore lint/suspicious/noExplicitAny: an endpoint with any defaults.
  endpoint: Endpoint<any>,
  description: OpenAPIDescription,
): [Paths] extends [never] ? Endpoint : OpenAPIEndpoint<Paths, {}, OpenAPILocation>;
// biome-ignore lint/suspicious/noExplicitAny: an endpoint with any defaults.
export function withOpenAPI(wrapped: Endpoint<any>, description: OpenAPIDescription): unknown {
  if (!isPlainObject(description?.paths)) {
    mustBe("withOpenAPI's description", "an OpenAPI description with `paths`", description);
  }
  const { baseUrl, headers } = endpoint.DEFAULTS;
  return openAPIEndpoint(wrapped, { description, operations: new Map(), own: { baseUrl, accept: headers.accept } });
}

/** A description's parameter as `withOpenAPI()` reads it: defaults left out. */
function reduceParameter(description: OpenAPIDescription, raw: unknown): Record<string, unknown> {
  const { name, in: where, style, explode, allowReserved, required, content } = follow(description, raw);
  const reduced: Record<string, unknown> = { name, in: where };
  const plain = defaultStyle(where);
  if (style !== undefined && style !== plain) reduced.style = style;
  if (explode !== undefined && explode !== ((style ?? plain) === "form")) reduced.explode = explode;
  if (allowReserved) reduced.allowReserved = true;
  if (required && where !== "path") reduced.required = true;
  if (content) reduced.content = { "application/json": {} };
  return reduced;
}

/** An operation's (or a path's) parameters reduced, each as JSON text so that two can be compared. */
function reducedParameters(description: OpenAPIDescription, list: unknown): string[] {
  return Array.isArray(list) ? list.map((raw) => JSON.stringify(reduceParameter(description, raw))) : [];
}

/** The first server of a list, its variables at their defaults; `undefined` when it has none. */
function reducedServers(list: unknown): { url: string }[] | undefined {
  const url = serverUrl([list]);
  return url === undefined ? undefined : [{ url }];
}

/** Media types as a `content` with nothing in them, or `undefined` for none. */
function emptyContent(types: string[]): { content: Record<string, object> } | undefined {
  return types.length ? { content: Object.fromEntries(types.map((type) => [type, {}])) } : undefined;
}

/**
 * A path parameter every operation of a path declares alike is declared once, for the path: where a path
 * parameter is declared changes nothing, as it is written into its placeholder.
 */
function hoistPathParameters(shared: string[], lists: string[][]): void {
  for (const parameter of [...(lists[0] ?? [])]) {
    const { in: where, name } = JSON.parse(parameter);
    const declaredForPath = shared.some((other) => {
      const declared = JSON.parse(other);
      return declared.name === name && declared.in === where;
    });
    if (where !== "path" || lists.length < 2 || declaredForPath) continue;
    if (!lists.every((list) => list.includes(parameter))) continue;
    shared.push(parameter);
    for (const list of lists) list.splice(list.indexOf(parameter), 1);
  }
}

/** An operation reduced: its servers, parameters, request body media types, and success media types under 200. */
function reduceOperation(description: OpenAPIDescription, operation: DescriptionNode, parameters: string[]) {
  // The success statuses' media types, joined under one: the accept header reads them in order.
  const answers = follow(description, operation.responses);
  const types = Object.keys(answers)
    .filter((status) => SUCCESS.test(status))
    .flatMap((status) => mediaTypes(description, answers[status]));
  const success = emptyContent([...new Set(types)]);
  return {
    servers: reducedServers(operation.servers),
    parameters,
    requestBody: emptyContent(mediaTypes(description, operation.requestBody)),
    responses: success && { 200: success },
  };
}

/** A path item reduced (parameters as JSON text). */
function reducePathItem(description: OpenAPIDescription, item: DescriptionNode): Record<string, unknown> {
  const shared = reducedParameters(description, item.parameters);
  const operations: [method: string, operation: DescriptionNode, parameters: string[]][] = [];
  for (const method of Object.keys(item)) {
    if (!METHOD.test(method)) continue;
    const operation = follow(description, item[method]);
    operations.push([method, operation, reducedParameters(description, operation.parameters)]);
  }
  hoistPathParameters(
    shared,
    operations.map(([, , list]) => list),
  );
  const reduced: Record<string, unknown> = { servers: reducedServers(item.servers), parameters: shared };
  for (const [method, operation, list] of operations) reduced[method] = reduceOperation(description, operation, list);
  return reduced;
}

/**
 * The parts of an OpenAPI description that `withOpenAPI()` reads, and nothing else: per operation its servers,
 * its parameters (name, location, style, explode, allowReserved, whether required or JSON), its request body's
 * media types and its success responses' media types, `$ref`s followed. `withOpenAPI()` builds every request
 * from it as from the whole description. Run it at build time, so that a browser app ships kilobytes, not
 * megabytes: GitHub's 13 MB description becomes about 240 KB (14 KB gzip).
 * @throws {TypeError} when the description is not one, or a `$ref` in a part it keeps names nothing.
 * @example
 * // A build step, in Node.js: the description reduced to what withOpenAPI() reads.
 * writeFileSync("api.json", JSON.stringify(reduceOpenAPI(JSON.parse(readFileSync("openapi.json", "utf8")))));
 */
export function reduceOpenAPI(description: OpenAPIDescription): OpenAPIDescription {
  if (!isPlainObject(description?.paths)) {
    mustBe("reduceOpenAPI's description", "an OpenAPI description with `paths`", description);
  }
  const paths: Record<string, unknown> = {};
  for (const path of Object.keys(description.paths)) {
    paths[path] = reducePathItem(description, follow(description, description.paths[path]));
  }
  const reduced = { openapi: description.openapi, servers: reducedServers(description.servers), paths };
  // Parameters went as JSON text, to be compared; `undefined` parts and empty lists are left out.
  return JSON.parse(JSON.stringify(reduced), (key, value) => {
    if (key !== "parameters") return value;
    return value.length ? value.map((text: string) => JSON.parse(text)) : undefined;
  });
}

// #endregion
