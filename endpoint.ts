/**
 * endpoint-options — turn a REST route and parameters into plain request options.
 *
 * One file, no dependencies. Read top to bottom:
 *   1. the RFC 6570 URI-template compiler and expander,
 *   2. option merging (defaults, headers, media types),
 *   3. request building (URL, query, body),
 *   4. the exported surface.
 *
 * @module
 */

const VERSION = "1.0.0";

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

function fail(message: string): never {
  throw new TypeError("endpoint-options: " + message);
}

/** A string shown inside an error message: quoted, and cut short so a 1 MB input gives a short message. */
function show(text: string): string {
  return JSON.stringify(text.length > 80 ? text.slice(0, 77) + "..." : text);
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Own, defined value of `key`, ignoring anything inherited (`constructor`, `toString`, ...). */
function own(object: Record<string, unknown>, key: string): unknown {
  return hasOwn.call(object, key) ? object[key] : undefined;
}

/** Assign without invoking the `__proto__` setter, so a key from JSON.parse stays data. */
function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    object[key] = value;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// ---------------------------------------------------------------------------
// 1. URI templates (RFC 6570, level 4)
// ---------------------------------------------------------------------------

// Character classes, indexed by char code < 128.
// UNRESERVED: ALPHA DIGIT - . _ ~      RESERVED adds gen-delims and sub-delims.
const UNRESERVED = new Uint8Array(128);
const URI_CHAR = new Uint8Array(128);
const VARCHAR = new Uint8Array(128);
const TOKEN = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  UNRESERVED[c] = alnum || "-._~".includes(ch) ? 1 : 0;
  URI_CHAR[c] = UNRESERVED[c] || ":/?#[]@!$&'()*+,;=".includes(ch) ? 1 : 0;
  VARCHAR[c] = alnum || ch === "_" ? 1 : 0;
  TOKEN[c] = alnum || "!#$%&'*+-.^_`|~".includes(ch) ? 1 : 0;
}
const HEX = "0123456789ABCDEF";

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/**
 * Percent-encode `text` for a URI. Characters in `allowed` stay; with `keepTriplets`, existing
 * `%XX` triplets stay too (reserved expansion and template literals). Returns `text` itself when
 * nothing needs encoding, which is the common case for ids and names.
 */
function encode(text: string, allowed: Uint8Array, keepTriplets: boolean, what: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128 && allowed[c]) continue;
    if (c === 37 && keepTriplets && isHex(text.charCodeAt(i + 1)) && isHex(text.charCodeAt(i + 2))) {
      i += 2;
      continue;
    }
    out += text.slice(from, i);
    if (c < 128) {
      out += "%" + HEX[c >> 4] + HEX[c & 15];
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) {
        fail(`${what} contains a lone surrogate at index ${i}`);
      }
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else {
      out += encodeURIComponent(text[i]);
    }
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** The first `length` Unicode characters of `text` (a surrogate pair counts once). */
function prefix(text: string, length: number): string {
  let i = 0;
  for (let n = 0; n < length && i < text.length; n++) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
  }
  return text.slice(0, i);
}

interface Variable {
  name: string;
  /** Max characters for `{var:N}`, 0 for none. */
  prefix: number;
  explode: boolean;
  /** How errors name it. */
  label: string;
  /** URL mode: a named option (`url`, `headers`...) is never a variable. */
  skip: boolean;
}

interface Expression {
  /** What opens a non-empty expansion, e.g. `?` for `{?a,b}`. */
  first: string;
  /** What joins the values, e.g. `&` for `{?a,b}`. */
  separator: string;
  /** Form-style `name=value` pairs (`;`, `?`, `&`). */
  named: boolean;
  /** What follows the name of an empty value: `=` for `?` and `&`, nothing for `;`. */
  ifEmpty: string;
  /** `+` and `#` keep reserved characters and `%XX` triplets. */
  allowed: Uint8Array;
  variables: Variable[];
  /** Part of the URL path, where a value may not form a `.` or `..` segment (URL mode only). */
  inPath: boolean;
}

type Part = string | Expression;

//        operator: [first, separator, named, ifEmpty, reserved]
const OPERATORS: Record<string, [string, string, boolean, string, boolean]> = {
  "": ["", ",", false, "", false],
  "+": ["", ",", false, "", true],
  "#": ["#", ",", false, "", true],
  ".": [".", ".", false, "", false],
  "/": ["/", "/", false, "", false],
  ";": [";", ";", true, "", false],
  "?": ["?", "&", true, "=", false],
  "&": ["&", "&", true, "=", false],
};

/** Option names that are never template variables or request parameters. */
const NAMED_OPTIONS = new Set(["method", "baseUrl", "url", "headers", "request", "mediaType"]);

