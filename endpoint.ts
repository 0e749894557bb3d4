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
      const mayDot = text.startsWith(".") || part.keep === RESERVED || part.separator !== ",";
      if (part.inPath && mayDot && DOT_PIECE.test(joiner + text)) {
        dotted ??= [];
        dotted.push([at, out.length, variable.name]);
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

/** The operation a route names. */
type RouteOperation<Paths, Route> = [Route] extends [`${infer Method extends Uppercase<HttpMethod>} ${infer Path}`]
  ? Path extends keyof Paths
    ? OperationAt<Paths[Path], Lowercase<Method>>
    : never
  : never;

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

/** Header parameters the specification says to ignore: the media types and the credentials set these. */
type IgnoredHeader = "accept" | "content-type" | "authorization";

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
}

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

/** A description's route's method, lowercase: simpler than RouteMethod(), which a check of every call would pay for. */
type OperationMethod<Route> = Route extends `${infer Method} ${string}` ? Lowercase<Method> : string;

/** The options argument: required when something in it is. */
type OptionsArgument<Options> = {} extends Options ? [options?: Options] : [options: Options];

/**
 * The arguments after the route: found by indexing the description with the route, never by relating the
 * call to every route of it, so one more call costs the same whatever the description's size. Required when
 * something in them is; loose for a route known only as a `string` (and for an unknown one, which is an error
 * on the route itself); none after the `endpoint(options)` form.
 */
export type OpenAPIArguments<Paths, Route, Defaults = {}, In extends OpenAPILocation = "path" | "query"> =
  RouteOperation<Paths, Route> extends infer Operation
    ? [Operation] extends [never]
      ? [Route] extends [string]
        ? [options?: EndpointOptions]
        : []
      : OptionsArgument<OperationOptions<Operation, Defaults, In, OperationMethod<Route>>>
    : never;

/**
 * The route argument: itself when the description has it (or it is only known as a `string`), else every route, for
 * the error and the editor's completions. Whether it has it is read off the route (its method, its path key), so
 * that a right call never lists every route of a big description.
 */
type RouteArgument<Paths, Route> = [Route] extends [string]
  ? string extends Route
    ? Route
    : [RouteOperation<Paths, Route>] extends [never]
      ? OpenAPIRoute<Paths>
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
  BodyEscapes,
  BodyOptions,
  ColonNames,
  DataOption,
  Defaulted,
  Escaped,
  Expressions,
  FieldsOrWhole,
  FieldValue,
  FileField,
  FileFor,
  Flatten,
  FormMediaType,
  FormOptions,
  Global,
  GlobalRequestInit,
  HasContent,
  HttpMethod,
  IgnoredHeader,
  JsonBodyOptions,
  JsonContent,
  JsonMediaType,
  Letter,
  MediaRange,
  Named,
  NamedKeys,
  NamedOption,
  NamesNothing,
  NoFields,
  OpenBody,
  OperationAt,
  OperationMethod,
  Operator,
  OptionalIn,
  OptionsArgument,
  ParameterKey,
  ParametersIn,
  ParametersOf,
  PropertiesTypes,
  RawBody,
  RequiredIn,
  RouteArgument,
  RouteArguments,
  RouteOperation,
  SharedName,
  SuccessBody,
  SuccessStatuses,
  TakenNames,
  VariableNames,
  WholeForm,
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
  /** A `content` parameter of a JSON media type, sent as JSON text. */
  json: boolean;
}

/** How a form's property is written: its Encoding Object's `style`, `explode` and `contentType`. */
interface FieldEncoding {
  style?: string;
  explode?: boolean;
  contentType?: string;
}

/** The part of a URL a server variable fills, which says what a caller's value for it may be. */
type ServerPart = "scheme" | "host" | "port" | "path";

/** An operation's server, as the description writes it. */
interface Server {
  /** Its URL, `{name}` for each variable. */
  url: string;
  /** Each variable's default (`undefined` when it has none: the caller must give it) and the part it fills. */
  variables: Map<string, { fallback: string | undefined; part: ServerPart }>;
  /** Whether it is a URL of its own (`https://…`, or `//host/…`), rather than a path under the endpoint's base. */
  absolute: boolean;
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
   * The general way's templates, one per location, so that a path and a query parameter of one name keep their
   * values apart: the path (and a literal query), the query, the `allowReserved` query parameters (reserved
   * characters kept), the cookies. Each parameter is an expression of its style: `/pets/{;id*}`, `{?tags*,limit}`.
   */
  templates: [path: Template, query: Template, reserved: Template, cookie: Template];
  /**
   * The fast way's template, the path and the query in one, whose variables are the call's keys: `undefined`
   * unless `build()` can take a call's options as they are. Every parameter is then a `simple` path or `form`
   * query one, under its own name, with a name the URL takes as it is; the body, if any, goes as one media type
   * whatever its shape, and is not a form.
   */
  fastTemplate: Template | undefined;
  /** The request body's media types, in the description's order; none for GET and HEAD, which send none. */
  bodyTypes: string[];
  /** Whether the description requires a request body. */
  bodyRequired: boolean;
  /** A form body's properties that its Encoding Object describes. */
  encoding: Map<string, FieldEncoding>;
  /** Whether its form declares a property named `data`: there `data` is that field, else the whole body. */
  dataField: boolean;
  /** Whether its body is a form, with no JSON media type before it. */
  form: boolean;
  /** GET and HEAD: the properties of the body the description declares, which such a request cannot carry. */
  bodyNames: string[];
  /** The keys of its parameters. */
  parameterKeys: Set<string>;
  /** The success responses' media types, JSON first, as an accept header; `*∕*` when they have none. */
  accept: string;
  /** The operation's server, else the path's, else the description's. */
  server: Server | undefined;
}

const METHOD = /^(get|put|post|delete|options|head|patch|trace)$/;
const SUCCESS = /^2(\d\d|XX)$/i;
/** A media type range (`*∕*`, `application/*+json`), which names no type to send. */
const RANGE = /\*/;
const FORM_TYPE = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;
const JSON_PATCH = /^application\/json-patch\+json\s*(;|$)/i;
/** A URL with a scheme (`https://`, `wss://`): a server that is not a path under the endpoint's base URL. */
const SCHEMED = /^[a-z][a-z\d+.-]*:\/\//i;
/** Header parameters a description may list but SHALL be ignored: media types and credentials say these. */
const IGNORED_HEADERS = /^(accept|content-type|authorization)$/i;

/** What the location of a parameter makes its default style. */
const defaultStyle = (where: string) => (where === "query" || where === "cookie" ? "form" : "simple");

/**
 * A JSON Pointer's reference tokens (RFC 6901): a URI fragment's are percent-decoded (section 6), then `~1` is
 * `/` and `~0` is `~`.
 */
function pointerKeys(ref: string): string[] {
  return ref
    .slice(2)
    .split("/")
    .map((key) => {
      let decoded = key;
      try {
        decoded = decodeURIComponent(key);
      } catch {}
      return decoded.replace(/~1/g, "/").replace(/~0/g, "~");
    });
}