/** A compiled template: literal text is pre-encoded, expressions are pre-parsed. */
interface Template {
  source: string;
  parts: Part[];
  /** Every variable name, so parameters the URL consumes are not also sent as query or body. */
  names: Set<string>;
  /** URL mode: `:name` placeholders, `-` in names, named options are never variables. */
  url: boolean;
}

function templateError(template: string, position: number, problem: string): never {
  fail(`${problem} at position ${position} of template ${show(template)}`);
}

/**
 * Compile a template in one left-to-right pass. In URL mode (used by `endpoint()`), `:name` reads
 * as `{name}` and names may contain `-` (GitHub's `{enterprise-team}`).
 */
function compile(source: string, url: boolean): Template {
  const parts: Part[] = [];
  const names = new Set<string>();
  const label = `template ${show(source)}`;
  let literalStart = 0;
  let inPath = url;
  const flush = (end: number) => {
    if (end > literalStart) parts.push(encode(source.slice(literalStart, end), URI_CHAR, true, label));
  };
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 123 /* { */) {
      let end = i + 1;
      while (end < source.length && source.charCodeAt(end) !== 125 /* } */) {
        if (source.charCodeAt(end) === 123) break;
        end++;
      }
      if (source.charCodeAt(end) !== 125) templateError(source, i, "unclosed `{`");
      flush(i);
      const expression = parseExpression(source, i + 1, end, url, inPath);
      for (const variable of expression.variables) names.add(variable.name);
      if (expression.first === "?" || expression.first === "#") inPath = false;
      parts.push(expression);
      i = end;
      literalStart = end + 1;
    } else if (c === 125 /* } */) {
      templateError(source, i, "unmatched `}`");
    } else if (url && c === 58 /* : */ && isLowerLetter(source.charCodeAt(i + 1))) {
      let end = i + 2;
      while (end < source.length && source.charCodeAt(end) < 128 && VARCHAR[source.charCodeAt(end)]) end++;
      flush(i);
      const name = source.slice(i + 1, end);
      names.add(name);
      parts.push(expressionOf("", [variableOf(name, 0, false, url)], inPath));
      i = end - 1;
      literalStart = end;
    } else if (c === 63 /* ? */ || c === 35 /* # */) {
      inPath = false;
    }
  }
  flush(source.length);
  return { source, parts, names, url };
}

function variableOf(name: string, prefix: number, explode: boolean, url: boolean): Variable {
  return { name, prefix, explode, label: `parameter ${show(name)}`, skip: url && NAMED_OPTIONS.has(name) };
}

function isLowerLetter(c: number): boolean {
  return c >= 97 && c <= 122;
}

function expressionOf(operator: string, variables: Variable[], inPath: boolean): Expression {
  const [first, separator, named, ifEmpty, reserved] = OPERATORS[operator];
  return { first, separator, named, ifEmpty, allowed: reserved ? URI_CHAR : UNRESERVED, variables, inPath };
}

/** Parse the inside of `{...}`: `source[start..end)`. */
function parseExpression(source: string, start: number, end: number, url: boolean, inPath: boolean): Expression {
  let i = start;
  const op = source[i];
  let operator = "";
  if (op && hasOwn.call(OPERATORS, op) && op !== "") {
    operator = op;
    i++;
  } else if (op && "=,!@|".includes(op)) {
    templateError(source, i, `reserved operator \`${op}\``);
  }
  const variables: Variable[] = [];
  for (;;) {
    // varname = varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_" / pct-encoded
    const nameStart = i;
    let lastWasDot = true;
    while (i < end) {
      const c = source.charCodeAt(i);
      if (c === 37 /* % */) {
        if (!isHex(source.charCodeAt(i + 1)) || !isHex(source.charCodeAt(i + 2))) {
          templateError(source, i, "invalid percent-encoding in variable name");
        }
        i += 3;
      } else if (c === 46 /* . */) {
        if (lastWasDot) templateError(source, i, "misplaced `.` in variable name");
        lastWasDot = true;
        i++;
        continue;
      } else if ((c < 128 && VARCHAR[c]) || (url && c === 45 /* - */)) {
        i++;
      } else {
        break;
      }
      lastWasDot = false;
    }
    if (i === nameStart) templateError(source, i, "expected a variable name");
    if (lastWasDot) templateError(source, i - 1, "misplaced `.` in variable name");
    const name = source.slice(nameStart, i);
    let explode = false;
    let length = 0;
    if (source[i] === "*") {
      explode = true;
      i++;
    } else if (source[i] === ":") {
      const digitsStart = ++i;
      while (i < end && source.charCodeAt(i) >= 48 && source.charCodeAt(i) <= 57) i++;
      const digits = source.slice(digitsStart, i);
      if (!digits || digits[0] === "0" || digits.length > 4) {
        templateError(source, digitsStart, "prefix length must be 1 to 9999");
      }
      length = +digits;
    }
    variables.push(variableOf(name, length, explode, url));
    if (i === end) break;
    if (source[i] !== ",") templateError(source, i, `unexpected ${show(source[i])} in expression`);
    i++;
  }
  return expressionOf(operator, variables, inPath && operator !== "?" && operator !== "&" && operator !== "#");
}

/** Where a value sits in the expanded URL, so a `.`/`..` segment made from it can be named. */
interface Span {
  start: number;
  end: number;
  name: string;
}

/** Expand a compiled template; only own, non-null properties of `variables` are values. */
function expand(template: Template, variables: Record<string, unknown>): string {
  let out = "";
  let spans: Span[] | null = null;
  for (const part of template.parts) {
    if (typeof part === "string") {
      out += part;
      continue;
    }
    let first = true;
    for (const variable of part.variables) {
      if (variable.skip) continue;
      const value = own(variables, variable.name);
      if (value === undefined || value === null) continue;
      const text = expandValue(part, variable, value, template);
      if (text === undefined) continue;
      out += first ? part.first : part.separator;
      first = false;
      if (part.inPath && hasDot(text)) (spans ??= []).push({ start: out.length, end: out.length + text.length, name: variable.name });
      out += text;
    }
  }
  if (spans) rejectDotSegments(out, spans, template);
  return out;
}

/** The expansion of one variable's value, or `undefined` when RFC 6570 treats it as absent. */
function expandValue(expression: Expression, variable: Variable, value: unknown, template: Template): string | undefined {
  const { named, ifEmpty, allowed } = expression;
  const { name, label, explode } = variable;
  const keepTriplets = allowed === URI_CHAR;
  if (Array.isArray(value) || isPlainObject(value)) {
    if (variable.prefix) fail(`${label} is a list or object, so it cannot take the prefix \`:${variable.prefix}\` in ${show(template.source)}`);
    const items: string[] = [];
    if (Array.isArray(value)) {
      for (const item of value) {
        if (item === undefined || item === null) continue;
        const text = encode(scalar(item, name), allowed, keepTriplets, label);
        items.push(explode && named ? name + (text ? "=" + text : ifEmpty) : text);
      }
    } else {
      for (const key of Object.keys(value)) {
        const item = value[key];
        if (item === undefined || item === null) continue;
        const text = encode(scalar(item, name), allowed, keepTriplets, label);
        const encodedKey = encode(key, allowed, keepTriplets, label);
        if (explode) items.push(encodedKey + (text || !named ? "=" + text : ifEmpty));
        else items.push(encodedKey, text);
      }
    }
    if (items.length === 0) return undefined;
    if (explode) return items.join(expression.separator);
    return (named ? name + "=" : "") + items.join(",");
  }
  let text = scalar(value, name);
  if (variable.prefix) text = prefix(text, variable.prefix);
  text = encode(text, allowed, keepTriplets, label);
  if (!named) return text;
  return text ? name + "=" + text : name + ifEmpty;
}

/** A value sent as one string: strings, numbers, booleans, bigints, and objects with their own text form (a Date, a URL). */
function scalar(value: unknown, name: string): string {
  if (typeof value === "string") return value;
  if (typeof value === "symbol" || typeof value === "function") fail(`parameter ${show(name)} must not be a ${typeof value}`);
  const text = String(value);
  if (typeof value === "object" && text.startsWith("[object ")) {
    fail(`parameter ${show(name)} is an object with no text form; use a string, number, boolean, list or plain object`);
  }
  return text;
}

function hasDot(text: string): boolean {
  return text.includes(".") || text.includes("%2e") || text.includes("%2E");
}

/**
 * A value must not make a whole path segment `.` or `..` (in any spelling the WHATWG URL parser
 * resolves, `%2e` included): it would silently move the request to another resource. Dot segments
 * written in the template itself are the caller's and stay. One pass over segments and spans.
 */
function rejectDotSegments(url: string, spans: Span[], template: Template): void {
  let pathEnd = url.length;
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 63 || c === 35) {
      pathEnd = i;
      break;
    }
  }
  let s = 0;
  let segmentStart = 0;
  for (let i = 0; i <= pathEnd; i++) {
    if (i < pathEnd && url.charCodeAt(i) !== 47 /* / */) continue;
    while (s < spans.length && spans[s].end <= segmentStart) s++;
    if (s < spans.length && spans[s].start < i && isDotSegment(url, segmentStart, i)) {
      fail(
        `parameter ${show(spans[s].name)} would make the path segment ${show(url.slice(segmentStart, i))} ` +
          `in ${show(template.source)}, which moves the request to another resource`,
      );
    }
    segmentStart = i + 1;
  }
}