/** A node of the description, its `$ref`s (`#/components/...`) followed; one that names nothing is refused. */
function follow(description: OpenAPIDescription, node: unknown): DescriptionNode {
  for (let depth = 0; isPlainObject(node) && typeof node.$ref === "string"; depth++) {
    const ref = node.$ref;
    let target: unknown;
    if (depth < MAX_DEPTH && ref.startsWith("#/")) {
      target = pointerKeys(ref).reduce<unknown>((at, key) => (at as DescriptionNode)?.[key], description);
    }
    if (!isPlainObject(target)) fail(`$ref ${quote(ref)} names nothing`);
    node = target;
  }
  return isPlainObject(node) ? node : {};
}

/** A node followed as follow() does, or `{}` where a `$ref` names nothing: for parts a call can do without. */
function followIfThere(description: OpenAPIDescription, node: unknown): DescriptionNode {
  try {
    return follow(description, node);
  } catch {
    return {};
  }
}

/** The media types of a request body's or a response's `content`, in the description's order. */
const mediaTypes = (description: OpenAPIDescription, node: unknown) =>
  Object.keys(followIfThere(description, followIfThere(description, node).content));

/**
 * Where each part of a URL starts: the authority after `://` (or a leading `//`), the path at the first `/` after
 * it. A URL without an authority is all path.
 */
function urlParts(url: string): { authority: number; path: number } {
  const scheme = url.indexOf("://");
  let authority = scheme < 0 ? -1 : scheme + 3;
  if (url.startsWith("//")) authority = 2;
  if (authority < 0) return { authority: 0, path: 0 };
  const slash = url.indexOf("/", authority);
  return { authority, path: slash < 0 ? url.length : slash };
}

/**
 * The first server of the first list that has one, and the part each of its variables fills, read from its URL
 * with the defaults in place (`https://api.example.com{basePath}` with `/v2`: `basePath` is a path).
 */
function readServer(servers: unknown[]): Server | undefined {
  const list = servers.find((candidate): candidate is unknown[] => Array.isArray(candidate) && candidate.length > 0);
  const server = list?.[0] as DescriptionNode | undefined;
  if (!server) return undefined;
  const { url, variables: declared } = server;
  if (typeof url !== "string") mustBe("a server's `url`", "a string", url);
  const starts: [name: string, at: number, fallback: string | undefined][] = [];
  const filled = url.replace(/\{([^{}]*)\}/g, (_, name: string, at: number) => {
    const fallback = declared?.[name]?.default;
    const text = typeof fallback === "string" ? fallback : undefined;
    starts.push([name, at, text]);
    return text ?? "";
  });
  const { authority, path } = urlParts(filled);
  const variables = new Map<string, { fallback: string | undefined; part: ServerPart }>();
  let shift = 0;
  for (const [name, at, fallback] of starts) {
    const start = at + shift;
    shift += (fallback ?? "").length - name.length - 2;
    let part: ServerPart = "path";
    if (start < authority) part = "scheme";
    else if (start < path) part = filled[start - 1] === ":" && start > authority ? "port" : "host";
    variables.set(name, { fallback, part });
  }
  return { url, variables, absolute: SCHEMED.test(filled) || filled.startsWith("//") };
}

/**
 * A parameter as the description declares it, with its defaults worked out; `undefined` for one without a name,
 * and for the `Accept`, `Content-Type` and `Authorization` headers, which the specification says to ignore.
 */
function toParameter(found: DescriptionNode): Parameter | undefined {
  const { name, in: where, style = defaultStyle(where) } = found;
  if (typeof name !== "string" || (where === "header" && IGNORED_HEADERS.test(name))) return undefined;
  const content = found.content;
  return {
    name,
    key: NAMED.has(name) || name === "data" ? where + ":" + name : name,
    variable: encode(name, UNRESERVED, name),
    in: where + (found.allowReserved ? "+" : ""),
    style,
    explode: found.explode ?? style === "form",
    required: found.required || where === "path",
    json: isPlainObject(content) && Object.keys(content).some(isJson),
  };
}

/**
 * An operation's parameters by `in:name`: the path item's, overridden by the operation's of the same name and
 * location. One whose `$ref` names nothing is left out: a call cannot name what the description does not.
 */
function readParameters(description: OpenAPIDescription, item: DescriptionNode, operation: DescriptionNode) {
  const declared = new Map<string, Parameter>();
  for (const raw of [item.parameters, operation.parameters].flat()) {
    const found = followIfThere(description, raw);
    const parameter = toParameter(found);
    if (parameter) declared.set(found.in + ":" + parameter.name, parameter);
  }
  return declared;
}

/** The RFC 6570 operator that writes a path parameter's style. */
function pathOperator(style: string): string {
  if (style === "label") return ".";
  return style === "matrix" ? ";" : "";
}

/**
 * A path key's literal query (`?beta=true`), less the pairs whose value is a placeholder naming a query parameter
 * (`?query={query}`): that parameter writes its own pair, in its style. A placeholder naming a path parameter
 * stays, for it to fill.
 */
function literalQuery(query: string, declared: Map<string, Parameter>): string {
  const pairs = query.split("&").filter((pair) => {
    const [, name] = /^[^=]*=\{([^{}]*)\}$/.exec(pair) ?? [];
    return !(name !== undefined && declared.has("query:" + name));
  });
  return pairs.join("&");
}

/**
 * The sources of an operation's templates (see `CompiledOperation.templates`). Each parameter is an expression
 * named by its index, `p0`, `p1`…, because any parameter name compiles so (`$filter`, `StartTime<`); they are
 * renamed to the parameters' variables once compiled. RFC 6570 writes every OpenAPI style once the value is in
 * shape (see styled()). A `#fragment` in the path key only tells operations apart; a literal query stays, and the
 * parameters join it.
 */
function templateSources(route: string, path: string, declared: Map<string, Parameter>): string[] {
  // [path, query, reserved, cookie]
  const parameters = [...declared.values()];
  const expression = ({ style, explode }: Parameter, i: number) =>
    `p${i}${explode || style === "label" || style === "deepObject" ? "*" : ""}`;
  const group = (operator: string, where: string) => {
    const list = parameters.flatMap((parameter, i) => (parameter.in === where ? [expression(parameter, i)] : []));
    return list.length ? `{${operator}${list}}` : "";
  };
  // A placeholder is a path parameter's, in the path or in the literal query.
  const placeholders = (text: string, where: string) =>
    text.replace(/\{([^{}]*)\}/g, (_, name: string) => {
      const parameter =
        declared.get("path:" + name) ?? fail(`${quote(route)} has no ${where} parameter ${quote(name)}`);
      return `{${pathOperator(parameter.style)}${expression(parameter, parameters.indexOf(parameter))}}`;
    });
  const [key] = path.split("#", 1) as [string];
  const question = key.indexOf("?");
  const query = question < 0 ? "" : placeholders(literalQuery(key.slice(question + 1), declared), "query");
  const source = placeholders(question < 0 ? key : key.slice(0, question), "path");
  return [
    query ? `${source}?${query}` : source,
    group(query ? "&" : "?", "query"),
    group("&", "query+"),
    group("?", "cookie"),
  ];
}