function isDotSegment(url: string, start: number, end: number): boolean {
  let dots = 0;
  for (let i = start; i < end; dots++) {
    if (url.charCodeAt(i) === 46) i++;
    else if (url.charCodeAt(i) === 37 && url.charCodeAt(i + 1) === 50 && (url.charCodeAt(i + 2) | 32) === 101) i += 3;
    else return false;
  }
  return dots === 1 || dots === 2;
}

/** A bounded cache: when full, the oldest entry goes. Distinct URLs with ids baked in cannot grow it. */
function cached<T>(limit: number, make: (key: string) => T): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = make(key);
      if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
      cache.set(key, value);
    }
    return value;
  };
}

const strictTemplate = cached(500, (source) => compile(source, false));
const urlTemplate = cached(1000, (source) => compile(source, true));

// ---------------------------------------------------------------------------
// 2. Merging options
// ---------------------------------------------------------------------------

/** Deepest nesting of plain objects that merging and copying follow; deeper means a cycle. */
const MAX_DEPTH = 100;

/** A copy of plain objects and arrays; anything else (an agent, a signal) stays the same instance. */
function copy(value: unknown, path: string, depth = 0): unknown {
  if (depth > MAX_DEPTH) fail(`${path} is nested too deeply (is it cyclic?)`);
  if (Array.isArray(value)) return value.map((item, i) => copy(item, `${path}[${i}]`, depth + 1));
  if (!isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (value[key] !== undefined) setOwn(result, key, copy(value[key], `${path}.${key}`, depth + 1));
  }
  return result;
}

/**
 * `override` merged over `base` into a new object: plain objects merge deeply, anything else
 * replaces, `undefined` never unsets. `base` is ours (already copied); values from `override` are
 * used as they are.
 */
function mergeDeep(base: Record<string, unknown>, override: Record<string, unknown>, path: string, depth = 0): Record<string, unknown> {
  if (depth > MAX_DEPTH) fail(`${path} is nested too deeply (is it cyclic?)`);
  const result = copy(base, path) as Record<string, unknown>;
  for (const key of Object.keys(override)) {
    const value = override[key];
    if (value === undefined) continue;
    const prior = own(result, key);
    setOwn(result, key, isPlainObject(value) && isPlainObject(prior) ? mergeDeep(prior, value, `${path}.${key}`, depth + 1) : value);
  }
  return result;
}

/** Header names lowercased, each name and value checked, `undefined` dropped. */
function normalizeHeaders(headers: unknown, into: Record<string, unknown>): Record<string, unknown> {
  if (headers === undefined || headers === null) return into;
  if (!isPlainObject(headers)) fail("option `headers` must be a plain object");
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value === undefined) continue;
    checkToken(name, "header name");
    checkHeaderValue(value, name);
    setOwn(into, name.toLowerCase(), value);
  }
  return into;
}

function checkToken(text: string, what: string): void {
  if (!text) fail(`${what} must not be empty`);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || !TOKEN[c]) fail(`${what} ${show(text)} has the invalid character ${show(text[i])} at index ${i}`);
  }
}

function checkHeaderValue(value: unknown, name: string): void {
  if (typeof value === "number") return;
  if (typeof value !== "string") fail(`header ${show(name)} must be a string or a number, not ${describe(value)}`);
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0) fail(`header ${show(name)} contains a forbidden ${c === 0 ? "NUL" : c === 10 ? "LF" : "CR"} at index ${i}`);
  }
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

interface MediaType {
  format: string;
  previews?: string[];
}

/** `mediaType` checked, preview names without their `-preview` suffix. */
function normalizeMediaType(value: unknown): Partial<MediaType> {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) fail("option `mediaType` must be a plain object");
  const result: Partial<MediaType> = {};
  const { format, previews } = value;
  if (format !== undefined) {
    if (typeof format !== "string") fail("option `mediaType.format` must be a string");
    checkMediaName(format, "mediaType.format", true);
    result.format = format;
  }
  if (previews !== undefined) {
    if (!Array.isArray(previews)) fail("option `mediaType.previews` must be an array of strings");
    result.previews = previews.map((preview, i) => {
      const what = `mediaType.previews[${i}]`;
      if (typeof preview !== "string") fail(`option \`${what}\` must be a string`);
      const name = preview.endsWith("-preview") ? preview.slice(0, -8) : preview;
      checkMediaName(name, what, false);
      return name;
    });
  }
  return result;
}