/**
 * One of an operation's templates compiled, its variables renamed from `p<index>` to the parameters' variables.
 * In one that holds the path, `{?…}`, `{&…}` and `{#…}` end it, as a literal "?" or "#" does; the `allowReserved`
 * parameters' keeps reserved characters. An empty literal ends each: an OpenAPI path key is the URL as written,
 * and expand() drops a trailing `/` only from the last piece written.
 */
function operationTemplate(source: string, parameters: Parameter[], path: boolean, reserved = false): Template {
  const template = compile(source, false);
  template.taken = new Set(NAMED_OPTIONS);
  let inPath = path;
  for (const part of template.parts) {
    if (typeof part === "string") {
      inPath &&= !/[?#]/.test(part);
      continue;
    }
    inPath &&= !/[?&#]/.test(part.first);
    part.inPath = inPath;
    if (reserved) part.keep = RESERVED;
    for (const variable of part.variables) {
      variable.name = parameters[+variable.name.slice(1)]!.variable;
      template.taken.add(variable.name);
    }
  }
  template.parts.push("");
  return template;
}

/** The media types to send a body as: concrete ones (a range such as `*∕*` names no type to label a body with). */
const concreteTypes = (types: string[]) => types.filter((type) => !RANGE.test(type));

/** The request body's form media type, when it is one, and how its properties are encoded. */
function formEncoding(description: OpenAPIDescription, content: DescriptionNode): Map<string, FieldEncoding> {
  const encoding = new Map<string, FieldEncoding>();
  const form = Object.keys(content).find((type) => FORM_TYPE.test(type));
  const fields = form === undefined ? undefined : followIfThere(description, content[form]).encoding;
  for (const [name, raw] of Object.entries(isPlainObject(fields) ? fields : {})) {
    const { style, explode, contentType } = followIfThere(description, raw);
    encoding.set(name, { style, explode, contentType });
  }
  return encoding;
}

/** The property names of a body's schema, its `allOf` parts' too: what a GET or HEAD cannot carry. */
function bodyProperties(description: OpenAPIDescription, content: DescriptionNode): string[] {
  const names = new Set<string>();
  const visit = (node: unknown, depth: number) => {
    const schema = followIfThere(description, node);
    for (const name of Object.keys(isPlainObject(schema.properties) ? schema.properties : {})) names.add(name);
    if (Array.isArray(schema.allOf) && depth < 10) for (const part of schema.allOf) visit(part, depth + 1);
  };
  for (const type of Object.keys(content)) visit(followIfThere(description, content[type]).schema, 0);
  return [...names];
}

/** What the operation answers with on success, JSON first, as an accept header; `*∕*` when it says nothing. */
function successMediaTypes(description: OpenAPIDescription, operation: DescriptionNode): string {
  const types = new Set<string>();
  const responses = followIfThere(description, operation.responses);
  for (const status of Object.keys(responses)) {
    if (!SUCCESS.test(status)) continue;
    for (const type of mediaTypes(description, responses[status])) types.add(type);
  }
  const all = [...types];
  return [...all.filter(isJson), ...all.filter((type) => !isJson(type))].join(", ") || "*/*";
}

/**
 * The media type a body goes as, by the value (see requestMediaType()): a list as the first JSON type, an object
 * as the first JSON type but JSON Patch (which holds a list), a form's fields with a file as multipart where it is
 * listed; else a form, else the first type listed. `undefined` when the operation has none.
 */
function mediaTypeFor(types: string[], body: unknown, hasFile: boolean): string | undefined {
  const json = types.filter(isJson);
  if (json.length) return (Array.isArray(body) ? undefined : json.find((type) => !JSON_PATCH.test(type))) ?? json[0];
  const forms = types.filter((type) => FORM_TYPE.test(type));
  if (forms.length) return (hasFile ? forms.find((type) => /^multipart/i.test(type)) : undefined) ?? forms[0];
  return types[0];
}

/** What a body of a media type is labelled: none for multipart, which fetch labels with its boundary. */
function labelFor(type: string | undefined): string | undefined {
  if (type === undefined || /^multipart\//i.test(type)) return undefined;
  return /^application\/json\s*$/i.test(type) ? JSON_TYPE : type;
}

/**
 * An operation's templates, compiled (see `CompiledOperation.templates`), and the fast way's, which takes, beside
 * the named options, every parameter's key: one the URL has no place for (its placeholder in a `#fragment`) must
 * not become a query or body parameter.
 */
function operationTemplates(route: string, path: string, declared: Map<string, Parameter>, fast: boolean) {
  const parameters = [...declared.values()];
  const [pathSource, query, reserved, cookie] = templateSources(route, path, declared) as [
    string,
    string,
    string,
    string,
  ];
  const templates = [
    operationTemplate(pathSource, parameters, true),
    operationTemplate(query, parameters, false),
    operationTemplate(reserved, parameters, false, true),
    operationTemplate(cookie, parameters, false),
  ] as CompiledOperation["templates"];
  if (!fast) return { templates, fastTemplate: undefined };
  const fastTemplate = operationTemplate(pathSource + query, parameters, true);
  for (const { key } of parameters) fastTemplate.taken.add(key);
  return { templates, fastTemplate };
}

/**
 * Whether `build()` can take a call's options as they are (see `CompiledOperation.fastTemplate`): the body, if any, goes
 * as one media type whatever its shape, and a GET has no body properties to refuse.
 */
function takesOptionsAsTheyAre(parameters: Parameter[], types: string[], bodyNames: string[]): boolean {
  const type = mediaTypeFor(types, {}, false);
  if (bodyNames.length || type !== mediaTypeFor(types, [], false)) return false;
  // A form goes the fast way where it is the one form listed: then no file decides between two.
  if (type && FORM_TYPE.test(type) && types.filter((listed) => FORM_TYPE.test(listed)).length > 1) return false;
  return parameters.every(({ key, name, variable, json, in: where, style }) => {
    if (key !== name || variable !== name || json) return false;
    return where === "path" ? style === "simple" : where === "query" && style === "form";
  });
}

/** An operation's request body: its media types, whether required, its form encoding, and for a GET its names. */
function readBody(description: OpenAPIDescription, method: string, operation: DescriptionNode) {
  const body = followIfThere(description, operation.requestBody);
  const content = followIfThere(description, body.content);
  const types = concreteTypes(Object.keys(content));
  if (method === "get" || method === "head") {
    // A GET or HEAD sends no body; what the description declares for one, a call cannot pass.
    const names = bodyProperties(description, content);
    return { types: [], required: false, encoding: new Map(), dataField: false, names };
  }
  const form = types.find((type) => FORM_TYPE.test(type));
  const dataField = form !== undefined && bodyProperties(description, { [form]: content[form] }).includes("data");
  const encoding = formEncoding(description, content);
  return { types, required: body.required === true, encoding, dataField, names: [] };
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
  const body = readBody(description, method, operation);
  const fast = takesOptionsAsTheyAre(parameters, body.types, body.names);
  const { templates, fastTemplate } = operationTemplates(route, path, declared, fast);
  return {
    route,
    method,
    parameters,
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.key),
    templates,
    fastTemplate,
    bodyTypes: body.types,
    bodyRequired: body.required,
    encoding: body.encoding,
    dataField: body.dataField,
    form: !body.types.some(isJson) && body.types.some((type) => FORM_TYPE.test(type)),
    bodyNames: body.names,
    parameterKeys: new Set(parameters.map(({ key }) => key)),
    accept: successMediaTypes(description, operation),
    // The server: the operation's, else the path's, else the description's.
    server: readServer([operation.servers, item.servers, description.servers]),
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

/** What a caller's value for a server variable must be, by the part of the URL it fills. */
const SERVER_VALUES: Record<ServerPart, [RegExp, string]> = {
  scheme: [/^https?$/i, "http or https"],
  host: [/^[a-z\d-]+$/i, "a DNS label (letters, digits and hyphens)"],
  port: [/^\d{1,5}$/, "a port number"],
  path: [/^(?!\.\.?$)/, "a path segment other than . and .."],
};

/**
 * A server's URL with its variables filled: the caller's values (`"server:<name>"` keys), each checked for the part
 * of the URL it fills, else the description's defaults. A stranger's value cannot take the request to a host the
 * server's URL does not allow: a host variable holds one DNS label, a path variable one segment.
 */
function serverUrl({ url, variables }: Server, given: Record<string, unknown>): string {
  return url.replace(/\{([^{}]*)\}/g, (_, name: string) => {
    const { fallback, part } = variables.get(name)!;
    const value = given[name];
    if (value == null) {
      if (fallback === undefined) fail(`server ${quote(url)} has no default for {${name}}: pass "server:${name}"`);
      return encode(fallback, RESERVED, name, "server variable");
    }
    const text = asText(value, "server:" + name);
    const [allowed, expected] = SERVER_VALUES[part];
    if (!text || !allowed.test(text)) {
      fail(`server variable ${quote(name)} must be ${expected} in ${quote(url)}, not ${quote(text)}`);
    }
    return encode(text, UNRESERVED, name, "server variable");
  });
}

/**
 * The state a call builds with: its base the operation's server, variables filled. A server of its own replaces
 * the library's base URL (a protocol-relative one takes its scheme), not one the caller set; a relative server
 * is a path under whichever base there is.
 */
function onServer(
  { own }: OpenAPIContext,
  state: State,
  { server }: CompiledOperation,
  baseUrl: unknown,
  given: Record<string, unknown>,
): State {
  if (!server) return state;
  if (server.absolute) {
    if (baseUrl !== undefined && baseUrl !== own.baseUrl) return state;
    const url = serverUrl(server, given);
    const scheme = url.startsWith("//") ? (state.base?.[0] ?? own.baseUrl).split("//", 1)[0] : "";
    return { ...state, base: splitBase(scheme + url) };
  }
  const url = serverUrl(server, given);
  let path = url[0] === "/" ? url : "/" + url;
  while (path.endsWith("/")) path = path.slice(0, -1);
  const base = state.base ?? fail(`option \`baseUrl\` is required for the server ${quote(url)}`);
  return { ...state, base: [base[0] + path, base[1], base[2]] };
}

/** The `"server:<name>"` keys of options, without their prefix. */
function serverValues(options: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(options)) if (key.startsWith("server:")) put(values, key.slice(7), options[key]);
  return values;
}

/** Takes one name-value pair of a parameter or form field. */
type AddPair = (name: string, value: unknown) => void;

/**
 * A value nested in lists and objects in the bracket form `qs`, Rails and Stripe read, pair by pair: `name[key]`,
 * `name[0]`, `name[0][key]`, each with a value that is not a list or object. `null` and `undefined` are left out.
 */
function bracketPairs(name: string, value: unknown, add: AddPair, depth = 0): void {
  if (depth > MAX_DEPTH) fail(`parameter ${quote(name)} is nested too deeply`);
  if (typeof value !== "object" || value === null || !(Array.isArray(value) || isPlainObject(value))) {
    if (value != null) add(name, value);
    return;
  }
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
 * read as it is (the fast way asks this of every list parameter; Object.values() would copy it).
 */
function isNested(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(isListOrObject);
  return isPlainObject(value) && Object.values(value).some(isListOrObject);
}

/**
 * A value in the shape RFC 6570 expands as OpenAPI's style table writes it: JSON text for a JSON `content`
 * parameter; a `deepObject`'s keys as `name[key]`, and any value nested deeper than its style writes in that
 * bracket form; not exploded, an object as its keys and values in one list (what `{x}`, `{;x}` and `{?x}` write
 * for either, and label's dots need), and `spaceDelimited` and `pipeDelimited` lists joined by a space or a pipe.
 * A header exploded: `key=value` pairs, comma-joined.
 */
function styled({ name, style, explode, json, in: where }: Parameter, value: unknown): unknown {
  if (json) return JSON.stringify(value);
  const query = where === "query" || where === "query+";
  // Expanded as an exploded object, each pair `name[key]=value` (placeParameters() writes an unexploded one).
  if (query && (style === "deepObject" || isNested(value))) {
    const pairs: Record<string, unknown> = {};
    bracketPairs(name, value, (pair, item) => put(pairs, pair, item));
    return pairs;
  }
  if (isNested(value)) fail(`parameter ${quote(name)} holds a list or object in another: no ${where} style writes it`);
  const object = isPlainObject(value) ? value : undefined;
  const entries = object && Object.entries(object).filter(([, item]) => item != null);
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
 * A parameter's value, taken out of the call: under `"<in>:<name>"` if the caller escaped it so, else under its
 * key (one key fills every parameter of that name); a `url` one may have come beside the route (URL_PARAMETER).
 */
function takeValue(parameter: Parameter, call: Record<string, unknown>, taken: Set<string>): unknown {
  const escaped = parameter.in.replace("+", "") + ":" + parameter.name;
  taken.add(escaped);
  taken.add(parameter.key);
  return call[escaped] ?? call[parameter.key];
}

/** Where placeParameters() puts the parameters' values, and what is left of a `url` parameter beside the route. */
interface Placed {
  /** The values the templates expand, in shape (see styled()), by location: `path`, `query` and `cookie`. */
  values: Record<string, Record<string, unknown>>;
  /**
   * The pairs of unexploded query parameters holding nested values, percent-encoded: in the bracket form, which
   * only an exploded expression writes.
   */
  nested: string[];
  urlParameter: unknown;
}

/** Whether a query parameter's value needs writing apart: nested, where its style does not explode. */
const nestedUnexploded = ({ in: where, style, explode }: Parameter, value: unknown) =>
  where.startsWith("query") && !explode && style !== "deepObject" && isNested(value);

/** The locations a key can escape a name into (`"query:limit"`); `body` and `server` are read elsewhere. */
const PARAMETER_PREFIX = /^(path|query|header|cookie):/;

/**
 * The call's `"query:<name>"` keys that no declared parameter took: a parameter newer than the description, sent
 * as the query's default style writes it (`form`, exploded: a list repeats its name) and nested values in the
 * bracket form. A path, header or cookie escape the description does not declare has no place: a TypeError.
 */
function undeclaredQuery(route: string, call: Record<string, unknown>, nested: string[]): void {
  for (const key of Object.keys(call)) {
    const where = PARAMETER_PREFIX.exec(key)?.[1];
    if (where === undefined) continue;
    const name = key.slice(where.length + 1);
    if (where !== "query") {
      const hint = where === "path" ? "" : ": set it in `headers`";
      fail(`${quote(route)} declares no ${where} parameter ${quote(name)} for ${quote(key)}${hint}`);
    }
    const add: AddPair = (pair, item) => {
      nested.push(encode(pair, UNRESERVED, name) + "=" + encode(asText(item, pair), UNRESERVED, name));
    };
    const value = call[key];
    if (Array.isArray(value) && !isNested(value)) {
      for (const item of value) if (item != null) add(name, item);
    } else bracketPairs(name, value, add);
    delete call[key];
  }
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
): Placed {
  const values: Record<string, Record<string, unknown>> = { path: {}, query: {}, cookie: {} };
  const nested: string[] = [];
  const taken = new Set<string>();
  for (const parameter of parameters) {
    let value = takeValue(parameter, call, taken);
    if (value === undefined && parameter.name === "url") {
      value = urlParameter;
      urlParameter = undefined;
    }
    if (value == null) {
      if (parameter.required) fail(`parameter ${quote(parameter.key)} is required by ${quote(route)}`);
    } else if (parameter.in === "header") {
      addHeaders(headers, { [parameter.name]: asText(styled(parameter, value), parameter.name) });
    } else if (nestedUnexploded(parameter, value)) {
      bracketPairs(parameter.name, value, (name, item) => {
        nested.push(encode(name, UNRESERVED, parameter.name) + "=" + encode(asText(item, name), UNRESERVED, name));
      });
    } else put(values[parameter.in.replace("+", "")]!, parameter.variable, styled(parameter, value));
  }
  for (const key of taken) delete call[key];
  undeclaredQuery(route, call, nested);
  return { values, nested, urlParameter };
}

/** The URL from the operation's templates and nested pairs; the cookie parameters go into `headers`. */
function operationUrl({ templates }: CompiledOperation, { values, nested }: Placed, headers: Record<string, unknown>) {
  const [path, query, reserved, cookie] = templates;
  const url = expand(path, values.path!) + expand(query, values.query!);
  const cookies = expand(cookie, values.cookie!);
  if (cookies) {
    const pairs = cookies.slice(1).replace(/&/g, "; ");
    headers.cookie = headers.cookie ? headers.cookie + "; " + pairs : pairs;
  }
  // `allowReserved` values keep reserved characters, but not the three a query cannot hold: `#` would end it,
  // `[` and `]` belong to hosts.
  const reservedPairs = expand(reserved, values.query!)
    .slice(1)
    .replace(/[#[\]]/g, encodeURIComponent);
  const rest = [reservedPairs, ...nested].filter(Boolean).join("&");
  if (!rest) return url;
  return url + (url.includes("?") ? "&" : "?") + rest;
}

/** A form field of a list, an object or text, pair by pair, in the style of a query parameter (its Encoding Object's). */
function styledField(name: string, value: unknown, { style = "form", explode }: FieldEncoding, add: AddPair): void {
  const exploding = explode ?? style === "form";
  if (style === "deepObject" || isNested(value)) {
    bracketPairs(name, value, add);
    return;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, item]) => item != null);
    if (exploding) for (const [key, item] of entries) add(key, item);
    else {
      add(
        name,
        entries
          .flat()
          .map((item) => asText(item, name))
          .join(","),
      );
    }
    return;
  }
  if (!Array.isArray(value)) {
    add(name, value);
    return;
  }
  const items = value.filter((item) => item != null);
  if (exploding) for (const item of items) add(name, item);
  else {
    let joiner = ",";
    if (style === "spaceDelimited") joiner = " ";
    else if (style === "pipeDelimited") joiner = "|";
    add(name, items.map((item) => asText(item, name)).join(joiner));
  }
}

/** Whether an Encoding Object styles its property, as a query parameter's style would write it. */
const isStyled = (encoded: FieldEncoding | undefined): boolean =>
  encoded !== undefined && (encoded.style !== undefined || encoded.explode !== undefined);

/** A form field's value, pair by pair: as its Encoding Object styles it, else a pair per list item. */
function fieldPairs(name: string, value: unknown, encoded: FieldEncoding | undefined, add: AddPair): void {
  if (isStyled(encoded)) styledField(name, value, encoded!, add);
  else if (Array.isArray(value)) for (const item of value) add(name, item);
  else add(name, value);
}

/**
 * A URL-encoded form's fields as the environment's `URLSearchParams`. A property its Encoding Object styles is
 * written as a query parameter of that style would be (deepObject's brackets too); one it gives a JSON
 * `contentType`, as JSON text; any other as the 3.1.1 defaults have it: text, a field per list item, an object as
 * JSON text. A file has no place in one.
 */
function urlEncodedBody(fields: [string, unknown][], encoding: Map<string, FieldEncoding>): unknown {
  const body = new (globalThis as DescriptionNode).URLSearchParams() as { append(name: string, value: string): void };
  const add: AddPair = (field, item) => {
    if (item == null) return;
    const object = typeof item === "object";
    if (object && isBlob(item)) fail(`form field ${quote(field)} is a file: a URL-encoded form holds text alone`);
    body.append(field, object && isPlainObject(item) ? JSON.stringify(item) : asText(item, field));
  };
  for (const [name, value] of fields) {
    const encoded = encoding.get(name);
    if (encoded?.contentType && isJson(encoded.contentType)) add(name, JSON.stringify(value));
    else fieldPairs(name, value, encoded, add);
  }
  return body;
}

/**
 * A multipart form's parts, as the environment's `FormData`: a list is a part per item, files and blobs go as they
 * are, objects as JSON text; a part whose Encoding Object names a `contentType` is a blob of that type (a JSON
 * one holds JSON text), and one it styles is written as a form field of that style would be, text parts.
 */
function multipartBody(fields: [string, unknown][], encoding: Map<string, FieldEncoding>): unknown {
  const globals = globalThis as DescriptionNode;
  const body = new globals.FormData() as { append(name: string, value: unknown): void };
  for (const [name, value] of fields) {
    const encoded = encoding.get(name);
    const type =
      isStyled(encoded) || !encoded?.contentType || RANGE.test(encoded.contentType) ? "" : encoded.contentType;
    fieldPairs(name, value, encoded, (field, item) => {
      if (item == null) return;
      if (isBlob(item)) body.append(field, item);
      else if (type) {
        body.append(field, new globals.Blob([isJson(type) ? JSON.stringify(item) : asText(item, field)], { type }));
      } else body.append(field, isPlainObject(item) ? JSON.stringify(item) : asText(item, field));
    });
  }
  return body;
}

/** Form fields as the environment's `URLSearchParams` or `FormData`, so that no DOM type is named here. */
function formBody(form: string, fields: [string, unknown][], encoding: Map<string, FieldEncoding>): unknown {
  return /^multipart/i.test(form) ? multipartBody(fields, encoding) : urlEncodedBody(fields, encoding);
}

/** Body properties as one object. */
function objectBody(fields: [string, unknown][]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of fields) if (value !== undefined) put(body, name, value);
  return body;
}

/** Whether a form's fields hold a file, at their top or in a list: multipart then, where the description lists it. */
const holdsFile = (fields: [string, unknown][]) => fields.some(([, value]) => [value].flat().some(isBlob));

/**
 * Body properties and form fields taken out of the call: `body:<name>` keys, and (for a form, where `data` is a
 * field too, unless it is a whole form) every key not a named option. For a GET or HEAD, whose description may
 * declare a body it cannot send, a key naming one of that body's properties is refused.
 */
function bodyFields({ route, method, bodyNames }: CompiledOperation, call: Record<string, unknown>, form: boolean) {
  const names = Object.keys(call);
  // One escaped property, and the body is built here rather than by build(): every property then.
  const gather = form || names.some((name) => name.startsWith("body:"));
  const fields: [string, unknown][] = [];
  for (const name of names) {
    const escaped = name.startsWith("body:");
    const property = escaped ? name.slice(5) : name;
    if (escaped && (method === "get" || method === "head")) fail(`${quote(route)} has no body for ${quote(name)}`);
    if (bodyNames.includes(property) && call[name] !== undefined) {
      fail(`${quote(route)} sends no body: ${quote(name)} is a property of the body its description declares`);
    }
    if (!gather || (!escaped && NAMED.has(name))) continue;
    fields.push([property, call[name]]);
    delete call[name];
  }
  return fields;
}

/**
 * For an operation whose body is a form, whether the body is built from the call's fields, with what `data` holds.
 * `data` is a field where the form declares one; else it is the whole form (a `FormData`, a `URLSearchParams`, or
 * a URL-encoded form's text: a multipart one's needs a boundary only fetch writes), or the fields as one object,
 * which go into the call as `"body:<name>"` keys.
 */
function fieldsOfData({ route, bodyTypes, dataField }: CompiledOperation, call: Record<string, unknown>): boolean {
  const data = call.data;
  if (isForm(data)) return false;
  if (data === undefined || dataField) return true;
  if (typeof data === "string" && !/^multipart/i.test(mediaTypeFor(bodyTypes, data, false)!)) return false;
  if (!isPlainObject(data)) {
    mustBe(`option \`data\` of ${quote(route)}`, "an object of form fields, a FormData or form text", data);
  }
  delete call.data;
  for (const name of Object.keys(data)) put(call, "body:" + name, data[name]);
  return true;
}

/**
 * The body of a general-way call, in `call.data` as build() reads it, with the media type it goes as. JSON goes
 * first where it is listed: escaped body properties are gathered here, the others left to build(), and a body
 * given whole as a string is JSON text of it. A form's fields are gathered here (`data` is a field too, unless it
 * is a whole form, or the form's text as a string). Returns the media type and the `url` parameter still build()'s
 * to place.
 */
function gatherBody(operation: CompiledOperation, call: Record<string, unknown>, urlParameter: unknown) {
  const { route, bodyTypes, encoding } = operation;
  const json = bodyTypes.some(isJson);
  const form = !json && bodyTypes.some((listed) => FORM_TYPE.test(listed)) && fieldsOfData(operation, call);
  const whole = call.data;
  const fields = bodyFields(operation, call, form);
  if (form || fields.length) {
    if (!form && whole !== undefined) {
      fail(`option \`data\` is the whole body: ${quote(route)} takes no "body:" keys beside it`);
    }
    if (urlParameter !== undefined) fields.push(["url", urlParameter]);
    urlParameter = undefined;
  }
  const type = mediaTypeFor(bodyTypes, fields.length ? {} : whole, holdsFile(fields));
  if (form && type !== undefined) {
    if (fields.length || operation.bodyRequired) call.data = formBody(type, fields, encoding);
  } else if (fields.length) call.data = objectBody(fields);
  else if (typeof whole === "string" && json) call.data = JSON.stringify(whole);
  return { type, urlParameter };
}

/** A built URL as a template with nothing to expand, for build(): only the named options are not parameters. */
const literalTemplate = (url: string): Template => ({
  // The empty last piece keeps a trailing `/` (see operationTemplate()).
  parts: [url, ""],
  taken: NAMED,
  relative: undefined,
  rooted: url[0] === "/",
  mayHoldQuery: true,
});

/**
 * A result's body where the description requires one and the call gave none: the empty value of its media type
 * (`{}` for JSON, an empty form), labelled; and its label where the call set none and the body has one. `labelled`:
 * the call's own `content-type`.
 */
function settleBody(
  result: RequestOptions,
  operation: CompiledOperation,
  type: string | undefined,
  label: string | undefined,
  labelled: boolean,
) {
  const empty = result.body === undefined || result.body === "";
  if (type === undefined) {
    // Only media ranges listed (`*∕*`), or none: an object goes as JSON (build() labels it), so a required body left
    // out is `{}`; text is no JSON, and goes unlabelled.
    if (empty && operation.bodyRequired) {
      result.body = {};
      if (!labelled) result.headers["content-type"] = JSON_TYPE;
    } else if (!labelled && typeof result.body === "string") delete result.headers["content-type"];
    return result;
  }
  if (empty && operation.bodyRequired) {
    const globals = globalThis as DescriptionNode;
    // A JSON Patch is a list of operations.
    if (isJson(type)) result.body = JSON_PATCH.test(type) ? [] : {};
    else if (FORM_TYPE.test(type)) {
      result.body = new globals[/^multipart/i.test(type) ? "FormData" : "URLSearchParams"]();
    } else result.body = "";
  } else if (empty) return result;
  if (label && !labelled) result.headers["content-type"] = label;
  return result;
}

/**
 * The general way, from merged options (`parse()`, and the calls the fast way does not take): the options
 * copied, the server's variables and the parameters taken out of them in shape, the body gathered, then build()
 * with the URL as a literal.
 */
function callOperation(context: OpenAPIContext, options: MergedOptions): RequestOptions {
  const checked = checkOptions(options);
  const call = shallowCopy(checked);
  const operation = readOnce(context, checkMethod(call.method), call.url as string);
  delete call.url;
  const given = serverValues(call);
  for (const name of Object.keys(given)) delete call["server:" + name];
  // The base URL as the state's, so that the server can replace it or go under it.
  const base = call.baseUrl === undefined ? undefined : checkBase(call.baseUrl);
  const state = onServer(context, { ...EMPTY_STATE, base }, operation, call.baseUrl, given);
  delete call.baseUrl;
  const headers = operationHeaders(context, operation, call);
  const labelled = headers["content-type"] !== undefined;
  const placed = placeParameters(operation, call, headers, checked[URL_PARAMETER as never]);
  const url = operationUrl(operation, placed, headers);
  call.headers = headers;
  const { type, urlParameter } = gatherBody(operation, call, placed.urlParameter);
  const result = build(state, operation.method, literalTemplate(url), call, urlParameter);
  return settleBody(result, operation, type, labelFor(type), labelled);
}

/** An operation, and what the fast way builds it with; `state` is `undefined` when it cannot take the fast way. */
interface Prepared {
  operation: CompiledOperation;
  state: State | undefined;
  /**
   * A form's state for a call that has a body: its headers hold the form's label already (V8 before Node 22 makes
   * adding a key to the copy build() takes of them cost several times the copy).
   */
  formState: State | undefined;
  /** The media type its body goes as, and what that labels. */
  type: string | undefined;
  label: string | undefined;
  /** A form's fields from `defaults()`, worked out once: `undefined` when it sets none. */
  fields: Record<string, unknown> | undefined;
}

/** Parameters less the server's variables (`"server:<name>"`): those fill the server's URL, not the request. */
function withoutServerValues(params: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!params) return params;
  const left: Record<string, unknown> = {};
  for (const key of Object.keys(params)) if (!key.startsWith("server:")) put(left, key, params[key]);
  return Object.keys(left).length ? left : null;
}

/**
 * For one `defaults()` call's state, each route's operation and its state for the fast way, worked out once:
 * the operation's server (its variables from the defaults), and the description's media types where the caller
 * set none. Defaults that escape a name (`"body:…"`, `"query:…"`) leave every call to the general way.
 */
function preparer(context: OpenAPIContext, state: State): (route: string) => Prepared {
  const { merged } = state;
  const headers = merged.headers as RequestHeaders;
  const { format, previews } = merged.mediaType as MediaType;
  const ownAccept = headers.accept === context.own.accept && !format && !previews?.length;
  const escapes = Object.keys(merged).some((name) => name.includes(":") && !name.startsWith("server:"));
  const given = serverValues(merged);
  const params = withoutServerValues(state.params);
  return cached((route): Prepared => {
    const { url, lower } = parseRoute(route);
    const operation = readOnce(context, lower ?? state.verb, url);
    const type = mediaTypeFor(operation.bodyTypes, {}, false);
    const label = labelFor(type);
    const slow = { operation, state: undefined, formState: undefined, type, label, fields: undefined };
    if (!operation.fastTemplate || escapes) return slow;
    let onIt: State;
    try {
      onIt = onServer(context, state, operation, merged.baseUrl, given);
    } catch {
      // A server variable the defaults leave without a value: the general way names it.
      return slow;
    }
    const presetHeaders = ownAccept ? { ...state.presetHeaders, accept: operation.accept } : state.presetHeaders;
    const labelled = headers["content-type"] !== undefined;
    const bodyHeaders = {
      ...presetHeaders,
      "content-type": labelled ? state.bodyHeaders["content-type"] : (label ?? JSON_TYPE),
    };
    const fast = { ...onIt, params, presetHeaders, bodyHeaders };
    const formState = operation.form && label ? { ...fast, presetHeaders: bodyHeaders } : undefined;
    const fields = operation.form ? defaultFields(operation, params) : undefined;
    return { operation, state: fast, formState, type, label, fields };
  }, 1000);
}

/**
 * Whether a call's `data` can go the fast way: not a string where that goes as JSON text, or unlabelled (no media
 * type but ranges), nor a form's `data` that is not a field of it (the whole body, or its fields as one object).
 * The general way writes all three.
 */
function dataTakesFastWay({ bodyTypes, form, dataField }: CompiledOperation, data: unknown): boolean {
  if (typeof data === "string" && (!bodyTypes.length || bodyTypes.some(isJson))) return false;
  return !form || Boolean(dataField);
}

/**
 * Whether a call can take the fast way: nothing in it changes the server, the operation or the media types, or
 * escapes a name; its `data` and parameter values are ones build() writes as the general way would; every
 * required parameter is set.
 */
function takesFastWay({ operation, label }: Prepared, given: Record<string, unknown>, defaults: State): boolean {
  for (const key in given) {
    if (key === "baseUrl" || key === "method" || key === "mediaType" || key.includes(":")) return false;
    const value = given[key];
    if (key === "headers") {
      // The caller's headers may hold a content-type that a non-JSON body's label would replace.
      if (label && label !== JSON_TYPE) return false;
    } else if (key === "data") {
      if (!dataTakesFastWay(operation, value)) return false;
    } else if (typeof value === "object" && operation.parameterKeys.has(key) && isNested(value)) {
      // A value nested deeper than its style writes is the general way's: styled() writes or refuses it.
      return false;
    }
  }
  for (const key of operation.required) {
    if ((!hasOwn(given, key) || given[key] == null) && defaults.params?.[key] == null) return false;
  }
  return true;
}

/** Whether a key of a form call's options is a field of the form: not a named option, a parameter or `url`. */
const isFormField = (operation: CompiledOperation, key: string) =>
  key !== "url" && !NAMED.has(key) && !operation.parameterKeys.has(key);

/** The form fields `defaults()` sets for an operation, or `undefined` when it sets none. */
function defaultFields(operation: CompiledOperation, params: Record<string, unknown> | null) {
  let fields: Record<string, unknown> | undefined;
  for (const key in params) {
    if (!isFormField(operation, key)) continue;
    fields ??= {};
    put(fields, key, params[key]);
  }
  return fields;
}

/**
 * A form call's options for build(): the named options and parameters as they are, every other key a field of
 * the form, built in `data`: the defaults' fields first, the call's merged over them, then a `url` one, as the
 * general way has them. With no defaults' fields, the call's go straight into the list (merging into an object
 * and listing its entries again cost a fifth of a Stripe call).
 */
function formOptions({ operation, fields: preset, type }: Prepared, given: Record<string, unknown>) {
  const options: Record<string, unknown> = {};
  const fields = preset && shallowCopy(preset);
  const entries: [string, unknown][] = [];
  for (const key in given) {
    const value = given[key];
    if (value === undefined || !hasOwn(given, key)) continue;
    if (!isFormField(operation, key)) {
      if (key !== "url") put(options, key, value);
    } else if (fields) mergeKey(fields, key, value);
    else entries.push([key, value]);
  }
  if (fields) entries.push(...Object.entries(fields));
  if (given.url !== undefined) entries.push(["url", given.url]);
  if (entries.length || operation.bodyRequired) options.data = formBody(type!, entries, operation.encoding);
  return options;
}

/** The fast way: build() takes the call's options as they are (a form's fields built), with the operation's template and state. */
function fastCall(prepared: Prepared, given: Record<string, unknown>): RequestOptions {
  const { operation, state, formState, type, label } = prepared;
  const options = operation.form ? formOptions(prepared, given) : given;
  const result = build(
    options.data === undefined ? state! : (formState ?? state!),
    operation.method,
    operation.fastTemplate,
    options,
  );
  return settleBody(result, operation, type, label, result.headers["content-type"] !== undefined);
}

/** The endpoint `withOpenAPI()` returns, for `wrapped`'s defaults; its `defaults()` makes another. */
// biome-ignore lint/suspicious/noExplicitAny: an endpoint with any defaults; only its runtime surface is used.
function openAPIEndpoint(wrapped: Endpoint<any>, context: OpenAPIContext): Endpoint {
  const state = toState(wrapped.DEFAULTS);
  const prepare = preparer(context, state);
  const parseOperation = (options: MergedOptions) => callOperation(context, options);
  const api = (route: unknown, options?: unknown): RequestOptions => {
    if (typeof route === "string" && (options == null || isPlainObject(options))) {
      const prepared = prepare(route);
      const given = (options ?? {}) as Record<string, unknown>;
      if (prepared.state && takesFastWay(prepared, given, state)) return fastCall(prepared, given);
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
 * - the URL on the operation's server (else the path's, else the description's), its variables at their defaults
 *   or the call's (or `defaults()`') `"server:<name>"` values, unless you set `baseUrl` (a relative server, `/v1`,
 *   goes under it; a protocol-relative one takes its scheme);
 * - `accept` from what the operation answers on success, `content-type` from its request body's media type and the
 *   body's shape (JSON Patch only for a list), unless you set them (or a `mediaType`);
 * - path, query, header and cookie parameters where the description puts them, each in its `style` and
 *   `explode` (query parameters of every method, `allowReserved` too), percent-encoded as RFC 3986 needs, values
 *   nested deeper than a style writes in the bracket form (`filter[tags][0]=a`);
 * - a JSON body as `endpoint()` builds it (a string given whole as `data` is JSON text), a form body as
 *   `URLSearchParams` or `FormData`, each property as its Encoding Object says; a required body the call leaves
 *   out as the empty value of its media type (`{}`), and no body for a GET or HEAD.
 *
 * The route names the operation as the description's path key (`"GET /pet/findByStatus"`, `"GET
 * /files/{id}#shared"`); parameters and body properties sit beside each other by name, one name filling every
 * parameter that has it. A parameter named like a named option (`headers`, `data`…) is passed as
 * `"<in>:<name>"` (`"query:headers"`), as any parameter may be; a body property or form field that clashes with
 * anything as `"body:<name>"` (`"body:method"`). Each operation is read from the description once, when it is first
 * called; `reduceOpenAPI()` makes a description light enough to ship.
 * @throws {TypeError} when the description is not one; when called, for a route the description lacks, a
 * missing required parameter or server variable, a server variable's value that would leave its place in the URL,
 * a file in a URL-encoded form, or a `$ref` that the call needs and names nothing.
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
function reduceParameter(description: OpenAPIDescription, raw: unknown): Record<string, unknown> | undefined {
  const found = followIfThere(description, raw);
  if (!toParameter(found)) return undefined;
  const { name, in: where, style, explode, allowReserved, required, content } = found;
  const reduced: Record<string, unknown> = { name, in: where };
  const plain = defaultStyle(where);
  if (style !== undefined && style !== plain) reduced.style = style;
  if (explode !== undefined && explode !== ((style ?? plain) === "form")) reduced.explode = explode;
  if (allowReserved) reduced.allowReserved = true;
  if (required && where !== "path") reduced.required = true;
  if (isPlainObject(content)) reduced.content = Object.fromEntries(Object.keys(content).map((type) => [type, {}]));
  return reduced;
}

/** An operation's (or a path's) parameters reduced, each as JSON text so that two can be compared. */
function reducedParameters(description: OpenAPIDescription, list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((raw) => {
    const reduced = reduceParameter(description, raw);
    return reduced ? [JSON.stringify(reduced)] : [];
  });
}

/** The first server of a list, with its variables' defaults; `undefined` when it has none. */
function reducedServers(list: unknown): DescriptionNode[] | undefined {
  const server = readServer([list]);
  if (!server) return undefined;
  const variables: Record<string, { default: string }> = {};
  for (const [name, { fallback }] of server.variables) {
    if (fallback !== undefined) variables[name] = { default: fallback };
  }
  return [Object.keys(variables).length ? { url: server.url, variables } : { url: server.url }];
}

/** Media types as a `content` with nothing in them, or `undefined` for none. */
function emptyContent(types: string[]): { content: Record<string, object> } | undefined {
  return types.length ? { content: Object.fromEntries(types.map((type) => [type, {}])) } : undefined;
}

/**
 * A request body reduced: its media types, whether required, a form's Encoding Object, and for a GET or HEAD the
 * names of its properties (which the call may not pass).
 */
function reduceBody(description: OpenAPIDescription, method: string, operation: DescriptionNode) {
  const { types, required, encoding, dataField, names } = readBody(description, method, operation);
  if (names.length) {
    const schema = { properties: Object.fromEntries(names.map((name) => [name, {}])) };
    return { content: { "application/json": { schema } } };
  }
  const reduced: DescriptionNode | undefined = emptyContent(types);
  if (!reduced) return undefined;
  const form = types.find((type) => FORM_TYPE.test(type));
  if (form && encoding.size) reduced.content[form] = { encoding: Object.fromEntries(encoding) };
  if (form && dataField) reduced.content[form].schema = { properties: { data: {} } };
  if (required) reduced.required = true;
  return reduced;
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

/** An operation reduced: its servers, parameters, request body, and success media types under 200. */
function reduceOperation(
  description: OpenAPIDescription,
  method: string,
  operation: DescriptionNode,
  parameters: string[],
) {
  // The success statuses' media types, joined under one: the accept header reads them in order.
  const answers = followIfThere(description, operation.responses);
  const types = Object.keys(answers)
    .filter((status) => SUCCESS.test(status))
    .flatMap((status) => mediaTypes(description, answers[status]));
  const success = emptyContent([...new Set(types)]);
  return {
    servers: reducedServers(operation.servers),
    parameters,
    requestBody: reduceBody(description, method, operation),
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
  for (const [method, operation, list] of operations) {
    reduced[method] = reduceOperation(description, method, operation, list);
  }
  return reduced;
}

/**
 * The parts of an OpenAPI description that `withOpenAPI()` reads, and nothing else: per operation its servers
 * (their variables' defaults), its parameters (name, location, style, explode, allowReserved, whether required or
 * JSON), its request body's media types (a form's Encoding Object, whether required) and its success responses'
 * media types, `$ref`s followed. `withOpenAPI()` builds every request from it as from the whole description. Run it
 * at build time, so that a browser app ships kilobytes, not megabytes: GitHub's 13 MB description becomes about
 * 240 KB (14 KB gzip).
 * @throws {TypeError} when the description is not one, or a `$ref` to a path item or an operation names nothing.
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