/** Format and preview names go into the accept header: letters, digits, `_`, `-`, `.`, `+` only. */
function checkMediaName(text: string, what: string, emptyOk: boolean): void {
  if (!text && !emptyOk) fail(`option \`${what}\` must not be empty`);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || !(VARCHAR[c] || c === 45 || c === 46 || c === 43)) {
      fail(`option \`${what}\` ${show(text)} has the invalid character ${show(text[i])} at index ${i}`);
    }
  }
}

/** Previews from earlier defaults the new list does not name come first, then the new ones in order. */
function mergePreviews(earlier: string[] | undefined, later: string[] | undefined): string[] | undefined {
  if (!later) return earlier;
  if (!earlier || earlier.length === 0) return later;
  return earlier.filter((preview) => !later.includes(preview)).concat(later);
}

/**
 * The accept header for a media type. Previews replace it with one preview media type each (those
 * already named in it as `<name>-preview` first); a format alone turns each
 * `application/vnd.<vendor>[.v3][.<x>][+json]` entry into `application/vnd.<vendor>[.v3].<format>`.
 * Binary (`application/octet-stream`) requests are left alone. Linear time throughout.
 */
function applyMediaType(accept: string, format: string, previews: string[] | undefined): string {
  if (accept.toLowerCase().includes("application/octet-stream")) return accept;
  if (previews && previews.length) {
    const suffix = format ? "." + format : "+json";
    return previewsIn(accept)
      .concat(previews)
      .map((preview) => `application/vnd.github.${preview}-preview${suffix}`)
      .join(",");
  }
  if (!format) return accept;
  return accept
    .split(",")
    .map((entry) => withFormat(entry, format))
    .join(",");
}

const isWordChar = (c: number) => c < 128 && VARCHAR[c] === 1;

/** Names written as `<name>-preview` in an accept header: in each run of word characters and `-`, the part before its last `-preview`. */
function previewsIn(accept: string): string[] {
  const names: string[] = [];
  let runStart = 0;
  for (let i = 0; i <= accept.length; i++) {
    const c = accept.charCodeAt(i);
    if (i < accept.length && (isWordChar(c) || c === 45)) continue;
    const run = accept.slice(runStart, i);
    const at = run.lastIndexOf("-preview");
    if (at > 0) names.push(run.slice(0, at));
    runStart = i + 1;
  }
  return names;
}

/** `application/vnd.<vendor>[.v3][.<x>][+json]` at the end of `entry` becomes `application/vnd.<vendor>[.v3].<format>`. */
function withFormat(entry: string, format: string): string {
  const start = entry.lastIndexOf("application/vnd");
  if (start === -1) return entry;
  let rest = entry.slice(start + 15);
  if (rest.endsWith("+json")) rest = rest.slice(0, -5);
  // rest must be 1 to 3 ".word" pieces; with 3, the middle one is "v3".
  const words = rest.split(".");
  if (words[0] !== "" || words.length < 2 || words.length > 4) return entry;
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (!word) return entry;
    for (let j = 0; j < word.length; j++) if (!isWordChar(word.charCodeAt(j))) return entry;
  }
  if (words.length === 4 && words[2] !== "v3") return entry;
  const keep = words[2] === "v3" ? "." + words[1] + ".v3" : "." + words[1];
  return entry.slice(0, start) + "application/vnd" + keep + "." + format;
}

// ---------------------------------------------------------------------------
// 3. Building the request
// ---------------------------------------------------------------------------

/** Defaults, normalized once per `defaults()` call so calls only layer their own options on top. */
interface State {
  method: string;
  baseUrl: string | undefined;
  url: string | undefined;
  /** Lowercased and checked. */
  headers: Record<string, unknown>;
  mediaType: MediaType;
  /** The accept header with the default media type applied, computed once. */
  accept: unknown;
  request: unknown;
  /** Default request parameters (every key that is not a named option), or `null` when none. */
  params: Record<string, unknown> | null;
  /** The options as `merge()` and `DEFAULTS` show them. */
  merged: Record<string, unknown>;
}

function checkMethod(method: unknown): string {
  if (typeof method !== "string") fail(`option \`method\` must be a string, not ${describe(method)}`);
  checkToken(method, "method");
  return method;
}

/** Split `"METHOD URL"` or `"URL"`; cached per route string. */
const parseRoute = cached(1000, (route): [string | undefined, string] => {
  const space = route.indexOf(" ");
  if (space === -1) {
    if (!route) fail("route must not be empty");
    return [undefined, route];
  }
  const url = route.slice(space + 1);
  if (!url || url.includes(" ")) fail(`route ${show(route)} must be "URL" or "METHOD URL"`);
  return [checkMethod(route.slice(0, space)), url];
});

function checkOptions(options: unknown): Record<string, unknown> {
  if (options === undefined || options === null) return {};
  if (!isPlainObject(options)) fail(`options must be a plain object, not ${describe(options)}`);
  return options;
}

function checkRoute(route: unknown): void {
  if (typeof route !== "string" && !isPlainObject(route)) {
    fail(`route must be a string like "GET /user" or an options object, not ${describe(route)}`);
  }
}

/** The options of a call as one object: a route string folded in, options beside it winning. */
function callOptions(route: unknown, options: unknown): Record<string, unknown> {
  checkRoute(route);
  if (typeof route !== "string") return route as Record<string, unknown>;
  const [method, url] = parseRoute(route);
  const result: Record<string, unknown> = method === undefined ? { url } : { method, url };
  const extra = checkOptions(options);
  for (const key of Object.keys(extra)) if (extra[key] !== undefined) setOwn(result, key, extra[key]);
  return result;
}

/** Merge options over the state: the `merge()` result. Values from `options` are used as they are. */
function mergeOptions(state: State, options: Record<string, unknown>): Record<string, unknown> {
  const merged = copy(state.merged, "defaults") as Record<string, unknown>;
  for (const key of Object.keys(options)) {
    const value = options[key];
    if (value === undefined) continue;
    if (key === "headers") merged.headers = normalizeHeaders(value, (merged.headers ?? {}) as Record<string, unknown>);
    else if (key === "mediaType") merged.mediaType = mergeMediaType((merged.mediaType ?? { format: "" }) as MediaType, value);
    else if (key === "method") merged.method = checkMethod(value);
    else mergeKey(merged, key, value);
  }
  return merged;
}

/** Plain objects merge deeply, anything else replaces. */
function mergeKey(target: Record<string, unknown>, key: string, value: unknown): void {
  const prior = own(target, key);
  setOwn(target, key, isPlainObject(value) && isPlainObject(prior) ? mergeDeep(prior, value, key) : value);
}

function mergeMediaType(base: MediaType, value: unknown): MediaType {
  const { format, previews } = normalizeMediaType(value);
  const result: MediaType = { format: format ?? base.format };
  const merged = mergePreviews(base.previews, previews);
  if (merged) result.previews = merged;
  return result;
}

/** Normalize merged options into a state: done once per `defaults()` call. */
function toState(merged: Record<string, unknown>): State {
  const { method = "GET", baseUrl, url, headers, mediaType, request } = merged;
  if (baseUrl !== undefined && typeof baseUrl !== "string") fail("option `baseUrl` must be a string");
  if (url !== undefined && typeof url !== "string") fail(`option \`url\` must be a string, not ${describe(url)}`);
  checkRequest(request);
  const normalizedHeaders = normalizeHeaders(headers, {});
  const media: MediaType = { format: "", ...normalizeMediaType(mediaType) };
  let params: Record<string, unknown> | null = null;
  for (const key of Object.keys(merged)) {
    if (!NAMED_OPTIONS.has(key) && merged[key] !== undefined) setOwn((params ??= {}), key, merged[key]);
  }
  const accept = normalizedHeaders.accept;
  if (url !== undefined) urlTemplate(url); // a bad template in defaults fails now, not on first use
  return {
    method: checkMethod(method),
    baseUrl,
    url,
    headers: normalizedHeaders,
    mediaType: media,
    accept: typeof accept === "string" ? applyMediaType(accept, media.format, media.previews) : accept,
    request,
    params,
    merged,
  };
}

function checkRequest(request: unknown): void {
  if (request !== undefined && request !== null && typeof request !== "object") fail("option `request` must be an object");
}

/**
 * Build request options from the state (defaults) and one call's options: the single code path
 * behind `endpoint()` and `parse()`, so `endpoint(x)` always equals `parse(merge(x))`.
 */
function build(state: State, routeMethod: string | undefined, routeUrl: string | undefined, options: Record<string, unknown>): RequestOptions {
  let method = routeMethod ?? state.method;
  let url = routeUrl ?? state.url;
  let baseUrl = state.baseUrl;
  let headers: Record<string, unknown> | undefined;
  let mediaType: unknown;
  let request = state.request;
  let requestFromCall = false;
  let hasParams = false;
  for (const key of Object.keys(options)) {
    const value = options[key];
    if (value === undefined) continue;
    switch (key) {
      case "method":
        method = checkMethod(value);
        break;
      case "url":
        if (typeof value !== "string") fail(`option \`url\` must be a string, not ${describe(value)}`);
        url = value;
        break;
      case "baseUrl":
        if (typeof value !== "string") fail("option `baseUrl` must be a string");
        baseUrl = value;
        break;
      case "headers":
        headers = normalizeHeaders(value, { ...state.headers });
        break;
      case "mediaType":
        mediaType = value;
        break;
      case "request":
        checkRequest(value);
        request = isPlainObject(value) && isPlainObject(state.request) ? mergeDeep(state.request, value, "request") : value;
        requestFromCall = true;
        break;
      default:
        hasParams = true;
    }
  }
  if (!url) fail('option `url` is required (a path like "/user" or a full URL)');
  if (request && !requestFromCall) request = copy(request, "request");

  // Headers: the defaults' (already checked) with the call's on top; accept reflects the media type.
  headers ??= { ...state.headers };
  if (mediaType !== undefined || headers.accept !== state.headers.accept) {
    const media = mergeMediaType(state.mediaType, mediaType);
    if (typeof headers.accept === "string") headers.accept = applyMediaType(headers.accept, media.format, media.previews);
  } else if (state.accept !== undefined) {
    headers.accept = state.accept;
  }

  // Parameters: the call's, over the defaults' only when the defaults have any.
  let params = options;
  if (state.params) {
    params = copy(state.params, "defaults") as Record<string, unknown>;
    if (hasParams) {
      for (const key of Object.keys(options)) if (!NAMED_OPTIONS.has(key) && options[key] !== undefined) mergeKey(params, key, options[key]);
    }
    hasParams = true;
  }

  // URL: expand the template, drop a trailing slash, resolve against the base URL.
  const template = urlTemplate(url);
  let target = expand(template, params);
  if (target.length > 1 && target.endsWith("/")) target = target.slice(0, -1);
  if (!isAbsolute(target)) {
    if (typeof baseUrl !== "string") fail(`option \`baseUrl\` is required to resolve ${show(target)}`);
    target = joinUrl(baseUrl, target);
  }

  // Parameters the template did not use: the query for GET and HEAD, else the body.
  const upper = method.toUpperCase();
  let body: unknown;
  if (hasParams) {
    const remaining = remainingParameters(template, params);
    if (upper === "GET" || upper === "HEAD") {
      if (remaining) target = addQuery(target, remaining);
    } else if (remaining) {
      body = hasOwn.call(remaining, "data") ? remaining.data : remaining;
    }
  }
  if (body !== undefined && headers["content-type"] === undefined) headers["content-type"] = "application/json; charset=utf-8";
  if (body === undefined && (upper === "PUT" || upper === "PATCH")) body = "";

  const result: RequestOptions = { method: method.toLowerCase(), url: target, headers: headers as RequestHeaders };
  if (body !== undefined) result.body = body;
  if (request) result.request = request as RequestMeta;
  return result;
}

/** Parameters that are neither named options nor template variables; `null` when none. */
function remainingParameters(template: Template, params: Record<string, unknown>): Record<string, unknown> | null {
  let remaining: Record<string, unknown> | null = null;
  for (const key of Object.keys(params)) {
    const value = params[key];
    if (value === undefined || NAMED_OPTIONS.has(key) || template.names.has(key)) continue;
    setOwn((remaining ??= {}), key, value);
  }
  return remaining;
}

function isAbsolute(url: string): boolean {
  const head = url.slice(0, 8).toLowerCase();
  return head.startsWith("http://") || head.startsWith("https://");
}

/** Base URL and path with exactly one `/` between them. */
function joinUrl(baseUrl: string, path: string): string {
  const base = baseUrl.endsWith("/") ? baseUrl.slice(0, -1) : baseUrl;
  return base + (path.startsWith("/") ? path : "/" + path);
}

/** Append `name=value` pairs. `q` keeps literal `+` between its encoded parts (GitHub's search syntax). */
function addQuery(url: string, parameters: Record<string, unknown>): string {
  let query = "";
  for (const name of Object.keys(parameters)) {
    const value = parameters[name];
    if (value === null) continue;
    if (isPlainObject(value)) {
      fail(`query parameter ${show(name)} is an object, which a query string cannot carry (expand it in the URL template instead: {?${name}*})`);
    }
    const text = scalar(value, name);
    const encoded = name === "q" ? text.split("+").map((part) => encodeComponent(part, name)).join("+") : encodeComponent(text, name);
    query += (query ? "&" : "") + encodeComponent(name, name) + "=" + encoded;
  }
  if (!query) return url;
  return url + (url.includes("?") ? "&" : "?") + query;
}

/** `encodeURIComponent`, with a TypeError naming the parameter for a lone surrogate. */
function encodeComponent(text: string, name: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return fail(`parameter ${show(name)} contains a lone surrogate`);
  }
}

// ---------------------------------------------------------------------------
// 4. Exported surface
// ---------------------------------------------------------------------------

/** Header values: strings or numbers. Names are case-insensitive and come out lowercased. */
export type RequestHeaders = Record<string, string | number>;

/** Custom meta information, passed through to the result untouched (e.g. an agent, a signal). */
export type RequestMeta = Record<string, unknown>;

/** Options for `endpoint()`, `merge()` and `defaults()`. Any other key is a request parameter. */
export interface EndpointOptions {
  /** An HTTP method, e.g. `"GET"` or `"POST"`. Default `"GET"`. */
  method?: string;
  /** A path (resolved against `baseUrl`) or a full URL; an RFC 6570 template, `:name` reads as `{name}`. */
  url?: string;
  /** The address a path-only `url` is resolved against. Default `"https://api.github.com"`. */
  baseUrl?: string;
  /** Custom headers, merged over the defaults; names are case-insensitive. */
  headers?: Record<string, string | number | undefined>;
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
  /** Any other key is a parameter: it fills a URL placeholder, else goes to the query (GET, HEAD) or JSON body. */
  [parameter: string]: unknown;
}

/** Defaulted options before parsing: what `merge()` returns and `DEFAULTS` holds. */
export interface MergedOptions extends EndpointOptions {
  method: string;
  baseUrl: string;
  headers: RequestHeaders;
  mediaType: { format: string; previews?: string[] };
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

/** `endpoint()` and the functions that hang on it. */
export interface Endpoint {
  /**
   * Build request options from a route such as `"GET /repos/{owner}/{repo}"` and its parameters.
   * @throws {TypeError} naming the option, header, parameter or template position at fault.
   */
  (route: string, options?: EndpointOptions): RequestOptions;
  /** Build request options from options alone; `url` is required, `method` defaults to GET. */
  (options: EndpointOptions): RequestOptions;
  /** A new endpoint function with these options as defaults, layered over the current ones. */
  defaults(options: EndpointOptions): Endpoint;
  /** The current default options (a fresh copy on every read: changing it changes nothing). */
  readonly DEFAULTS: MergedOptions;
  /** The defaults with the given route and options applied, not yet parsed into request options. */
  merge(route: string, options?: EndpointOptions): MergedOptions;
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
 * Compile an RFC 6570 (level 4) URI template.
 * @throws {TypeError} for a malformed template, naming the template and the character position.
 * @example parseTemplate("/search{?q,page}").expand({ q: "cat", page: 2 }) // "/search?q=cat&page=2"
 */
export function parseTemplate(template: string): UriTemplate {
  if (typeof template !== "string") fail(`template must be a string, not ${describe(template)}`);
  const compiled = strictTemplate(template);
  return {
    expand(variables) {
      if (variables === null || typeof variables !== "object") fail("variables must be an object");
      return expand(compiled, variables as Record<string, unknown>);
    },
  };
}

const EMPTY_STATE = toState({ method: "GET" });

function withDefaults(state: State): Endpoint {
  const endpoint = ((route: unknown, options?: unknown) => {
    if (typeof route === "string") {
      const [method, url] = parseRoute(route);
      return build(state, method, url, checkOptions(options));
    }
    return build(state, undefined, undefined, route === undefined ? {} : (checkRoute(route), route as Record<string, unknown>));
  }) as Endpoint;
  return Object.defineProperties(endpoint, {
    DEFAULTS: { get: () => copy(state.merged, "defaults"), enumerable: true },
    defaults: {
      value: (options: EndpointOptions) => withDefaults(toState(copy(mergeOptions(state, callOptions(options, undefined)), "defaults") as Record<string, unknown>)),
    },
    merge: { value: (route: unknown, options?: unknown) => mergeOptions(state, callOptions(route, options)) },
    parse: { value: parse },
  });
}

/**
 * Turn merged options into request options. Stateless: nothing of any defaults applies.
 * @throws {TypeError} when `url` is missing or anything in the options is malformed.
 */
function parse(options: MergedOptions): RequestOptions {
  if (!isPlainObject(options)) fail("parse() takes the options object that merge() returns");
  return build(EMPTY_STATE, undefined, undefined, options);
}

/**
 * Build request options for GitHub's REST API (or any other, with `baseUrl`).
 * @example
 * endpoint("GET /repos/{owner}/{repo}/issues", { owner: "octocat", repo: "hello-world", state: "open" })
 * // { method: "get", url: "https://api.github.com/repos/octocat/hello-world/issues?state=open", headers: {...} }
 */
export const endpoint: Endpoint = withDefaults(
  toState(
    mergeOptions(EMPTY_STATE, {
      method: "GET",
      baseUrl: "https://api.github.com",
      headers: { accept: "application/vnd.github.v3+json", "user-agent": `endpoint-options/${VERSION}` },
      mediaType: { format: "" },
    }),
  ),
);
