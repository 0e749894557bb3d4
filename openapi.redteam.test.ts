// The red-team suite of withOpenAPI() and reduceOpenAPI(): one test per promise of the hardening against hostile
// descriptions and values, each with its variants (per call, the general way, through `endpoint.defaults()` and
// `api.defaults()`, in each location, and on reduceOpenAPI()'s description). A user's error is a TypeError whose
// message starts with `endpoint-options: ` and quotes what is at fault; other wording is not pinned. After every
// variant Object.prototype (and Object, and the functions on Object.prototype) must be as they were: a variant that
// pollutes them fails, and they are restored so that the next variant starts clean.
//
// The tests that time a small hostile description, and the fuzz over the public API directory, run in worker
// threads started when this file loads (all at once, so a stall costs its limit once, not once per test): a worker
// that does not finish a step in time is ended.
//
//   node --import tsx openapi.redteam.test.ts
import { statSync } from "node:fs";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { endpoint, reduceOpenAPI, withOpenAPI } from "./endpoint.ts";
import { BIG_APIS, descriptionName, directoryFiles, readDescription } from "./fixtures/directory.mjs";
import { threadMs } from "./fixtures/hostile.mjs";
import { swaggerDescriptions } from "./fixtures/swagger.mjs";
import { credentialsFor, published, RFC3986_URI } from "./fixtures/testkit.mjs";

// --- Object.prototype, before anything runs --------------------------------------------------------------------------

// Object's own functions, kept: a variant may replace them (a parameter `keys` in `constructor` would).
const { defineProperty, getOwnPropertyDescriptor, getOwnPropertyNames, keys: ownNames } = Object;
const PROTO_NAMES = getOwnPropertyNames(Object.prototype);
const proto = Object.prototype as Record<string, unknown>;
/** What a hostile `in` or name could write to: the prototypes, Object itself, and Object.prototype's methods. */
const GUARDED: [string, object][] = [
  ["Object.prototype", Object.prototype],
  ["Object", Object],
  ["Function.prototype", Function.prototype],
  ["Array.prototype", Array.prototype],
  ["String.prototype", String.prototype],
  ...PROTO_NAMES.filter((name) => name !== "__proto__" && typeof proto[name] === "function").map(
    (name) => [`Object.prototype.${name}`, proto[name] as object] as [string, object],
  ),
];
const SNAPSHOT = GUARDED.map(([name, target]) => {
  const keys = Reflect.ownKeys(target).map((key) => [key, getOwnPropertyDescriptor(target, key)!] as const);
  return { name, target, keys: new Map(keys) };
});

/** Whether a descriptor was changed: another value, getter or setter. */
const changed = (before: PropertyDescriptor, now: PropertyDescriptor | undefined) =>
  !now || now.value !== before.value || now.get !== before.get || now.set !== before.set;

/** What a variant changed on the guarded objects, each put back as it was; `[]` when untouched. */
function pollution(): string[] {
  const found: string[] = [];
  if (JSON.stringify(getOwnPropertyNames(Object.prototype)) !== JSON.stringify(PROTO_NAMES)) {
    found.push("Object.getOwnPropertyNames(Object.prototype) changed");
  }
  if (({} as Record<string, unknown>).isAdmin !== undefined) found.push("({}).isAdmin is defined");
  if (typeof Object.keys !== "function") found.push("Object.keys is not a function");
  for (const { name, target, keys } of SNAPSHOT) {
    for (const key of Reflect.ownKeys(target)) {
      if (keys.has(key)) continue;
      found.push(`${name} gained ${String(key)}`);
      Reflect.deleteProperty(target, key);
    }
    for (const [key, descriptor] of keys) {
      if (!changed(descriptor, getOwnPropertyDescriptor(target, key))) continue;
      found.push(`${name}.${String(key)} was replaced`);
      defineProperty(target, key, descriptor);
    }
  }
  return found;
}

// --- Checking outcomes -------------------------------------------------------------------------------------------

const PREFIX = "endpoint-options: ";
/** A name quoted as a message quotes it. */
const q = (name: string) => JSON.stringify(name);
/** What a message must contain: a text, a pattern, or any one of a list of them. */
type Name = string | RegExp | (string | RegExp)[];
/** A server variable as a message names it: `"region"` or `"server:region"`. */
const serverName = (name: string) => [q(name), q(`server:${name}`)];

/** A value for a message: JSON-like, Maps, Blobs, symbols, functions, bigints and cycles shown, at most 100 characters. */
function shown(value: unknown): string {
  const seen = new WeakSet<object>();
  let text: string;
  try {
    text =
      JSON.stringify(value, (_, item) => {
        if (typeof item === "bigint") return `${item}n`;
        if (typeof item === "symbol" || typeof item === "function") return String(item);
        if (item instanceof Map || item instanceof Blob || item instanceof FormData) return item.constructor.name;
        if (item instanceof URLSearchParams) return `URLSearchParams ${item}`;
        if (typeof item === "object" && item !== null) {
          if (seen.has(item)) return "[seen]";
          seen.add(item);
        }
        return item;
      }) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 100 ? text.slice(0, 100) + "…" : text;
}

/** Request options for a message: method, URL, the headers beside the two every result has, and the body. */
function summary(result: any): string {
  if (typeof result !== "object" || result === null || typeof result.url !== "string") return shown(result);
  const { accept, "user-agent": _agent, ...headers } = result.headers ?? {};
  const parts = [`${result.method} ${result.url}`, `accept ${q(String(accept))}`];
  if (ownNames(headers).length) parts.push(`headers ${shown(headers)}`);
  if (result.body !== undefined) parts.push(`body ${shown(result.body)}`);
  return parts.join(", ");
}

/** A thrown value checked: our TypeError, naming each of `names`. */
function ours(error: unknown, ...names: Name[]): void {
  if (!(error instanceof TypeError)) assert.unreachable(`not a TypeError: ${String(error)}`);
  const { message } = error as TypeError;
  assert.ok(message.startsWith(PREFIX), `a TypeError, but not ours: ${q(message)}`);
  for (const name of names) {
    const options = [name].flat();
    const found = options.some((option) =>
      typeof option === "string" ? message.includes(option) : option.test(message),
    );
    assert.ok(found, `${q(message)} does not name ${options.map(String).join(" or ")}`);
  }
}

/** `run` must throw our TypeError naming each of `names`. */
function refused(run: () => unknown, ...names: Name[]): void {
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    ours(error, ...names);
    return;
  }
  assert.unreachable(`built instead of refused: ${summary(result)}`);
}

/** `run` must build, with the URL `url`; returns the result. */
function builds(run: () => unknown, url: string): any {
  const result = run() as any;
  assert.ok(result?.url === url, `built ${summary(result)}, not ${url}`);
  return result;
}

/** `actual` must deep-equal `expected`; the message shows both. */
function same(actual: unknown, expected: unknown, what: string): void {
  assert.equal(actual, expected, `${what} is ${shown(actual)}, not ${shown(expected)}`);
}

/** A variant: its label and what it checks. */
type Case = [label: string, check: () => unknown];

/**
 * Every variant run and checked, Object.prototype checked (and restored) after each; the test fails listing every
 * variant that failed, not only the first.
 */
async function each(cases: Case[]): Promise<void> {
  const failed: string[] = [];
  let failing = 0;
  for (const [label, check] of cases) {
    const found: string[] = [];
    try {
      await check();
    } catch (error) {
      found.push(error instanceof Error ? error.message : String(error));
    }
    found.push(...pollution());
    if (found.length) failing++;
    for (const text of found) failed.push(`${label}: ${text}`);
  }
  assert.ok(!failing, `${failing} of ${cases.length} variants failed:\n      ${failed.join("\n      ")}`);
}

/**
 * One call five ways: per call; per call with `mediaType: {}` beside it (which changes nothing, but kept a call off
 * the library's fast way when it had one); with the options from `endpoint.defaults()`; from `api.defaults()`; on
 * reduceOpenAPI()'s description.
 */
function ways(description: any, route: string, options: Record<string, unknown>, base: any = endpoint): Case[] {
  const label = `${route} ${shown(options)}`;
  const api = () => withOpenAPI(base, description) as any;
  return [
    [`${label}, per call`, () => api()(route, options)],
    [`${label}, the general way`, () => api()(route, { ...options, mediaType: {} })],
    [`${label}, from endpoint.defaults()`, () => (withOpenAPI(base.defaults(options), description) as any)(route)],
    [`${label}, from api.defaults()`, () => api().defaults(options)(route)],
    [
      `${label}, on reduceOpenAPI()'s description`,
      () => (withOpenAPI(base, reduceOpenAPI(description)) as any)(route, options),
    ],
  ];
}

/** The five ways, each refused naming `names`. */
const refusedWays = (description: any, route: string, options: Record<string, unknown>, ...names: Name[]): Case[] =>
  ways(description, route, options).map(([label, run]) => [label, () => refused(run, ...names)]);

/** The five ways, each built with the URL `url` (on `base`, the library's default endpoint unless given). */
const builtWays = (
  description: any,
  route: string,
  options: Record<string, unknown>,
  url: string,
  base?: any,
): Case[] => ways(description, route, options, base).map(([label, run]) => [label, () => builds(run, url)]);

/**
 * A hostile description through reduceOpenAPI(): it may refuse the whole description, naming one of its faults
 * (`names`, each a list of the faults it may name), or reduce it, and then `check` the call on what it made (the
 * fault must survive the reduction).
 */
function onReduced(label: string, description: any, names: Name[], check: (api: any) => unknown): Case {
  return [
    `${label}, on reduceOpenAPI()'s description`,
    () => {
      let reduced: unknown;
      try {
        reduced = reduceOpenAPI(description);
      } catch (error) {
        ours(error, ...names);
        return;
      }
      return check(withOpenAPI(endpoint, reduced as any));
    },
  ];
}

// --- Descriptions ------------------------------------------------------------------------------------------------

const API = "https://api.example.com/v1";
const OK = { 200: { description: "OK", content: { "application/json": { schema: {} } } } };
/** An operation answering JSON, with `parts` (parameters, a request body, servers). */
const op = (parts: Record<string, unknown> = {}) => ({ responses: OK, ...parts });
/** A valid OpenAPI 3.0 description of `paths` on API's server; `extra` replaces or adds top-level fields. */
const doc = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}): any => ({
  openapi: "3.0.3",
  info: { title: "Red team", version: "1.0.0" },
  servers: [{ url: API }],
  paths,
  ...extra,
});
/** A parameter; a path one is required. */
const param = (name: string, where: string, schema: object = { type: "string" }, more: object = {}) => ({
  name,
  in: where,
  ...(where === "path" && { required: true }),
  schema,
  ...more,
});
/** An operation with nothing wrong in it, beside a broken one: it must keep working. */
const FINE = { "/fine": { get: op() } };
const fine = (api: any) => builds(() => api("GET /fine"), `${API}/fine`);
/** A JSON request body of `schema`. */
const jsonBody = (schema: object) => ({ content: { "application/json": { schema } } });
/** A form request body (`type`) of `properties`, with an Encoding Object if given. */
const formBody = (type: string, properties: object, encoding?: object) => ({
  content: { [type]: { schema: { type: "object", properties }, ...(encoding && { encoding }) } },
});

const PET = { "/pets/{id}": { get: op({ parameters: [param("id", "path", { type: "integer" })] }) } };
/** PET on one server of `url`, with `variables`. */
const onServer = (url: string, variables?: object) => doc(PET, { servers: [{ url, ...(variables && { variables }) }] });

// --- 1. Servers a value cannot move ---------------------------------------------------------------------------------

const BASE_PATH = onServer("https://api.example.com{basePath}", { basePath: { default: "/v1" } });

test("servers: a variable's part is where it stands in the URL template, not what its default makes it", () =>
  each([
    ...[".evil.example", "@evil.example", ":8443", "evil.example", "/../admin"].flatMap((value) =>
      refusedWays(BASE_PATH, "GET /pets/{id}", { id: 1, "server:basePath": value }, serverName("basePath")),
    ),
    ...builtWays(BASE_PATH, "GET /pets/{id}", { id: 1, "server:basePath": "/v2" }, "https://api.example.com/v2/pets/1"),
    ...builtWays(BASE_PATH, "GET /pets/{id}", { id: 1 }, "https://api.example.com/v1/pets/1"),
  ]));

// OpenAPI 3 requires a default for each server variable; these have none on purpose (the caller must give one).
const NO_DEFAULT = { description: "No default: the caller gives it" };
const HOST = onServer("https://{host}/v1", { host: NO_DEFAULT });
const RELATIVE_SCHEME = onServer("//{host}/v1", { host: NO_DEFAULT });
const TWO_LABELS = onServer("https://{a}.{b}/v1", { a: NO_DEFAULT, b: NO_DEFAULT });
const WRITTEN_IP = onServer("https://10.0.0.1:{port}/v1", { port: { default: "8080" } });
const NOT_ONE_LABEL = ["169.254.169.254", "evil.example", "2130706433", "0x7f000001", "[::1]"];

test("servers: a host value is one DNS label, and makes no IP address the template does not write", () =>
  each([
    ...[HOST, RELATIVE_SCHEME].flatMap((description) =>
      NOT_ONE_LABEL.flatMap((host) =>
        refusedWays(description, "GET /pets/{id}", { id: 1, "server:host": host }, serverName("host")),
      ),
    ),
    ...builtWays(HOST, "GET /pets/{id}", { id: 1, "server:host": "eu" }, "https://eu/v1/pets/1"),
    ...builtWays(RELATIVE_SCHEME, "GET /pets/{id}", { id: 1, "server:host": "eu" }, "https://eu/v1/pets/1"),
    // Two labels each a number: "127.1" is 127.0.0.1 to a URL parser.
    ...refusedWays(TWO_LABELS, "GET /pets/{id}", { id: 1, "server:a": "127", "server:b": "1" }, [
      ...serverName("a"),
      ...serverName("b"),
    ]),
    ...builtWays(
      TWO_LABELS,
      "GET /pets/{id}",
      { id: 1, "server:a": "eu", "server:b": "example" },
      "https://eu.example/v1/pets/1",
    ),
    ...builtWays(WRITTEN_IP, "GET /pets/{id}", { id: 1, "server:port": "8443" }, "https://10.0.0.1:8443/v1/pets/1"),
  ]));

const ENUMS = onServer("{scheme}://{region}.api.example.com/{version}", {
  scheme: { default: "https", enum: ["https"] },
  region: { default: "eu", enum: ["eu", "us"] },
  version: { default: "v1", enum: ["v1", "v2"] },
});

test("servers: a variable's enum is enforced, on reduceOpenAPI()'s description too", () =>
  each([
    ...refusedWays(ENUMS, "GET /pets/{id}", { id: 1, "server:scheme": "http" }, serverName("scheme")),
    ...refusedWays(ENUMS, "GET /pets/{id}", { id: 1, "server:region": "attacker" }, serverName("region")),
    ...refusedWays(ENUMS, "GET /pets/{id}", { id: 1, "server:version": "v3" }, serverName("version")),
    ...builtWays(ENUMS, "GET /pets/{id}", { id: 1, "server:region": "us" }, "https://us.api.example.com/v1/pets/1"),
    ...builtWays(ENUMS, "GET /pets/{id}", { id: 1, "server:version": "v2" }, "https://eu.api.example.com/v2/pets/1"),
    ...builtWays(ENUMS, "GET /pets/{id}", { id: 1 }, "https://eu.api.example.com/v1/pets/1"),
  ]));

const SPELLING = doc(
  {
    ...PET,
    "/files": {
      get: op({ servers: [{ url: "https://{tenant}.files.example.com", variables: { tenant: { default: "acme" } } }] }),
    },
  },
  {
    servers: [
      { url: "https://{region}.api.example.com/v1", variables: { region: { default: "eu", enum: ["eu", "us"] } } },
    ],
  },
);

test("servers: a server variable no server of the description has is refused, with the nearest name", () =>
  each([
    ...refusedWays(
      SPELLING,
      "GET /pets/{id}",
      { id: 1, "server:regoin": "us" },
      serverName("regoin"),
      serverName("region"),
    ),
    ...refusedWays(SPELLING, "GET /files", { "server:regoin": "us" }, serverName("regoin"), serverName("region")),
    ...refusedWays(SPELLING, "GET /files", { "server:tennant": "beta" }, serverName("tennant"), serverName("tenant")),
    // A variable of another operation's server is no misspelling: defaults() give one for every operation.
    ...builtWays(
      SPELLING,
      "GET /pets/{id}",
      { id: 1, "server:tenant": "beta" },
      "https://eu.api.example.com/v1/pets/1",
    ),
    ...builtWays(
      SPELLING,
      "GET /files",
      { "server:region": "us", "server:tenant": "beta" },
      "https://beta.files.example.com/files",
    ),
  ]));

const PORT = onServer("https://api.example.com:{port}/v1", { port: { default: "443" } });

test("servers: a port variable takes only a port number", () =>
  each([
    ...["80@evil.example", "443/evil", "evil.example", "", "-1", "443 ", "8443#x"].flatMap((port) =>
      refusedWays(PORT, "GET /pets/{id}", { id: 1, "server:port": port }, serverName("port")),
    ),
    ...builtWays(PORT, "GET /pets/{id}", { id: 1, "server:port": "8443" }, "https://api.example.com:8443/v1/pets/1"),
    ...builtWays(PORT, "GET /pets/{id}", { id: 1, "server:port": 8443 }, "https://api.example.com:8443/v1/pets/1"),
  ]));

// --- 2. No base, no call ---------------------------------------------------------------------------------------------

const NO_SERVERS = doc(PET);
delete NO_SERVERS.servers;
/** Descriptions without a server of their own, and what a refusal names: `baseUrl` (or, for a malformed list, `servers`). */
const BASELESS: [string, any, Name][] = [
  ["no servers", NO_SERVERS, "baseUrl"],
  ["servers: []", doc(PET, { servers: [] }), "baseUrl"],
  ["a relative server", doc(PET, { servers: [{ url: "/api/v3" }] }), "baseUrl"],
  // Not a list, as the specification requires: deliberately malformed.
  ["servers as an object", doc(PET, { servers: { url: "https://api.example.com/v1" } }), ["baseUrl", /\bservers\b/]],
  [
    "an operation's relative server",
    { ...NO_SERVERS, paths: { "/pets/{id}": { get: { ...PET["/pets/{id}"].get, servers: [{ url: "/api/v3" }] } } } },
    "baseUrl",
  ],
  ["a Swagger 2.0 file without `host`", { swagger: "2.0", basePath: "/api/v3", paths: PET }, "baseUrl"],
];

test("no base: a description without a server of its own is refused on the library's default base, naming baseUrl", () =>
  each(
    BASELESS.flatMap(([label, description, name]): Case[] => {
      const token = endpoint.defaults({ headers: { authorization: "token t0k3n" } });
      const call = (api: any) => api("GET /pets/{id}", { id: 1 });
      return [
        [`${label}, per call`, () => refused(() => call(withOpenAPI(endpoint, description)), name)],
        [
          `${label}, with a token in endpoint.defaults()`,
          () => refused(() => call(withOpenAPI(token, description)), name),
        ],
        [
          `${label}, from api.defaults()`,
          () => refused(() => (withOpenAPI(endpoint, description) as any).defaults({ id: 1 })("GET /pets/{id}"), name),
        ],
        [
          `${label}, on reduceOpenAPI()'s description`,
          () => refused(() => call(withOpenAPI(endpoint, reduceOpenAPI(description))), name),
        ],
      ];
    }),
  ));

const X_BASE = endpoint.defaults({ baseUrl: "https://x.example" });

test("no base: a baseUrl you set hosts a relative server, or a description with none", () =>
  each([
    ...builtWays(BASELESS[2]![1], "GET /pets/{id}", { id: 1 }, "https://x.example/api/v3/pets/1", X_BASE),
    ...builtWays(BASELESS[4]![1], "GET /pets/{id}", { id: 1 }, "https://x.example/api/v3/pets/1", X_BASE),
    ...builtWays(NO_SERVERS, "GET /pets/{id}", { id: 1 }, "https://x.example/pets/1", X_BASE),
    ...builtWays(BASELESS[1]![1], "GET /pets/{id}", { id: 1 }, "https://x.example/pets/1", X_BASE),
    ...builtWays(
      BASELESS[2]![1],
      "GET /pets/{id}",
      { id: 1, baseUrl: "https://x.example" },
      "https://x.example/api/v3/pets/1",
    ),
  ]));

const SWAGGER = {
  swagger: "2.0",
  info: { title: "Red team", version: "1.0.0" },
  host: "api.example.com",
  basePath: "/v1",
  schemes: ["https"],
  paths: {
    "/pets/{id}": {
      get: {
        parameters: [{ name: "id", in: "path", required: true, type: "integer" }],
        responses: { 200: { description: "OK" } },
      },
    },
  },
} as any;
const SWAGGER_2 = /swagger\W{0,3}2\.0/i;

const { swagger: _version, ...UNSAID } = SWAGGER;

test("no base: a Swagger 2.0 file goes to its own host, and one that does not say its version is refused, naming it", () =>
  each([
    ...builtWays(SWAGGER, "GET /pets/{id}", { id: 1 }, "https://api.example.com/v1/pets/1"),
    ...builtWays(SWAGGER, "GET /pets/{id}", { id: 1 }, "https://x.example/pets/1", X_BASE),
    ["2.0 fields, no version", () => refused(() => withOpenAPI(endpoint, UNSAID), SWAGGER_2, "`host`")],
    ["no version, through reduceOpenAPI()", () => refused(() => reduceOpenAPI(UNSAID), SWAGGER_2)],
    ["Swagger 1.2", () => refused(() => withOpenAPI(endpoint, { swaggerVersion: "1.2", apis: [] } as any), '"1.2"')],
    ["swagger: 3.0", () => refused(() => withOpenAPI(endpoint, { ...SWAGGER, swagger: "3.0" }), '"3.0"')],
    ["swagger and openapi", () => refused(() => withOpenAPI(endpoint, { ...SWAGGER, openapi: "3.0.3" }), '"2.0"')],
  ]));

// --- 3. Values the description rules out -----------------------------------------------------------------------------

const ARRAY = { type: "array", items: { type: "string" } };
/** An operation of form query parameters only (what a fast way takes), one of every kind, and path parameters. */
const VALUES = doc({
  "/find": {
    get: op({
      parameters: [param("q", "query"), param("limit", "query", { type: "integer" }), param("tags", "query", ARRAY)],
    }),
  },
  "/search": {
    get: op({
      parameters: [
        param("csv", "query", ARRAY, { explode: false }),
        param("pipes", "query", ARRAY, { style: "pipeDelimited", explode: false }),
        param("spaces", "query", ARRAY, { style: "spaceDelimited", explode: false }),
        param(
          "filter",
          "query",
          { type: "object", additionalProperties: { type: "string" } },
          { style: "deepObject", explode: true },
        ),
        param("fields", "query", { type: "object" }),
        param("any", "query", {}),
        param("either", "query", { oneOf: [{ type: "string" }, ARRAY] }),
        param("x-trace", "header"),
        param("x-limit", "header", { type: "integer" }),
        param("x-tags", "header", ARRAY),
        param("x-meta", "header", { type: "object" }),
        param("session", "cookie"),
      ],
    }),
  },
  "/pets/{id}": {
    parameters: [param("id", "path", { type: "integer" })],
    get: op(),
    delete: op(),
  },
  "/things/{name}": { get: op({ parameters: [param("name", "path")] }) },
});
const INJECTION = { admin: "true", limit: "1000" };

/** The URL `run` builds, if it builds: it must not hold `text`. */
function never(run: () => unknown, text: string): void {
  let url: unknown;
  try {
    url = (run() as any)?.url;
  } catch {
    return;
  }
  assert.ok(!String(url).includes(text), `the URL holds ${text}: ${url}`);
}

test("values: an object for a type: string parameter is refused, and never becomes query pairs", () =>
  each([
    ...ways(VALUES, "GET /find", { q: INJECTION }).map(
      ([label, run]): Case => [
        label,
        () => {
          never(run, "admin=");
          refused(run, q("q"));
        },
      ],
    ),
    ...refusedWays(VALUES, "GET /search", { "x-trace": INJECTION }, q("x-trace")),
    ...refusedWays(VALUES, "GET /search", { session: INJECTION }, q("session")),
    ...refusedWays(VALUES, "GET /things/{name}", { name: { a: "b" } }, q("name")),
  ]));

test("values: a list for a type: integer parameter is refused", () =>
  each([
    ...refusedWays(VALUES, "GET /pets/{id}", { id: [1, 2] }, q("id")),
    ...refusedWays(VALUES, "DELETE /pets/{id}", { id: [1, 2] }, q("id")),
    ...refusedWays(VALUES, "GET /find", { limit: [1, 2] }, q("limit")),
    ...refusedWays(VALUES, "GET /search", { "x-limit": [1, 2] }, q("x-limit")),
  ]));

test("values: a primitive for a type: object parameter is refused", () =>
  each([
    ...refusedWays(VALUES, "GET /search", { filter: "x" }, q("filter")),
    ...refusedWays(VALUES, "GET /search", { fields: 1 }, q("fields")),
    ...refusedWays(VALUES, "GET /search", { "x-meta": "x" }, q("x-meta")),
  ]));

test("values: a primitive for a type: array parameter is a list of one", () =>
  each([
    ...builtWays(VALUES, "GET /find", { tags: "a" }, `${API}/find?tags=a`),
    ...builtWays(VALUES, "GET /find", { tags: 7 }, `${API}/find?tags=7`),
    ...builtWays(VALUES, "GET /search", { csv: "a" }, `${API}/search?csv=a`),
    ...builtWays(VALUES, "GET /search", { pipes: "a" }, `${API}/search?pipes=a`),
    ...builtWays(VALUES, "GET /search", { spaces: "a" }, `${API}/search?spaces=a`),
    ...ways(VALUES, "GET /search", { "x-tags": "a" }).map(
      ([label, run]): Case => [label, () => same((run() as any).headers["x-tags"], "a", "x-tags")],
    ),
  ]));

test("values: a schema without a type takes any shape", () =>
  each([
    ...builtWays(VALUES, "GET /search", { any: { a: "1", b: "2" } }, `${API}/search?a=1&b=2`),
    ...builtWays(VALUES, "GET /search", { any: ["1", "2"] }, `${API}/search?any=1&any=2`),
    ...builtWays(VALUES, "GET /search", { any: "x" }, `${API}/search?any=x`),
    ...builtWays(VALUES, "GET /search", { either: ["a", "b"] }, `${API}/search?either=a&either=b`),
    ...builtWays(VALUES, "GET /search", { either: "a" }, `${API}/search?either=a`),
  ]));

const REQUIRED = doc({
  "/things/{id}": {
    get: op({
      parameters: [
        param("id", "path", {}),
        param("tags", "query", ARRAY, { required: true }),
        param("filter", "query", { type: "object" }, { required: true, style: "deepObject", explode: true }),
        param("x-tenant", "header", {}, { required: true }),
      ],
    }),
  },
});
const GIVEN = { id: 1, tags: ["a"], filter: { a: "1" }, "x-tenant": "t" };
const ROUTE = "GET /things/{id}";

test("values: a required parameter given [], {} or [null] is refused as a missing one is", () =>
  each([
    ["all given", () => (withOpenAPI(endpoint, REQUIRED) as any)(ROUTE, GIVEN)],
    ...[[], {}, [null]].flatMap((empty) => refusedWays(REQUIRED, ROUTE, { ...GIVEN, id: empty }, q("id"), q(ROUTE))),
    ...[[], [null]].flatMap((empty) => refusedWays(REQUIRED, ROUTE, { ...GIVEN, tags: empty }, q("tags"), q(ROUTE))),
    ...refusedWays(REQUIRED, ROUTE, { ...GIVEN, filter: {} }, q("filter"), q(ROUTE)),
    ...[[], {}, [null]].flatMap((empty) =>
      refusedWays(REQUIRED, ROUTE, { ...GIVEN, "x-tenant": empty }, q("x-tenant"), q(ROUTE)),
    ),
  ]));

const FILES = doc({
  "/files/{name}": {
    parameters: [param("name", "path")],
    get: op(),
    delete: op(),
    post: op(),
    put: op(),
    patch: op(),
  },
});

test("values: an empty whole-segment path parameter is refused for DELETE, POST, PUT and PATCH, not for GET", () =>
  each([
    ...["DELETE", "POST", "PUT", "PATCH"].flatMap((method) =>
      refusedWays(FILES, `${method} /files/{name}`, { name: "" }, q("name")),
    ),
    ...builtWays(FILES, "GET /files/{name}", { name: "" }, `${API}/files/`),
  ]));

const DATES = doc({
  "/events/{at}": {
    get: op({
      parameters: [
        param("at", "path", { type: "string", format: "date-time" }),
        param("since", "query", { type: "string", format: "date-time" }),
        param("day", "query", { type: "string", format: "date" }),
        param("any", "query", {}),
        param("x-since", "header", { type: "string", format: "date-time" }),
      ],
    }),
  },
  "/days/{day}": { get: op({ parameters: [param("day", "path", { type: "string", format: "date" })] }) },
  "/forms": {
    post: op({
      requestBody: formBody("application/x-www-form-urlencoded", { since: { type: "string", format: "date-time" } }),
    }),
  },
  "/parts": {
    post: op({ requestBody: formBody("multipart/form-data", { since: { type: "string", format: "date-time" } }) }),
  },
});
const DATE = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
const ISO = "2024-01-02T03:04:05.000Z";
const ISO_IN_URL = "2024-01-02T03%3A04%3A05.000Z";

test("values: a Date is ISO 8601, or its date where the parameter's schema has format: date", () =>
  each([
    ...ways(DATES, "GET /events/{at}", { at: DATE, since: DATE, day: DATE, any: DATE, "x-since": DATE }).map(
      ([label, run]): Case => [
        label,
        () => {
          const { headers } = builds(
            run,
            `${API}/events/${ISO_IN_URL}?since=${ISO_IN_URL}&day=2024-01-02&any=${ISO_IN_URL}`,
          );
          same(headers["x-since"], ISO, "x-since");
        },
      ],
    ),
    ...builtWays(DATES, "GET /days/{day}", { day: DATE }, `${API}/days/2024-01-02`),
    ...["POST /forms", "POST /parts"].flatMap((route) =>
      ways(DATES, route, { since: DATE }).map(
        ([label, run]): Case => [label, () => same((run() as any).body.get("since"), ISO, "the field since")],
      ),
    ),
  ]));

const JSON_LIKE = doc({
  "/search": {
    get: op({
      parameters: [{ name: "filter", in: "query", content: { "application/json": { schema: { type: "object" } } } }],
    }),
  },
  // Fields of any shape: only what they hold is at fault.
  "/forms": { post: op({ requestBody: formBody("application/x-www-form-urlencoded", { meta: {} }) }) },
  "/parts": {
    post: op({
      requestBody: formBody("multipart/form-data", { meta: {}, doc: {} }, { doc: { contentType: "application/json" } }),
    }),
  },
});
/** Values JSON has no text for, or whose text would silently lose them; each made fresh. */
const NO_JSON: [string, () => unknown][] = [
  ["a Map", () => new Map([["a", 1]])],
  ["a symbol", () => Symbol("s")],
  ["a function", () => () => 1],
  [
    "a cycle",
    () => {
      const cycle: Record<string, unknown> = { a: 1 };
      cycle.self = cycle;
      return cycle;
    },
  ],
  ["a BigInt", () => 10n],
];
/** A name as a form field's message may give it: `"meta"`, or a bracket form of it, `"meta[x]"`. */
const field = (name: string) => [q(name), new RegExp(`"${name}\\[`)];

/** Where a value JSON has no text for is put: the place, the route, the options holding it, what must be named. */
const NO_JSON_PLACES: [string, string, (value: unknown) => Record<string, unknown>, Name][] = [
  ["in a JSON query parameter", "GET /search", (value) => ({ filter: { x: value } }), q("filter")],
  ["as a JSON query parameter", "GET /search", (value) => ({ filter: value }), q("filter")],
  ["in a URL-encoded form's field", "POST /forms", (value) => ({ meta: { x: value } }), field("meta")],
  ["in a URL-encoded form's field, in a list", "POST /forms", (value) => ({ meta: [{ x: value }] }), field("meta")],
  ["in a multipart form's field", "POST /parts", (value) => ({ meta: { x: value } }), field("meta")],
  ["in a multipart form's JSON part", "POST /parts", (value) => ({ doc: { x: value } }), field("doc")],
];

test("values: a Map, symbol, function, cycle or BigInt in a JSON parameter or a form field is our TypeError naming it", () =>
  each(
    NO_JSON.flatMap(([kind, make]) =>
      NO_JSON_PLACES.flatMap(([place, route, options, name]) =>
        refusedWays(JSON_LIKE, route, options(make()), name)
          // defaults() may refuse a cycle itself, as nested too deeply: only calls are held to naming the field.
          .filter(([label]) => kind !== "a cycle" || !label.includes("defaults()"))
          .map(([label, run]): Case => [`${kind} ${place}: ${label}`, run]),
      ),
    ),
  ));

const FORMS = doc({
  "/forms": {
    post: op({
      requestBody: formBody(
        "application/x-www-form-urlencoded",
        // `meta` of any shape: only the Blob in it is at fault.
        { meta: {}, styled: { type: "object" }, name: { type: "string" } },
        { styled: { style: "deepObject", explode: true } },
      ),
    }),
  },
});
const blob = () => new Blob(["hello"]);

test("values: a Blob nested in a URL-encoded form's field is refused", () =>
  each([
    ...refusedWays(FORMS, "POST /forms", { name: "a", meta: { file: blob() } }, field("meta")),
    ...refusedWays(FORMS, "POST /forms", { name: "a", meta: [{ file: blob() }] }, field("meta")),
    ...refusedWays(FORMS, "POST /forms", { name: "a", meta: [blob()] }, field("meta")),
    ...refusedWays(FORMS, "POST /forms", { name: "a", styled: { file: blob() } }, field("styled")),
  ]));

const BINARY = { type: "string", format: "binary" };
const UPLOAD = {
  type: "object",
  properties: { name: { type: "string" }, file: BINARY, files: { type: "array", items: BINARY } },
};
const UPLOADS = doc({
  "/uploads": {
    post: op({
      requestBody: { content: { "application/json": { schema: UPLOAD }, "multipart/form-data": { schema: UPLOAD } } },
    }),
  },
  "/uploads/multipart-first": {
    post: op({
      requestBody: { content: { "multipart/form-data": { schema: UPLOAD }, "application/json": { schema: UPLOAD } } },
    }),
  },
});

/** A multipart body: a FormData holding `name` and the blobs (`count` under `key`), fetch's own content-type (none set). */
async function multipart(result: any, key = "file", count = 1): Promise<void> {
  assert.ok(result.body instanceof FormData, `not a FormData: ${shown(result.body)}`);
  same(result.headers["content-type"], undefined, "content-type");
  same(result.body.get("name"), "a", "the field name");
  const parts = result.body.getAll(key);
  same(parts.length, count, `the count of ${key} parts`);
  for (const part of parts) same(await (part as Blob).text(), "hello", "a file part's text");
}

test("values: a Blob field where JSON and multipart are both listed makes a multipart body", () =>
  each([
    ...["POST /uploads", "POST /uploads/multipart-first"].flatMap((route) => [
      ...ways(UPLOADS, route, { name: "a", file: blob() }).map(([label, run]): Case => [label, () => multipart(run())]),
      ...ways(UPLOADS, route, { name: "a", files: [blob(), blob()] }).map(
        ([label, run]): Case => [label, () => multipart(run(), "files", 2)],
      ),
    ]),
    [
      "api.defaults() with the name, the call with the file",
      () =>
        multipart((withOpenAPI(endpoint, UPLOADS) as any).defaults({ name: "a" })("POST /uploads", { file: blob() })),
    ],
    ...ways(UPLOADS, "POST /uploads", { name: "a" }).map(
      ([label, run]): Case => [
        `${label}: without a Blob, JSON`,
        () => {
          const { body, headers } = run() as any;
          same(body, { name: "a" }, "the body");
          same(headers["content-type"], "application/json; charset=utf-8", "content-type");
        },
      ],
    ),
  ]));

// --- 4. Text where it does not belong --------------------------------------------------------------------------------

const CRLF_TYPE = "application/json\r\nx-injected: 1";
const INJECTED = doc({
  "/answers": { get: { responses: { 200: { description: "OK", content: { [CRLF_TYPE]: { schema: {} } } } } } },
  "/answers/lf": {
    get: {
      responses: { 200: { description: "OK", content: { "application/json": {}, "text/plain\nx-injected: 1": {} } } },
    },
  },
  "/questions": { post: op({ requestBody: { content: { [CRLF_TYPE]: { schema: { type: "object" } } } } }) },
  ...FINE,
});

/** The operations of INJECTED whose media types hold CR or LF: reduceOpenAPI() may refuse naming any of them. */
const CRLF_ROUTES = ["GET /answers", "GET /answers/lf", "POST /questions"].map(q);

test("description text: a media type holding CR or LF never reaches accept or content-type", () => {
  const api = withOpenAPI(endpoint, INJECTED) as any;
  return each([
    ["GET /answers", () => refused(() => api("GET /answers"), q("GET /answers"))],
    ["GET /answers/lf", () => refused(() => api("GET /answers/lf"), q("GET /answers/lf"))],
    ["GET /answers, from api.defaults()", () => refused(() => api.defaults({})("GET /answers"), q("GET /answers"))],
    ["POST /questions", () => refused(() => api("POST /questions", { a: 1 }), q("POST /questions"))],
    [
      "POST /questions with data",
      () => refused(() => api("POST /questions", { data: { a: 1 } }), q("POST /questions")),
    ],
    ["GET /fine", () => fine(api)],
    onReduced("GET /answers", INJECTED, [CRLF_ROUTES], (reduced) =>
      refused(() => reduced("GET /answers"), q("GET /answers")),
    ),
    onReduced("POST /questions", INJECTED, [CRLF_ROUTES], (reduced) =>
      refused(() => reduced("POST /questions", { a: 1 }), q("POST /questions")),
    ),
  ]);
});

const SCRIPTS = doc({
  "/scripts": {
    post: op({
      requestBody: formBody(
        "multipart/form-data",
        { script: { type: "string" }, note: { type: "string" } },
        {
          script: { contentType: "application/javascript+module, text/javascript+module" },
          note: { contentType: "text/plain\r\nx-injected: 1" },
        },
      ),
    }),
  },
});

/** A part labelled `expected`, or our TypeError: never the Encoding Object's text as it stands. */
function labelled(run: () => any, name: string, expected: (type: string) => boolean): void {
  let result: any;
  try {
    result = run();
  } catch (error) {
    ours(error);
    return;
  }
  const type = (result.body.get(name) as Blob).type;
  assert.ok(expected(type), `the part ${q(name)} is labelled ${q(type)}`);
}

test("description text: an Encoding Object's contentType listing several types labels a part with the first, or is refused", () => {
  const first = (type: string) => type === "application/javascript+module";
  const clean = (type: string) => !/[\r\n,]/.test(type);
  return each([
    ...ways(SCRIPTS, "POST /scripts", { script: "export {}" }).map(
      ([label, run]): Case => [label, () => labelled(run, "script", first)],
    ),
    ...ways(SCRIPTS, "POST /scripts", { note: "hi" }).map(
      ([label, run]): Case => [label, () => labelled(run, "note", clean)],
    ),
  ]);
});

const HEADERS = doc({
  "/h": {
    get: op({
      parameters: [
        param("x-meta", "header", { type: "object" }, { explode: true }),
        param("x-flat", "header", { type: "object" }),
      ],
    }),
  },
});

test("description text: a header parameter's object holding a Map, a function or a symbol is refused", () =>
  each([
    ...refusedWays(HEADERS, "GET /h", { "x-meta": { a: new Map([["b", 1]]) } }, q("x-meta")),
    ...refusedWays(HEADERS, "GET /h", { "x-meta": { a: () => 1 } }, q("x-meta")),
    ...refusedWays(HEADERS, "GET /h", { "x-meta": { a: Symbol("s") } }, q("x-meta")),
    ...refusedWays(HEADERS, "GET /h", { "x-flat": { a: new Map([["b", 1]]) } }, q("x-flat")),
    ...ways(HEADERS, "GET /h", { "x-meta": { a: "1", b: 2 }, "x-flat": { a: "1" } }).map(
      ([label, run]): Case => [
        label,
        () => {
          const { headers } = run() as any;
          same([headers["x-meta"], headers["x-flat"]], ["a=1,b=2", "a,1"], "[x-meta, x-flat]");
        },
      ],
    ),
  ]));

const BAD_NAMES = ["x bad", "x\r\ny", "x(y)"];
const HEADER_NAMES = doc({
  ...Object.fromEntries(
    BAD_NAMES.map((name, i) => [`/bad/${i}`, { get: op({ parameters: [param(name, "header")] }) }]),
  ),
  ...FINE,
});

test("description text: a header parameter whose name is not an RFC 9110 token is refused", () => {
  const api = withOpenAPI(endpoint, HEADER_NAMES) as any;
  return each([
    ...BAD_NAMES.flatMap((name, i): Case[] => [
      [`${q(name)}, per call`, () => refused(() => api(`GET /bad/${i}`, { [name]: "1" }), q(name))],
      [`${q(name)}, from api.defaults()`, () => refused(() => api.defaults({ [name]: "1" })(`GET /bad/${i}`), q(name))],
      onReduced(q(name), HEADER_NAMES, [BAD_NAMES.map(q)], (reduced) =>
        refused(() => reduced(`GET /bad/${i}`, { [name]: "1" }), q(name)),
      ),
    ]),
    ["GET /fine", () => fine(api)],
  ]);
});

// --- 5. A description that pollutes or crashes ----------------------------------------------------------------------

const PROTO_IN = doc({
  "/a": { get: op({ parameters: [{ name: "isAdmin", in: "__proto__", schema: { type: "boolean" } }] }) },
  "/b": { get: op({ parameters: [{ name: "toString", in: "__proto__", schema: { type: "string" } }] }) },
  ...FINE,
});

test("pollution: a parameter in __proto__ writes nothing to Object.prototype, and is refused when called", () => {
  const api = withOpenAPI(endpoint, PROTO_IN) as any;
  return each([
    ["GET /a", () => refused(() => api("GET /a", { isAdmin: true }), q("__proto__"))],
    ["GET /a, the general way", () => refused(() => api("GET /a", { isAdmin: true, mediaType: {} }), q("__proto__"))],
    ["GET /a, from api.defaults()", () => refused(() => api.defaults({ isAdmin: true })("GET /a"), q("__proto__"))],
    [
      "GET /a, from endpoint.defaults()",
      () =>
        refused(
          () => (withOpenAPI(endpoint.defaults({ isAdmin: true } as any), PROTO_IN) as any)("GET /a"),
          q("__proto__"),
        ),
    ],
    ["GET /b", () => refused(() => api("GET /b", { toString: "x" }), q("__proto__"))],
    ["GET /fine", () => fine(api)],
    onReduced("GET /a", PROTO_IN, [q("__proto__")], (reduced) =>
      refused(() => reduced("GET /a", { isAdmin: true }), q("__proto__")),
    ),
  ]);
});

const INHERITED_IN: [where: string, name: string][] = [
  ["constructor", "isAdmin"],
  ["constructor", "keys"],
  ["toString", "isAdmin"],
  ["hasOwnProperty", "isAdmin"],
  ["prototype", "isAdmin"],
];
const OTHER_IN = doc({
  ...Object.fromEntries(
    INHERITED_IN.map(([where, name], i) => [
      `/in/${i}`,
      { get: op({ parameters: [{ name, in: where, schema: { type: "string" } }] }) },
    ]),
  ),
  ...FINE,
});

test("pollution: a parameter in constructor (or another inherited name) writes to no object, and is refused when called", () => {
  const api = withOpenAPI(endpoint, OTHER_IN) as any;
  return each([
    ...INHERITED_IN.flatMap(([where, name], i): Case[] => [
      [`${name} in ${where}`, () => refused(() => api(`GET /in/${i}`, { [name]: "x" }), q(where))],
      [
        `${name} in ${where}, from api.defaults()`,
        () => refused(() => api.defaults({ [name]: "x" })(`GET /in/${i}`), q(where)),
      ],
      onReduced(`${name} in ${where}`, OTHER_IN, [INHERITED_IN.map(([location]) => q(location))], (reduced) =>
        refused(() => reduced(`GET /in/${i}`, { [name]: "x" }), q(where)),
      ),
    ]),
    ["GET /fine", () => fine(api)],
  ]);
});

const ORDINARY = doc({
  "/things/{constructor}": {
    get: op({
      parameters: [
        param("constructor", "path"),
        param("toString", "query"),
        param("__proto__", "query"),
        param("hasOwnProperty", "header"),
        param("valueOf", "cookie"),
      ],
    }),
  },
  "/proto/{__proto__}": { get: op({ parameters: [param("__proto__", "path")] }) },
});
const ORDINARY_SERVER = onServer("https://{constructor}.example.com/{toString}", {
  constructor: { default: "api" },
  toString: { default: "v1" },
});
/** An own `__proto__` key, as JSON.parse makes it. */
const protoKey = (value: unknown, key = "__proto__") => JSON.parse(`{${q(key)}: ${JSON.stringify(value)}}`);
const PROTO_SERVER = onServer("https://{__proto__}.example.com/v1", protoKey({ default: "api" }));
const THINGS = "GET /things/{constructor}";

test("ordinary names: parameters and server variables named constructor, __proto__, toString, hasOwnProperty", () =>
  each([
    ...refusedWays(ORDINARY, THINGS, {}, q("constructor")),
    ...refusedWays(ORDINARY, "GET /proto/{__proto__}", {}, q("__proto__")),
    ...ways(ORDINARY, THINGS, { constructor: "abc" }).map(
      ([label, run]): Case => [
        label,
        () => {
          const { headers } = builds(run, "https://api.example.com/v1/things/abc");
          same(
            [Object.hasOwn(headers, "hasownproperty"), headers.cookie],
            [false, undefined],
            "[a hasownproperty header, cookie]",
          );
        },
      ],
    ),
    ...ways(ORDINARY, THINGS, {
      constructor: "abc",
      toString: "ts",
      hasOwnProperty: "h",
      valueOf: "c",
      ...protoKey("p"),
    }).map(
      ([label, run]): Case => [
        label,
        () => {
          const { headers } = builds(run, "https://api.example.com/v1/things/abc?toString=ts&__proto__=p");
          same([headers.hasownproperty, headers.cookie], ["h", "valueOf=c"], "[hasownproperty, cookie]");
        },
      ],
    ),
    ...builtWays(ORDINARY, "GET /proto/{__proto__}", protoKey("x"), "https://api.example.com/v1/proto/x"),
    ...builtWays(ORDINARY_SERVER, "GET /pets/{id}", { id: 1 }, "https://api.example.com/v1/pets/1"),
    ...builtWays(
      ORDINARY_SERVER,
      "GET /pets/{id}",
      { id: 1, "server:constructor": "eu", "server:toString": "v2" },
      "https://eu.example.com/v2/pets/1",
    ),
    ...builtWays(PROTO_SERVER, "GET /pets/{id}", { id: 1 }, "https://api.example.com/v1/pets/1"),
    ...builtWays(
      PROTO_SERVER,
      "GET /pets/{id}",
      { id: 1, ...protoKey("eu", "server:__proto__") },
      "https://eu.example.com/v1/pets/1",
    ),
  ]));

const SWAGGER_IN = doc({
  "/body": { post: op({ parameters: [{ name: "pet", in: "body", schema: { type: "object" } }] }) },
  "/form": { post: op({ parameters: [{ name: "name", in: "formData", schema: { type: "string" } }] }) },
  ...FINE,
});

test("Swagger 2.0 locations: a parameter in body or formData is refused when its operation is called", () => {
  const api = withOpenAPI(endpoint, SWAGGER_IN) as any;
  return each([
    ["POST /body", () => refused(() => api("POST /body", { pet: { a: 1 } }), SWAGGER_2, /\bbody\b/)],
    ["POST /body with no value", () => refused(() => api("POST /body"), SWAGGER_2, /\bbody\b/)],
    ["POST /form", () => refused(() => api("POST /form", { name: "x" }), SWAGGER_2, /\bformData\b/)],
    [
      "POST /form, from api.defaults()",
      () => refused(() => api.defaults({ name: "x" })("POST /form"), SWAGGER_2, /\bformData\b/),
    ],
    ["GET /fine", () => fine(api)],
    onReduced("POST /body", SWAGGER_IN, [SWAGGER_2, [/\bbody\b/, /\bformData\b/]], (reduced) =>
      refused(() => reduced("POST /body", { pet: { a: 1 } }), SWAGGER_2, /\bbody\b/),
    ),
  ]);
});

const RESERVED = doc({
  "/reserved": { get: op({ parameters: [param("x-path", "header", { type: "string" }, { allowReserved: true })] }) },
  "/plain": { get: op({ parameters: [param("x-path", "header", { type: "string" })] }) },
});

test("allowReserved on a header parameter is ignored", () =>
  each(
    ["GET /reserved", "GET /plain"].flatMap((route) =>
      ways(RESERVED, route, { "x-path": "a/b?c=d&e#f g" }).map(
        ([label, run]): Case => [label, () => same((run() as any).headers["x-path"], "a/b?c=d&e#f g", "x-path")],
      ),
    ),
  ));

const NOTHING = {
  path: "#/components/parameters/nope",
  query: "#/components/parameters/nada",
  body: "#/components/requestBodies/none",
};
const BROKEN_REFS = doc(
  {
    "/pets/{id}": { get: op({ parameters: [{ $ref: NOTHING.path }] }) },
    "/search": { get: op({ parameters: [param("q", "query"), { $ref: NOTHING.query }] }) },
    "/uploads": { post: op({ requestBody: { $ref: NOTHING.body } }) },
    ...FINE,
  },
  { components: { parameters: { limit: param("limit", "query", { type: "integer" }) }, requestBodies: {} } },
);

test("$refs: one the call needs that names nothing is refused naming it, when that operation is called", () => {
  const api = withOpenAPI(endpoint, BROKEN_REFS) as any;
  const calls: [string, Record<string, unknown>, string][] = [
    ["GET /pets/{id}", { id: 1 }, NOTHING.path],
    ["GET /search", { q: "x" }, NOTHING.query],
    ["GET /search", {}, NOTHING.query],
    ["POST /uploads", { name: "a" }, NOTHING.body],
    ["POST /uploads", {}, NOTHING.body],
  ];
  return each([
    ...calls.flatMap(([route, options, ref]): Case[] => [
      [`${route} ${shown(options)}`, () => refused(() => api(route, options), q(ref))],
      [`${route} ${shown(options)}, from api.defaults()`, () => refused(() => api.defaults(options)(route), q(ref))],
      onReduced(`${route} ${shown(options)}`, BROKEN_REFS, [Object.values(NOTHING).map(q)], (reduced) =>
        refused(() => reduced(route, options), q(ref)),
      ),
    ]),
    ["GET /fine", () => fine(api)],
  ]);
});

// --- 5b. Credentials a description or a value cannot misplace ---------------------------------------------------------

/** A description whose one operation needs scheme `s` (as `scheme` says), beside a public one. */
const secured = (scheme: object) =>
  doc(
    { "/pets/{id}": { get: op({ parameters: [param("id", "path")], security: [{ s: [] }] }) }, "/open": { get: op() } },
    { components: { securitySchemes: { s: scheme } } },
  );

test("credentials: a scheme whose `in` or `name` would put a credential out of place is refused, naming it", () =>
  each(
    [
      [{ type: "apiKey", in: "path", name: "id" }, '`in` must be "header", "query" or "cookie", not "path"'],
      [{ type: "apiKey", in: "__proto__", name: "k" }, 'not "__proto__"'],
      [{ type: "apiKey", in: "header", name: "Host" }, '"Host" is no header name for a credential'],
      [{ type: "apiKey", in: "header", name: "Content-Length" }, '"Content-Length" is no header name'],
      [{ type: "apiKey", in: "header", name: "Expect" }, '"Expect" is no header name'],
      [{ type: "apiKey", in: "header", name: "upgrade" }, '"upgrade" is no header name'],
      [{ type: "apiKey", in: "header", name: "User-Agent" }, '"User-Agent" is no header name'],
      [{ type: "apiKey", in: "header", name: "x-key\r\nhost: evil.example" }, "is no header name for a credential"],
      [{ type: "apiKey", in: "cookie", name: "a; admin=1" }, "is no cookie name for a credential"],
      [{ type: "apiKey", in: "header", name: 7 }, '"7" is no header name'],
      [{ type: "http", scheme: "Bearer\r\nx-injected: 1" }, "`scheme` is not an auth-scheme"],
      [{ type: "http" }, "`scheme` is not an auth-scheme"],
    ].flatMap(([scheme, message]) =>
      refusedWays(secured(scheme as object), "GET /pets/{id}", { id: "1", "auth:s": "k3y" }, [
        message as string,
      ]).concat([[`${q(JSON.stringify(scheme))}: the public operation`, () => fine(withOpenAPI(endpoint, doc(FINE)))]]),
    ),
  ));

test("credentials: a query API key's name and value are percent-encoded, never query syntax", () =>
  each([
    ...builtWays(
      secured({ type: "apiKey", in: "query", name: "key&admin=1#x" }),
      "GET /pets/{id}",
      { id: "1", "auth:s": "v&admin=1?#/" },
      `${API}/pets/1?key%26admin%3D1%23x=v%26admin%3D1%3F%23%2F`,
    ),
    ...builtWays(
      secured({ type: "apiKey", in: "query", name: "__proto__" }),
      "GET /pets/{id}",
      { id: "1", "auth:s": "k" },
      `${API}/pets/1?__proto__=k`,
    ),
  ]));

/** A credential refused with our TypeError, `message` in it, and the secret (`t0ken`) never echoed. */
function refusedUnechoed(run: () => unknown, message: string): void {
  try {
    run();
  } catch (error) {
    ours(error, message);
    assert.ok(!(error as Error).message.includes("t0ken"), "the secret is in the message");
    return;
  }
  assert.unreachable("built");
}

test("credentials: a credential holding CR, LF or NUL, or no text, is refused, in every way, and never echoed", () =>
  each(
    ["t0ken\r\nx-injected: 1", "t0ken\n", "t0ken\0", 7, { toString: () => "t0ken" }, ["t0ken"]].flatMap((secret) =>
      [
        { type: "http", scheme: "bearer" },
        { type: "apiKey", in: "header", name: "X-Key" },
        { type: "apiKey", in: "query", name: "key" },
        { type: "apiKey", in: "cookie", name: "key" },
      ].flatMap((scheme) =>
        ways(secured(scheme), "GET /pets/{id}", { id: "1", "auth:s": secret }).map(
          ([label, run]): Case => [
            label,
            () => refusedUnechoed(run, '"auth:s" must be a string without CR, LF or NUL'),
          ],
        ),
      ),
    ),
  ));

test("credentials: never sent to an operation that does not name their scheme, nor to another host", () =>
  each([
    ...builtWays(secured({ type: "http", scheme: "bearer" }), "GET /open", { "auth:s": "t0ken" }, `${API}/open`).map(
      ([label, run]): Case => [label, () => assert.is((run() as any)?.headers?.authorization, undefined)],
    ),
    // A server variable cannot take the credential elsewhere: the host is held to its place.
    ...refusedWays(
      doc(
        { "/a": { get: op({ security: [{ s: [] }] }) } },
        {
          servers: [{ url: "https://{tenant}.api.example.com", variables: { tenant: { default: "eu" } } }],
          components: { securitySchemes: { s: { type: "http", scheme: "bearer" } } },
        },
      ),
      "GET /a",
      { "auth:s": "t0ken", "server:tenant": "evil.example/" },
      'server variable "tenant" must be a DNS label',
    ),
  ]));

test("credentials: a token, a user or a password of the wrong shape is refused, in every way, and never echoed", () =>
  each(
    [
      [{ type: "http", scheme: "bearer" }, ["", " ", "t0ken x", "t0ken\tx", "t0ken=x", "t\ud800ken"], "bearer token"],
      [{ type: "oauth2", flows: {} }, ["", "t0ken x"], "bearer token"],
      [{ type: "apiKey", in: "header", name: "X-Key" }, ["t0ken\ud800"], "X-Key"],
      [
        { type: "http", scheme: "basic" },
        [
          { username: "t0ken\u0001", password: "p" },
          { username: "u", password: "t0ken\u001f" },
          { username: "t0:ken", password: "p" },
          { username: "u", password: "t0ken\udc00" },
        ],
        "basic",
      ],
    ].flatMap(([scheme, secrets]) =>
      (secrets as unknown[]).flatMap((secret) =>
        ways(secured(scheme as object), "GET /pets/{id}", { id: "1", "auth:s": secret }).map(
          ([label, run]): Case => [label, () => refusedUnechoed(run, '"auth:s"')],
        ),
      ),
    ),
  ));

test("credentials: no API key in a header that frames the request, goes to a proxy, or under an empty name", () =>
  each(
    [
      ...["Proxy-Authorization", "proxy-connection", "Connection", "TE", "Keep-Alive", "Trailer"].map((name) => ({
        type: "apiKey",
        in: "header",
        name,
      })),
      ...["header", "query", "cookie"].map((where) => ({ type: "apiKey", in: where, name: "" })),
    ].flatMap((scheme) =>
      refusedWays(secured(scheme), "GET /pets/{id}", { id: "1", "auth:s": "k3y" }, [
        `${q(scheme.name)} is no ${scheme.in} name for a credential`,
      ]),
    ),
  ));

/** A description whose operation has query parameters named like the named options, and a credential. */
const NAMED_PARAMETERS = doc(
  {
    "/search": {
      get: op({
        parameters: ["baseUrl", "headers", "mediaType", "request", "method", "data", "q"].map((name) =>
          param(name, "query"),
        ),
        security: [{ s: [] }],
      }),
      delete: op({ security: [{ s: [] }] }),
    },
  },
  { components: { securitySchemes: { s: { type: "http", scheme: "bearer" } } } },
);

test("a stranger's field named after the description's own parameter never moves the request, nor adds headers", () => {
  const api = () => (withOpenAPI(endpoint, NAMED_PARAMETERS) as any).defaults({ "auth:s": "t0ken" });
  const hostile: Record<string, unknown> = {
    baseUrl: "https://evil.example/collect",
    headers: { authorization: "Bearer stolen", "x-forwarded-host": "evil.example" },
    mediaType: { format: "raw" },
    request: { signal: "x" },
    method: "DELETE",
    data: "x",
  };
  return each([
    ...Object.entries(hostile).map(
      ([name, value]): Case => [
        `${name} given per call, as a form's field would be`,
        () => refused(() => api()("GET /search", { [name]: value, q: "cats" }), `"query:${name}"`),
      ],
    ),
    ...Object.keys(hostile).map(
      (name): Case => [
        `"query:${name}" given per call`,
        () => {
          const sent = builds(
            () => api()("GET /search", { [`query:${name}`]: "https://evil.example/", q: "cats" }),
            `${API}/search?${name}=https%3A%2F%2Fevil.example%2F&q=cats`,
          );
          same(sent.headers.authorization, "Bearer t0ken", "authorization");
          same(sent.method, "get", "the method");
        },
      ],
    ),
    // Options set by the caller in defaults() are the caller's own.
    [
      "baseUrl in api.defaults()",
      () =>
        builds(
          () => api().defaults({ baseUrl: "https://staging.example" })("GET /search"),
          "https://staging.example/search",
        ),
    ],
  ]);
});

test('an "auth:" key never leaves through a plain endpoint: not to the query, nor to a body', () => {
  const secret = { "auth:s": "t0ken" };
  const api = withOpenAPI(endpoint, NAMED_PARAMETERS) as any;
  const plain = endpoint.defaults({ baseUrl: API });
  const named = [q("auth:s"), /withOpenAPI/];
  return each([
    ["endpoint(), per call, GET", () => refused(() => plain("GET /search", secret), ...named)],
    ["endpoint(), per call, POST", () => refused(() => plain("POST /search", secret), ...named)],
    ["endpoint.defaults()", () => refused(() => plain.defaults(secret)("GET /search"), ...named)],
    ["endpoint.parse(endpoint.merge())", () => refused(() => plain.parse(plain.merge("PUT /x", secret)), ...named)],
    [
      "endpoint.parse(api.merge())",
      () => refused(() => endpoint.parse(api.defaults(secret).merge("GET /search", { q: "x" })), ...named),
    ],
    [
      "through withOpenAPI() it is a credential",
      () => same(api.defaults(secret)("GET /search").headers.authorization, "Bearer t0ken", "authorization"),
    ],
  ]);
});

test("credentials: a scheme named `__proto__` or `constructor` is an ordinary name", () =>
  each(
    ["__proto__", "constructor", "toString"].flatMap((name) => {
      const description = JSON.parse(
        JSON.stringify(doc({ "/a": { get: op({ security: [{ NAME: [] }] }) } })).replace(/NAME/g, name),
      );
      description.components = JSON.parse(
        `{"securitySchemes": {${JSON.stringify(name)}: {"type": "apiKey", "in": "header", "name": "x-key"}}}`,
      );
      const options = JSON.parse(`{${JSON.stringify(`auth:${name}`)}: "k"}`);
      return builtWays(description, "GET /a", options, `${API}/a`).map(
        ([label, run]): Case => [label, () => assert.is((run() as any).headers["x-key"], "k")],
      );
    }),
  ));

// --- 5d. The second cold attack: the rebuilt region, read by someone who had not seen it ------------------------------

const BEARER = { components: { securitySchemes: { k: { type: "http", scheme: "bearer" } } } };
/** PET on one server of `url` (with `variables`), behind a bearer token. */
const guarded = (url: string, variables: object) =>
  doc(
    { "/pets/{id}": { get: op({ parameters: [param("id", "path"), param("q", "query")], security: [{ k: [] }] }) } },
    {
      ...BEARER,
      servers: [{ url, variables }],
    },
  );

test("servers: a value standing after an origin variable, or where an empty one leaves `//`, never reaches the host", () => {
  const after = guarded("{origin}{basePath}", {
    origin: { default: "https://api.example.com" },
    basePath: { default: "/v1" },
  });
  const open = guarded("{o}//{h}/v1", { o: { default: "" }, h: { default: "api" } });
  const slash = guarded("{o}/{h}/v1", { o: { default: "/" }, h: { default: "api" } });
  const call = (more: object) => ({ id: "1", "auth:k": "t0ken", ...more });
  return each([
    ...[".evil.example", "@evil.example", ":8443"].flatMap((value) =>
      refusedWays(after, "GET /pets/{id}", call({ "server:basePath": value }), serverName("basePath")),
    ),
    ...builtWays(after, "GET /pets/{id}", call({ "server:basePath": "/v2" }), "https://api.example.com/v2/pets/1"),
    ...["127.0.0.1", "localhost", "evil.example"].flatMap((value) => [
      ...refusedWays(open, "GET /pets/{id}", call({ "server:h": value }), serverName("h")),
      ...refusedWays(slash, "GET /pets/{id}", call({ "server:h": value }), serverName("h")),
    ]),
  ]);
});

test("servers: a URL that names no host a request can go to is refused, naming it", () => {
  const bad = [
    "https://:443",
    "https://@",
    "https://a.example:99999",
    "https://a.example:abc",
    "https://[",
    "https://a.example]",
    "https://user:pw@api.example.com",
  ];
  return each([
    ...bad.flatMap((url) => refusedWays(onServer(url), "GET /pets/{id}", { id: 1 }, q(url), /host/)),
    // A default that makes one is refused as well.
    ...refusedWays(
      onServer("https://api.example.com:{port}", { port: { default: "99999" } }),
      "GET /pets/{id}",
      { id: 1 },
      /host/,
    ),
    ...builtWays(onServer("https://[::1]:8443/v1"), "GET /pets/{id}", { id: 1 }, "https://[::1]:8443/v1/pets/1"),
  ]);
});

test('parameters named "auth:<scheme>" or "server:<name>" never take a credential or a server value', () => {
  const description = doc(
    {
      "/a/{auth:k}": { get: op({ parameters: [param("auth:k", "path")], security: [{ k: [] }] }) },
      "/b": {
        get: op({ parameters: [param("auth:key", "query"), param("server:r", "query")], security: [{ key: [] }] }),
      },
    },
    {
      servers: [{ url: "https://{r}.api.example", variables: { r: { default: "eu" } } }],
      components: {
        securitySchemes: {
          k: { type: "http", scheme: "bearer" },
          key: { type: "apiKey", in: "header", name: "x-api-key" },
        },
      },
    },
  );
  const header = (name: string, value: string) => (result: any) => same(result.headers[name], value, name);
  const check = (route: string, options: object, url: string, then: (result: any) => void): Case[] =>
    ways(description, route, options as Record<string, unknown>).map(([label, run]) => [
      label,
      () => then(builds(run, url)),
    ]);
  return each([
    ...check(
      "GET /a/{auth:k}",
      { "auth:k": "SECRET", "path:auth:k": "1" },
      "https://eu.api.example/a/1",
      header("authorization", "Bearer SECRET"),
    ),
    ...refusedWays(description, "GET /a/{auth:k}", { "auth:k": "SECRET" }, q("path:auth:k")),
    ...check(
      "GET /b",
      { "auth:key": "SECRET", "server:r": "us" },
      "https://us.api.example/b",
      header("x-api-key", "SECRET"),
    ),
    ...check(
      "GET /b",
      { "query:auth:key": "a", "query:server:r": "b" },
      "https://eu.api.example/b?auth%3Akey=a&server%3Ar=b",
      () => {},
    ),
  ]);
});

test("a body property or form field named like a named option is refused per call, as a parameter of that name is", () => {
  const fields = { baseUrl: {}, headers: {}, method: {}, note: {} };
  const description = doc(
    {
      "/f": { post: op({ requestBody: formBody("application/x-www-form-urlencoded", fields), security: [{ k: [] }] }) },
      "/j": { put: op({ requestBody: jsonBody({ type: "object", properties: fields }), security: [{ k: [] }] }) },
    },
    BEARER,
  );
  const api = () => (withOpenAPI(endpoint, description) as any).defaults({ "auth:k": "t0ken" });
  const hostile: Record<string, unknown> = {
    baseUrl: "https://evil.example",
    headers: { cookie: "a=b" },
    method: "DELETE",
  };
  return each([
    ...Object.entries(hostile).flatMap(([name, value]): Case[] =>
      ["POST /f", "PUT /j"].flatMap((route): Case[] => [
        [
          `${route}: ${name} per call`,
          () => refused(() => api()(route, { note: "hi", [name]: value }), q(`body:${name}`)),
        ],
        [
          `${route}: ${name} through merge()`,
          () => refused(() => api().merge(route, { note: "hi", [name]: value }), q(`body:${name}`)),
        ],
        ...onReducedCall(description, route, { "auth:k": "t0ken", note: "hi", [name]: value }, q(`body:${name}`)),
      ]),
    ),
    [
      '"body:baseUrl" is the field',
      () =>
        same(
          String(builds(() => api()("POST /f", { "body:baseUrl": "x", note: "hi" }), `${API}/f`).body),
          "baseUrl=x&note=hi",
          "the body",
        ),
    ],
    [
      "baseUrl in defaults() is the option",
      () =>
        builds(
          () => api().defaults({ baseUrl: "https://staging.example" })("PUT /j", { note: "hi" }),
          "https://staging.example/j",
        ),
    ],
    [
      "parse(merge()) of a call builds it",
      () => same(api().parse(api().merge("PUT /j", { note: "hi" })), api()("PUT /j", { note: "hi" }), "parse(merge())"),
    ],
  ]);
});

/** A call on reduceOpenAPI()'s description, refused naming `names`. */
const onReducedCall = (description: any, route: string, options: object, ...names: Name[]): Case[] => [
  [
    `${route} ${shown(options)}, on reduceOpenAPI()'s description`,
    () => refused(() => (withOpenAPI(endpoint, reduceOpenAPI(description)) as any)(route, options), ...names),
  ],
];

test("text a header or a form cannot hold: a lone surrogate, a control character, a character beyond U+00FF", () => {
  const description = doc(
    {
      "/f": { post: op({ requestBody: formBody("application/x-www-form-urlencoded", { a: {} }) }) },
      "/m": { post: op({ requestBody: formBody("multipart/form-data", { a: {} }) }) },
      "/h": { get: op({ parameters: [param("x-h", "header")] }) },
      "/k": { get: op({ security: [{ key: [] }] }) },
      "/d": { get: op({ security: [{ digest: [] }] }) },
    },
    {
      components: {
        securitySchemes: {
          key: { type: "apiKey", in: "header", name: "x-key" },
          digest: { type: "http", scheme: "Digest" },
        },
      },
    },
  );
  return each([
    ...["x\udc00y", "x\ud800"].flatMap((text) => [
      ...refusedWays(description, "POST /f", { a: text }, /lone surrogate/),
      ...refusedWays(description, "POST /m", { a: text }, /lone surrogate/),
      ...refusedWays(description, "POST /f", { [`body:${text}`]: "v" }, /lone surrogate/),
    ]),
    ...["x\udc00y", "€", "a\u0001"].flatMap((text) => [
      ...refusedWays(description, "GET /h", { "x-h": text }, q("x-h")),
      ...refusedWays(description, "GET /k", { "auth:key": text }, q("auth:key")),
      ...refusedWays(description, "GET /d", { "auth:digest": text }, q("auth:digest")),
    ]),
    // Latin-1 is text a header holds.
    ...builtWays(description, "GET /h", { "x-h": "café" }, `${API}/h`),
  ]);
});

test("description text: a media type beyond ASCII is no media type: left out where others remain, else refused", () => {
  const description = doc({
    "/a": { get: { responses: { 200: { content: { "application/json; x=€": {}, "text/plain": {} } } } } },
    "/b": { post: op({ requestBody: { content: { "text/plain; charset=€": {} } } }) },
    "/c": {
      post: op({ requestBody: formBody("multipart/form-data", { a: {} }, { a: { contentType: "text/plain; x=€" } }) }),
    },
  });
  return each([
    [
      "the response's",
      () => same((withOpenAPI(endpoint, description) as any)("GET /a").headers.accept, "text/plain", "accept"),
    ],
    ...refusedWays(description, "POST /b", { data: "x" }, /is not a media type/),
    ...refusedWays(description, "POST /c", { a: "x" }, /is not a media type/),
  ]);
});

test("JSON-built descriptions and wrong endpoints: an `undefined` where an object belongs is our TypeError, naming it", () => {
  const three = doc({
    "/x": { get: op({ parameters: [undefined] }) },
    "/e": { post: op({ requestBody: formBody("multipart/form-data", { a: {} }, { a: undefined }) }) },
  });
  const two = {
    swagger: "2.0",
    host: "api.example.com",
    paths: { "/x": { get: { parameters: [undefined], responses: {} } } },
  };
  return each([
    ["withOpenAPI({}, description)", () => refused(() => withOpenAPI({} as any, three), /withOpenAPI's endpoint/)],
    [
      "3.x: parameters [undefined]",
      () => refused(() => (withOpenAPI(endpoint, three) as any)("GET /x"), /parameter 0/),
    ],
    [
      "3.x: encoding { a: undefined }",
      () => refused(() => (withOpenAPI(endpoint, three) as any)("POST /e", { a: "x" }), /encoding "a"/),
    ],
    ["2.0: parameters [undefined]", () => refused(() => (withOpenAPI(endpoint, two) as any)("GET /x"), /parameter 0/)],
    [
      "reduceOpenAPI: a path item undefined",
      () => refused(() => reduceOpenAPI({ openapi: "3.1.0", paths: { "/x": undefined } } as any), /path "\/x"/),
    ],
  ]);
});

test("reduceOpenAPI(): a server: key for a server no call goes to, and an unused broken root, as withOpenAPI() has them", () => {
  const second = doc(PET, {
    servers: [{ url: API }, { url: "https://{region}.example.com", variables: { region: { default: "eu" } } }],
  });
  const unusedRoot = doc(
    { "/pets/{id}": { get: op({ parameters: [param("id", "path")], servers: [{ url: API }], security: [] }) } },
    { servers: [{ url: "ws://bad.example" }], security: [{ nowhere: [] }] },
  );
  return each([
    ...refusedWays(second, "GET /pets/{id}", { id: 1, "server:region": "us" }, q("server:region")),
    ...builtWays(unusedRoot, "GET /pets/{id}", { id: 1 }, `${API}/pets/1`),
  ]);
});

test('a form\'s fields given whole in `data` beside "body:" keys are refused, as a whole body beside them is', () => {
  const description = doc({
    "/f": { post: op({ requestBody: formBody("application/x-www-form-urlencoded", { a: {} }) }) },
  });
  return each(
    refusedWays(description, "POST /f", { data: { a: "1" }, "body:a": "2" }, /option `data` is the whole body/),
  );
});

/**
 * How many reads `run` makes of `description` (property reads, own-property checks, key lists), each node seen
 * through a Proxy of its own; and the description's size, its nodes and their keys counted. A reader that reads each
 * node once makes a few reads per unit of size, however many operations share a node; one that reads a shared node
 * again for each operation makes as many more as it has sharers.
 */
function readsOf(description: object, run: (proxied: any) => unknown): { reads: number; size: number } {
  let reads = 0;
  const proxies = new WeakMap<object, object>();
  const wrap = (node: unknown): unknown => {
    if (typeof node !== "object" || node === null) return node;
    let proxy = proxies.get(node);
    if (!proxy) {
      proxy = new Proxy(node, {
        get: (target, key, receiver) => {
          reads++;
          return wrap(Reflect.get(target, key, receiver));
        },
        getOwnPropertyDescriptor: (target, key) => {
          reads++;
          return Reflect.getOwnPropertyDescriptor(target, key);
        },
        ownKeys: (target) => {
          reads++;
          return Reflect.ownKeys(target);
        },
      });
      proxies.set(node, proxy);
    }
    return proxy;
  };
  let size = 0;
  const pending: unknown[] = [description];
  while (pending.length) {
    const node = pending.pop();
    if (typeof node !== "object" || node === null) continue;
    const keys = Object.keys(node);
    size += 1 + keys.length;
    for (const key of keys) pending.push((node as Record<string, unknown>)[key]);
  }
  run(wrap(description));
  return { reads, size };
}

/** Every operation of a description called once, through its Proxy. */
const callEvery = (route: (i: number) => string, count: number) => (proxied: any) => {
  const api = withOpenAPI(endpoint, proxied) as any;
  for (let i = 0; i < count; i++) api(route(i));
};

/** 500 operations sharing a query parameter whose schema lists `""` last in a long `enum` (see `listsEmpty()`). */
function sharedEnumCase(n: number, paths: (item: () => object) => object): [string, object, (proxied: any) => unknown] {
  const schema = { anyOf: [{ type: "integer" }, { enum: [...Array(n).keys(), ""] }] };
  return [
    '500 operations sharing a query parameter whose `enum` of 500 values ends with "", each called',
    doc(
      paths(() => ({ get: { parameters: [{ $ref: "#/components/parameters/P" }] } })),
      { components: { parameters: { P: { name: "p", in: "query", schema } } } },
    ),
    callEvery((i) => `GET /p${i}`, n),
  ];
}

/** Descriptions whose operations share a node, each with how it is read: 500 operations, 50 parts shared. */
function sharedNodeCases(): [string, object, (proxied: any) => unknown][] {
  const n = 500;
  const paths = (item: () => object) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`/p${i}`, item()]));
  const query = Array.from({ length: n / 10 }, (_, i) => param(`q${i}`, "query"));
  const types = Object.fromEntries(Array.from({ length: n / 10 }, (_, i) => [`application/x${i}+json`, {}]));
  const two = (extra: object, item: () => object) => ({
    swagger: "2.0",
    host: "api.example.com",
    ...extra,
    paths: paths(item),
  });
  return [
    [
      "500 paths sharing one operation of 50 query parameters, each called",
      doc(
        paths(() => ({ get: { $ref: "#/components/x/op" } })),
        { components: { x: { op: op({ parameters: query }) } } },
      ),
      callEvery((i) => `GET /p${i}`, n),
    ],
    [
      "the same, reduceOpenAPI()",
      doc(
        paths(() => ({ get: { $ref: "#/components/x/op" } })),
        { components: { x: { op: op({ parameters: query }) } } },
      ),
      reduceOpenAPI,
    ],
    sharedEnumCase(n, paths),
    [
      "500 operations sharing a response of 50 media types, each called",
      doc(
        paths(() => ({ get: { responses: { 200: { $ref: "#/components/responses/R" } } } })),
        { components: { responses: { R: { description: "R", content: types } } } },
      ),
      callEvery((i) => `GET /p${i}`, n),
    ],
    [
      "2.0: 500 operations inheriting 50 `produces`, each called",
      two({ produces: Object.keys(types) }, () => ({ get: { responses: { 200: { description: "OK", schema: {} } } } })),
      callEvery((i) => `GET /p${i}`, n),
    ],
    [
      "2.0: 500 operations inheriting 50 `consumes`, each called",
      two({ consumes: Object.keys(types) }, () => ({
        post: { parameters: [{ name: "b", in: "body", schema: {} }], responses: {} },
      })),
      callEvery((i) => `POST /p${i}`, n),
    ],
  ];
}

test("linear reading: nodes many operations share (an operation, a response, 2.0's lists) are read once", () => {
  const cases = sharedNodeCases();
  return each(
    cases.map(
      ([label, description, run]): Case => [
        label,
        () => {
          const { reads, size } = readsOf(description, run);
          // A real description, every operation called, is read at most 1.5 times over (see below); a path that
          // only refers to a shared operation costs a few reads of its own. Read again for each sharer, 100s.
          assert.ok(reads < 8 * size, `${reads} reads of a description of size ${size}`);
        },
      ],
    ),
  );
});

test("linear reading: real descriptions, every operation called and reduced, within the bound above", () =>
  each(
    ["petstore", "parameters-style", "form-data", "security", "circular", "star-trek"].flatMap((name): Case[] => {
      const description = published(name);
      const routes = Object.entries(description.paths).flatMap(([path, item]: [string, any]) =>
        Object.keys(item)
          .filter((method) => /^(get|put|post|delete|patch)$/.test(method))
          .map((method) => `${method.toUpperCase()} ${path}`),
      );
      const every = (proxied: any) => {
        const api = (withOpenAPI(endpoint, proxied) as any).defaults({ baseUrl: "https://x.example" });
        for (const route of routes) {
          try {
            api(route);
          } catch {}
        }
      };
      return [every, reduceOpenAPI].map(
        (run): Case => [
          `${name}: ${run === every ? "each called" : "reduceOpenAPI()"}`,
          () => {
            const { reads, size } = readsOf(description, run);
            assert.ok(reads < 2 * size, `${reads} reads of a description of size ${size}`);
          },
        ],
      );
    }),
  ));

// --- 5e. The third cold attack: OpenAPI 3.2's methods, querystring, cookie style, operationIds and location ---------

const V32 = (paths: object, extra: object = {}): any => ({
  openapi: "3.2.0",
  info: { title: "Red team", version: "1.0.0" },
  servers: [{ url: API }],
  paths,
  ...extra,
});

test("3.2: a relative server that holds or fills into a scheme never leaves for it, with or without a location", () => {
  const on = (url: string, variables?: object) =>
    V32({ "/pets": { get: op({ security: [{ k: [] }] }) } }, { ...BEARER, servers: [{ url, variables }] });
  const located = (description: any) => () =>
    (withOpenAPI(endpoint, description, { url: "https://api.example.com/docs/openapi.json" }) as any)("GET /pets", {
      "auth:k": "SECRET",
    });
  const schemes = [
    "http:evil.example/api",
    "HTTPS:evil.example",
    "ws:evil.example",
    "file:/etc",
    "javascript:alert(1)//",
  ];
  return each([
    ...schemes.map((url): Case => [`${url}, located`, () => refused(located(on(url)), q(url))]),
    ...schemes.map(
      (url): Case => [
        `${url}, under a baseUrl`,
        () => refused(() => (withOpenAPI(X_BASE, on(url)) as any)("GET /pets"), q(url)),
      ],
    ),
    [
      "h{v}, its default ttp:evil.example",
      () => refused(located(on("h{v}", { v: { default: "ttp:evil.example" } })), "no HTTP URL"),
    ],
    [
      "../../../../up, located: never above the origin",
      () => builds(located(on("../../../../up")), "https://api.example.com/up/pets"),
    ],
  ]);
});

test("3.2: a `style: cookie` value never adds a cookie, to a strict parser or a lenient one", () => {
  const description = V32(
    { "/p": { get: op({ parameters: [{ name: "lang", in: "cookie", style: "cookie" }], security: [{ s: [] }] }) } },
    { components: { securitySchemes: { s: { type: "apiKey", in: "cookie", name: "session" } } } },
  );
  const call = (lang: unknown) => () =>
    (withOpenAPI(endpoint, description) as any)("GET /p", { "auth:s": "SECRET", lang });
  return each([
    ...["en; session=EVIL", "en session=EVIL", "en,session=EVIL", "en\tsession=EVIL", "en\r\nx: 1", { a: "1 b=2" }].map(
      (lang): Case => [shown(lang), () => refused(call(lang), q("lang"))],
    ),
    // 3.2's own example: a space and a `!` are the caller's to send, escaped as they choose.
    [
      "Hello%2C world!",
      () => same(call("Hello%2C world!")().headers.cookie, "session=SECRET; lang=Hello%2C world!", "the cookie header"),
    ],
  ]);
});

test("3.2: an `additionalOperations` key in uppercase wins over its twin; CONNECT and TRACK are refused", () => {
  const twins = V32({
    "/x": { additionalOperations: { Link: { responses: {} }, LINK: { parameters: [param("rel", "header")] } } },
  });
  const only = (method: string) => V32({ "/x": { additionalOperations: { [method]: {} } } });
  return each([
    [
      "LINK beside Link",
      () => same((withOpenAPI(endpoint, twins) as any)("LINK /x", { rel: "next" }).headers.rel, "next", "rel"),
    ],
    ...["CONNECT", "TRACK"].map(
      (method): Case => [
        method,
        () => refused(() => (withOpenAPI(endpoint, only(method)) as any)(`${method} /x`), "fetch"),
      ],
    ),
  ]);
});

test("3.2: a `$self` that is not a string is no URI: a reference with a document part names another document", () =>
  each(
    [1, {}, [], true].map(
      (value): Case => [
        `$self: ${shown(value)}`,
        () =>
          refused(
            () =>
              (
                withOpenAPI(endpoint, V32({ "/p": { $ref: "other#/components/pathItems/P" } }, { $self: value })) as any
              )("GET /p"),
            /names another document|not in the description/,
          ),
      ],
    ),
  ));

test("3.2: reduceOpenAPI() keeps an additional method whose key a JSON Pointer escapes", () => {
  const body = { $ref: "#/components/requestBodies/B" };
  const description = V32(
    {
      "/x": {
        additionalOperations: {
          "A~1B": { requestBody: body },
          "X%2F": { requestBody: body },
          C: { requestBody: body },
        },
      },
    },
    { components: { requestBodies: { B: { content: { "application/json": {} } } } } },
  );
  const light = withOpenAPI(endpoint, reduceOpenAPI(description)) as any;
  return each(
    ["A~1B", "X%2F", "C"].map(
      (method): Case => [method, () => same(light(`${method} /x`, { a: 1 }).body, { a: 1 }, "the body")],
    ),
  );
});

test("3.2: a form querystring's text holding a lone surrogate is refused, as a field's is", () =>
  each(
    refusedWays(
      V32({
        "/q": {
          get: op({
            parameters: [{ name: "f", in: "querystring", content: { "application/x-www-form-urlencoded": {} } }],
          }),
        },
      }),
      "GET /q",
      { f: "a=\ud800" },
      /lone surrogate/,
    ),
  ));

// --- 5c. A Swagger 2.0 file --------------------------------------------------------------------------------------------

/** A 2.0 description of one operation, parsed from JSON so that `__proto__` keys are its own. */
const swagger2 = (text: string) =>
  JSON.parse(`{"swagger": "2.0", "host": "api.example.com", "basePath": "/v1", ${text}}`);
const FORM_2 = swagger2(`"paths": {"/f": {"post": {"parameters": [
  {"name": "__proto__", "in": "formData", "type": "string"}, {"name": "constructor", "in": "formData", "type": "array"}
]}}}`);
const SCHEMES_2 = swagger2(`"security": [{"__proto__": []}], "securityDefinitions": {
  "__proto__": {"type": "apiKey", "in": "header", "name": "X-Key"}, "constructor": {"type": "basic"}
}, "paths": {"/s": {"get": {}}, "/c": {"get": {"security": [{"constructor": []}]}}}`);
/** A call on a 2.0 description of one POST, `/x`, whose operation is `node` (JSON text). */
const onPost2 = (node: string, options?: Record<string, unknown>) => () =>
  (withOpenAPI(endpoint, swagger2(`"paths": {"/x": {"post": ${node}}}`)) as any)("POST /x", options);
/** A call on a 2.0 description of PET whose root fields are `fields`, on `base`. */
const onPet2 =
  (fields: object, base: any = endpoint) =>
  () =>
    (withOpenAPI(base, { swagger: "2.0", ...fields, paths: PET } as any) as any)("GET /pets/{id}", { id: 1 });

test("a Swagger 2.0 file: its names, form fields and schemes `__proto__` and `constructor`, reach no prototype", () =>
  each([
    [
      "form fields __proto__ and constructor",
      () => {
        const options = JSON.parse('{"__proto__": "p", "constructor": ["a", "b"]}');
        const made = (withOpenAPI(endpoint, FORM_2) as any)("POST /f", options);
        same(String(made.body), "__proto__=p&constructor=a%2Cb", "the form");
      },
    ],
    [
      "schemes named __proto__ and constructor",
      () => {
        const api = withOpenAPI(endpoint, SCHEMES_2) as any;
        same(api("GET /s", { "auth:__proto__": "k" }).headers["x-key"], "k", "the key");
        const basic = api("GET /c", { "auth:constructor": { username: "a", password: "b" } });
        same(basic.headers.authorization, "Basic YTpi", "basic");
        refused(() => api("GET /s", { "auth:toString": "k" }), q("auth:toString"));
      },
    ],
    [
      "consumes __proto__",
      () =>
        refused(onPost2('{"consumes": ["__proto__"], "parameters": [{"name": "b", "in": "body"}]}'), q("__proto__")),
    ],
    [
      "collectionFormat constructor",
      () =>
        refused(
          onPost2('{"parameters": [{"name": "q", "in": "query", "type": "array", "collectionFormat": "constructor"}]}'),
          q("constructor"),
        ),
    ],
    [
      "collectionFormat __proto__",
      () =>
        refused(
          onPost2(
            '{"parameters": [{"name": "q", "in": "formData", "type": "array", "collectionFormat": "__proto__"}]}',
            { q: ["a"] },
          ),
          q("__proto__"),
        ),
    ],
  ]));

test("a Swagger 2.0 file: `host` stays a host, `basePath` a path, and the scheme the description's", () =>
  each([
    // basePath is a path: `//host` would make it a host, moving a relative server (and its credentials) away from
    // the caller's baseUrl.
    ...["//evil.example/v1", "/v1?admin=true", "/v1#x", "/{v}"].map(
      (basePath): Case => [`basePath ${basePath}`, () => refused(onPet2({ basePath }), "basePath")],
    ),
    // A relative server's own dot segments resolve within the base you set (3.2), never above it.
    [
      "basePath /../../admin, relative",
      () => builds(onPet2({ basePath: "/../../admin" }, X_BASE), "https://x.example/admin/pets/1"),
    ],
    ...[
      "evil.example@api.example.com",
      "api.example.com/v1",
      "api.example.com:443:1",
      " api.example.com",
      "api.example.com#",
    ].map((host): Case => [`host ${host}`, () => refused(onPet2({ host }), "host")]),
    // A scheme the caller cannot choose: only the description's `schemes`.
    [
      "server:scheme",
      () =>
        refused(
          () => (withOpenAPI(endpoint, SWAGGER) as any)("GET /pets/{id}", { id: 1, "server:scheme": "http" }),
          q("server:scheme"),
        ),
    ],
  ]));

// --- 6. A small description must not stall ---------------------------------------------------------------------------

/**
 * What a step may take, in CPU time of the thread it runs on (see threadMs()). Each step takes milliseconds to
 * half a second; the bound is far above that and far below what a stall takes (the 6 self-references of a
 * schema's `allOf` never finished before the plans).
 */
const STEP_LIMIT = 10000;
/** A step of a timed job: a label and what it runs (its description built beforehand, outside the time). */
type Step = [label: string, run: () => unknown];
/** A call on a description, withOpenAPI() included in its time. */
const callOn = (description: any, route: string, options?: Record<string, unknown>) => () =>
  (withOpenAPI(endpoint, description) as any)(route, options);

/** A body schema whose allOf holds `count` $refs to itself, on a multipart POST, a JSON PUT and a GET with a body. */
function selfAllOf(count: number): Step[] {
  const ref = { $ref: "#/components/schemas/Loop" };
  const loop = {
    allOf: [...Array.from({ length: count }, () => ref), { type: "object", properties: { name: { type: "string" } } }],
  };
  // OpenAPI 3.1: a GET may declare a request body (which it cannot send).
  const description = doc(
    {
      "/loops": {
        get: op({ requestBody: jsonBody(ref) }),
        post: op({ requestBody: { content: { "multipart/form-data": { schema: ref } } } }),
        put: op({ requestBody: jsonBody(ref) }),
      },
    },
    { openapi: "3.1.0", components: { schemas: { Loop: loop } } },
  );
  return [
    ["POST /loops (a multipart form)", callOn(description, "POST /loops", { name: "x" })],
    ["GET /loops (a body a GET cannot send)", callOn(description, "GET /loops")],
    ["PUT /loops (JSON)", callOn(description, "PUT /loops", { name: "x" })],
    ["reduceOpenAPI()", () => reduceOpenAPI(description)],
  ];
}

/** 1,000 parameter $refs to one long pointer (a key of 500 `/`, `~1` each) that refers to itself. */
function selfPointers(): Step[] {
  const key = "/".repeat(500);
  const pointer = "#/components/parameters/" + "~1".repeat(500);
  const description = doc(
    { "/q": { get: op({ parameters: Array.from({ length: 1000 }, () => ({ $ref: pointer })) }) } },
    { components: { parameters: { [key]: { $ref: pointer } } } },
  );
  return [
    ["GET /q", callOn(description, "GET /q")],
    ["reduceOpenAPI()", () => reduceOpenAPI(description)],
  ];
}

/** A path of `count` path parameters, every one declared alike by each of four operations. */
function sharedPath(count: number): [description: any, route: string, values: Record<string, string>] {
  const parameters = Array.from({ length: count }, (_, i) => param(`p${i}`, "path"));
  const path = parameters.map(({ name }) => `/{${name}}`).join("");
  const operation = () => op({ parameters });
  const description = doc({ [path]: { get: operation(), put: operation(), delete: operation(), patch: operation() } });
  return [description, `GET ${path}`, Object.fromEntries(parameters.map(({ name }) => [name, "v"]))];
}

/**
 * reduceOpenAPI() over one path of 4,000 path parameters shared by four operations (more than a template holds:
 * it may refuse), and of 1,000 (as many as a template holds), and a call on each.
 */
function sharedPathParameters(): Step[] {
  return [4000, 1000].flatMap((count): Step[] => {
    const [description, route, values] = sharedPath(count);
    return [
      [`${count}: reduceOpenAPI()`, () => reduceOpenAPI(description)],
      [`${count}: a call`, callOn(description, route, values)],
    ];
  });
}

/** A $ref chain #/components/schemas/S0 → S1 → … → S10000, as a query parameter's schema and as body schemas. */
function longChain(): Step[] {
  const schemas: Record<string, object> = {};
  for (let i = 0; i < 10000; i++) schemas[`S${i}`] = { $ref: `#/components/schemas/S${i + 1}` };
  schemas.S10000 = { type: "object", properties: { name: { type: "string" } } };
  const ref = { $ref: "#/components/schemas/S0" };
  const description = doc(
    {
      "/chain": {
        get: op({ parameters: [{ name: "filter", in: "query", schema: ref }] }),
        post: op({ requestBody: jsonBody(ref) }),
        put: op({ requestBody: { content: { "multipart/form-data": { schema: ref } } } }),
      },
    },
    { components: { schemas } },
  );
  return [
    ["GET /chain (a query parameter's schema)", callOn(description, "GET /chain", { filter: { name: "x" } })],
    ["POST /chain (a JSON body's schema)", callOn(description, "POST /chain", { name: "x" })],
    ["PUT /chain (a multipart form's schema)", callOn(description, "PUT /chain", { name: "x" })],
    ["reduceOpenAPI()", () => reduceOpenAPI(description)],
  ];
}

/**
 * A value that holds itself twice at every level, in each place a form or query writes nested values: walked without
 * a check, it is 2^100 pairs deep before the depth bound.
 */
function twiceCyclic(): Step[] {
  const cyclic = () => {
    const value: Record<string, unknown> = { id: "1" };
    value.a = value;
    value.b = [value, value];
    return value;
  };
  const form = (type: string) =>
    formBody(type, { styled: { type: "object" }, plain: {} }, { styled: { style: "deepObject", explode: true } });
  const description = doc({
    "/forms": { post: op({ requestBody: form("application/x-www-form-urlencoded") }) },
    "/parts": { post: op({ requestBody: form("multipart/form-data") }) },
    "/search": {
      get: op({ parameters: [param("filter", "query", { type: "object" }, { style: "deepObject", explode: true })] }),
    },
  });
  return [
    ["a URL-encoded form's deepObject field", callOn(description, "POST /forms", { styled: cyclic() })],
    ["a URL-encoded form's field", callOn(description, "POST /forms", { plain: [cyclic()] })],
    ["a multipart form's deepObject field", callOn(description, "POST /parts", { styled: cyclic() })],
    ["a query parameter's deepObject", callOn(description, "GET /search", { filter: cyclic() })],
  ];
}

/**
 * Credentials at scale: 10,000 cookie API keys needed together beside a caller's 1 MB cookie header; 10,000 schemes of
 * 95-character names and a mistyped `"auth:"` key (the nearest name is looked for within a bound).
 */
function manyCredentials(): Step[] {
  const count = 10000;
  const schemes = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`c${i}`, { type: "apiKey", in: "cookie", name: `c${i}` }]),
  );
  const cookies = doc(
    { "/a": { get: op({ security: [Object.fromEntries(Object.keys(schemes).map((name) => [name, []]))] }) } },
    { components: { securitySchemes: schemes } },
  );
  const credentials = Object.fromEntries(Object.keys(schemes).map((name) => [`auth:${name}`, "v"]));
  const cookie = Array.from({ length: 100000 }, (_, i) => `k${i}=v`).join("; ");
  const names = Array.from({ length: 10000 }, (_, i) => `${"s".repeat(90)}${String(i).padStart(5, "0")}`);
  const named = doc(
    { "/b": { get: op({ security: [{ [names[0]!]: [] }] }) } },
    {
      components: {
        securitySchemes: Object.fromEntries(names.map((name) => [name, { type: "http", scheme: "bearer" }])),
      },
    },
  );
  return [
    [
      "10,000 cookie credentials beside a 1 MB cookie header",
      () => (withOpenAPI(endpoint, cookies) as any)("GET /a", { ...credentials, headers: { cookie } }),
    ],
    [
      "a mistyped key among 10,000 long scheme names, 40 calls",
      () => {
        const api = withOpenAPI(endpoint, named) as any;
        // Keys near no name: every name is compared, none ends the search early.
        for (let i = 1; i < 40; i++) outcomeOf(() => api("GET /b", { [`auth:${"x".repeat(90)}${i}`]: "t" }));
        return api("GET /b", { [`auth:${names[0]}x`]: "t" });
      },
    ],
  ];
}

const PIPES = { type: "array", items: { type: "string" }, collectionFormat: "pipes" };
/** A Swagger 2.0 file at size: 20,000 list fields of a form, 20,000 media types (squared, 400 million steps), a million slashes. */
function swaggerAtScale(): Step[] {
  const fields = Array.from({ length: 20000 }, (_, i) => ({ name: `f${i}`, in: "formData", ...PIPES }));
  const types = Array.from({ length: 20000 }, (_, i) => `application/x-${i}+json`);
  const at = (extra: object, paths: object) => ({ swagger: "2.0", host: "api.example.com", ...extra, paths });
  const form = at({}, { "/f": { post: { parameters: fields } } });
  const consumes = at({ consumes: types }, { "/b": { post: { parameters: [{ name: "b", in: "body" }] } } });
  const slashes = at({ basePath: `/v1${"/".repeat(1000000)}` }, PET);
  return [
    ["20,000 list fields of a form, one given", callOn(form, "POST /f", { f9: ["a", "b"] })],
    ["20,000 media types in `consumes`", callOn(consumes, "POST /b", { name: "x" })],
    ["a basePath ending in a million slashes", callOn(slashes, "GET /pets/{id}", { id: 1 })],
  ];
}
/**
 * 2,000 operations inheriting the description's `security` of 2,000 alternatives, OpenAPI 3.x and Swagger 2.0: the
 * list is read once, not once per operation, and reduceOpenAPI() keeps it once, at the root.
 */
function sharedSecurity(): Step[] {
  const names = Array.from({ length: 2000 }, (_, i) => `s${i}`);
  const security = names.map((name) => ({ [name]: [] }));
  const schemes = Object.fromEntries(names.map((name) => [name, { type: "apiKey", in: "header", name: "x-key" }]));
  const paths = Object.fromEntries(names.map((name) => [`/${name}`, { get: op() }]));
  const three = doc(paths, { security, components: { securitySchemes: schemes } });
  const two = { swagger: "2.0", host: "api.example.com", security, securityDefinitions: schemes, paths };
  // The last alternative's credential: each operation's choice looks at every alternative.
  const calls = (description: any) => () => {
    const api = (withOpenAPI(endpoint, description) as any).defaults({ [`auth:${names.at(-1)}`]: "k" });
    for (const name of names) api(`GET /${name}`);
  };
  const reduced = (description: any) => () => {
    const size = JSON.stringify(reduceOpenAPI(description)).length;
    if (size > 300_000) throw new Error(`the reduced description is ${size} characters: the list was copied`);
  };
  return [
    ["3.x: 2,000 first calls, each inheriting 2,000 alternatives", calls(three)],
    ["2.0: 2,000 first calls, each inheriting 2,000 alternatives", calls(two)],
    ["3.x: reduceOpenAPI() of it", reduced(three)],
    ["2.0: reduceOpenAPI() of it", reduced(two)],
  ];
}

/** 2.0: 4,000 operations under a `basePath` of 250,000 slashes: the server made once, its slashes cut in one pass. */
function longBasePath(): Step[] {
  const paths = Object.fromEntries(Array.from({ length: 4000 }, (_, i) => [`/p${i}`, { get: { responses: {} } }]));
  const description = { swagger: "2.0", host: "api.example.com", basePath: `/v1${"/".repeat(250000)}`, paths };
  return [
    [
      "4,000 operations, each called",
      () => {
        const api = withOpenAPI(endpoint, description as any) as any;
        for (let i = 0; i < 4000; i++) api(`GET /p${i}`);
      },
    ],
    ["reduceOpenAPI() of them", () => reduceOpenAPI(description as any)],
  ];
}

/** One operation's first call, made slow by what it repeats: its literal query, its GET body's types, its fragment. */
function oneOperation(): Step[] {
  const n = 20000;
  const query = Array.from({ length: n }, (_, i) => param(`q${i}`, "query"));
  const literal = `/x?${query.map(({ name }) => `${name}={${name}}`).join("&")}`;
  const schema = {
    type: "object",
    properties: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`p${i}`, {}])),
  };
  const content = Object.fromEntries(
    Array.from({ length: 3000 }, (_, i) => [`application/x${i}+json`, { schema: { $ref: "#/components/schemas/S" } }]),
  );
  const pathParams = Array.from({ length: 50000 }, (_, i) => param(`p${i}`, "path"));
  const fragment = `/x#${pathParams.map(({ name }) => `{${name}}`).join("")}`;
  const deep = { ["k".repeat(1000000)]: Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`l${i}`, 1])) };
  const deepObject = doc({
    "/d": {
      get: op({ parameters: [param("filter", "query", { type: "object" }, { style: "deepObject", explode: true })] }),
    },
  });
  return [
    [
      "a literal query of 20,000 pairs, each a query parameter's",
      callOn(doc({ [literal]: { get: op({ parameters: query }) } }), `GET ${literal}`, { q0: "a" }),
    ],
    [
      "a GET body of 3,000 media types sharing a schema of 3,000 properties",
      callOn(
        doc({ "/g": { get: op({ requestBody: { content } }) } }, { components: { schemas: { S: schema } } }),
        "GET /g",
      ),
    ],
    [
      "50,000 path parameters placed in the fragment alone",
      callOn(doc({ [fragment]: { get: op({ parameters: pathParams }) } }), `GET ${fragment}`),
    ],
    ["a deepObject of a megabyte key over 600 leaves", callOn(deepObject, "GET /d", { filter: deep })],
  ];
}

/** A query credential among 4,000 alternatives, beside a megabyte query value. */
function queryCredentials(): Step[] {
  const names = Array.from({ length: 4000 }, (_, i) => `k${i}`);
  const schemes = Object.fromEntries(names.map((name) => [name, { type: "apiKey", in: "query", name }]));
  const description = doc(
    { "/q": { get: op({ security: names.map((name) => ({ [name]: [] })) }) } },
    { components: { securitySchemes: schemes } },
  );
  return [
    [
      "4,000 query API keys, the last given, beside 4 MB of value",
      callOn(description, "GET /q", { "auth:k3999": "v", big: "x".repeat(4000000) }),
    ],
  ];
}

/** 3.2: one path item of 10,000 `additionalOperations`, and 2,000 references against a `$self` of 100 KB. */
function amplified32(): Step[] {
  const keys = Object.fromEntries(Array.from({ length: 10000 }, (_, i) => [`M${i}`, { responses: {} }]));
  const many = V32({ "/x": { additionalOperations: keys } });
  const paths = Object.fromEntries(
    Array.from({ length: 2000 }, (_, i) => [`/p${i}`, { $ref: "o#/components/pathItems/P" }]),
  );
  const self = `https://a.example/${"a/".repeat(50000)}o`;
  const long = V32(paths, { $self: self, components: { pathItems: { P: { get: op() } } } });
  const every = (description: any, route: (i: number) => string, count: number) => () => {
    const api = withOpenAPI(endpoint, description) as any;
    for (let i = 0; i < count; i++) api(route(i));
  };
  return [
    ["10,000 additional methods of one path item, each called", every(many, (i) => `M${i} /x`, 10000)],
    ["the same, reduceOpenAPI()", () => reduceOpenAPI(many)],
    ["2,000 references against a 100 KB $self, each called", every(long, (i) => `GET /p${i}`, 2000)],
    ["the same, reduceOpenAPI()", () => reduceOpenAPI(long)],
  ];
}

const STALL_JOBS: Record<string, () => Step[]> = {
  swagger: swaggerAtScale,
  security: sharedSecurity,
  credentials: manyCredentials,
  cycles: twiceCyclic,
  allOf6: () => selfAllOf(6),
  allOf20: () => selfAllOf(20),
  pointers: selfPointers,
  shared: sharedPathParameters,
  chain: longChain,
  basePath: longBasePath,
  one: oneOperation,
  queries: queryCredentials,
  v32: amplified32,
};

/** How a step ended: built, our TypeError, or something else (a native error, a stack overflow). */
function outcomeOf(run: () => unknown): string {
  try {
    run();
    return "built";
  } catch (error) {
    const message = error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error);
    if (error instanceof TypeError && error.message.startsWith(PREFIX)) return `refused: ${message.slice(0, 200)}`;
    return `other: ${message.slice(0, 200)}`;
  }
}

/** What a worker reports: each step's time and outcome, and the step it stalled in, if any. */
interface JobReport {
  steps: { step: string; ms: number; outcome: string; polluted: string[] }[];
  stalled?: string;
  error?: string;
  result?: any;
}

/** However a job goes, its worker is ended this long after it starts (loading this file included). */
const JOB_CAP = 120000;
/**
 * A step is ended this long after it starts, by the clock: the backstop for a stall. A step passes on its CPU time
 * (see threadMs()), which a loaded machine does not stretch: `npm test` runs this file at a low priority beside
 * the other suites, where a step of 0.3 s of CPU has taken over 10 s by the clock.
 */
const WALL_LIMIT = 45000;

/**
 * Jobs run one after the other in a worker thread, this file as its module (loaded once for all of them); a step
 * of a job still running `limit(job)` ms after it starts, by the clock, ends the worker, and so does JOB_CAP. The
 * job it ends is reported stalled, and the jobs after it as not run.
 */
function runJobs(jobs: string[], limit: (job: string) => number): Promise<Record<string, JobReport>> {
  const boot = `const { workerData } = require("node:worker_threads");
import(workerData.tsx).then(({ register }) => { register(); return import(workerData.file); });`;
  const data = { jobs, tsx: import.meta.resolve("tsx/esm/api"), file: import.meta.url };
  return new Promise((resolve) => {
    const worker = new Worker(boot, { eval: true, workerData: data });
    const reports: Record<string, JobReport> = Object.fromEntries(jobs.map((job) => [job, { steps: [] }]));
    let [current] = jobs as [string];
    let timer: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    const cap = setTimeout(() => finish({ stalled: `the job: not done after ${JOB_CAP} ms, ended` }), JOB_CAP);
    const finish = (extra: Partial<JobReport>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(cap);
      void worker.terminate();
      for (const job of jobs.slice(jobs.indexOf(current))) {
        if (reports[job]!.result === undefined) {
          Object.assign(reports[job]!, job === current ? extra : { error: `not run: ${current} ended the worker` });
        }
      }
      resolve(reports);
    };
    worker.on("message", (message) => {
      clearTimeout(timer);
      current = message.job;
      if (message.start) {
        const stalled = `${message.start}: still running after ${limit(current)} ms, ended`;
        timer = setTimeout(() => finish({ stalled }), limit(current));
      } else if (message.step) reports[current]!.steps.push(message);
      else {
        reports[current]!.result = message.result;
        if (current === jobs.at(-1)) finish({});
      }
    });
    worker.on("error", (error) => finish({ error: String(error) }));
    worker.on("exit", () => finish({ error: "the worker ended" }));
  });
}

/** In a worker: each step of each job timed and reported (the fuzz reports once). */
async function serve(jobs: string[]): Promise<void> {
  const port = parentPort!;
  for (const job of jobs) {
    if (job === "fuzz") {
      port.postMessage({ job, start: "the fuzz" });
      port.postMessage({ job, result: await fuzz() });
      continue;
    }
    for (const [step, run] of STALL_JOBS[job]!()) {
      port.postMessage({ job, start: step });
      const started = threadMs();
      const outcome = outcomeOf(run);
      port.postMessage({ job, step, ms: threadMs() - started, outcome, polluted: pollution() });
    }
    port.postMessage({ job, result: "done" });
  }
}

// One worker starts as this file loads and runs the timed jobs, then the fuzz, one after the other: this file and
// endpoint.ts load once for them all, where a worker each loaded them ten times.
const FUZZ_LIMIT = 30000;
const ALL_JOBS = isMainThread
  ? runJobs([...Object.keys(STALL_JOBS), "fuzz"], (job) => (job === "fuzz" ? WALL_LIMIT + FUZZ_LIMIT : WALL_LIMIT))
  : undefined;
const JOBS: Record<string, Promise<JobReport>> = isMainThread
  ? Object.fromEntries(
      [...Object.keys(STALL_JOBS), "fuzz"].map((job) => [job, ALL_JOBS!.then((reports) => reports[job]!)]),
    )
  : {};

/** A timed job's steps: each under the limit, built or our TypeError (`refused` when only that will do). */
async function timely(job: string, refusedSteps: string[] = []): Promise<void> {
  const { steps, stalled, error } = await JOBS[job]!;
  const problems: string[] = [];
  for (const { step, ms, outcome, polluted } of steps) {
    if (ms >= STEP_LIMIT) problems.push(`${step}: ${ms.toFixed(0)} ms`);
    if (outcome.startsWith("other")) problems.push(`${step}: ${outcome}`);
    if (refusedSteps.includes(step) && !outcome.startsWith("refused")) {
      problems.push(`${step}: ${outcome}, not refused`);
    }
    for (const found of polluted) problems.push(`${step}: ${found}`);
  }
  if (stalled) problems.push(stalled);
  if (error) problems.push(`the worker: ${error}`);
  const ran = steps.map(({ step, ms }) => `${step} ${ms.toFixed(0)} ms`).join(", ");
  assert.ok(!problems.length, `${problems.join("\n      ")}\n      (finished: ${ran || "none"})`);
}

test("no stall: a body schema whose allOf holds 6 $refs to itself", () => timely("allOf6"));
test("no stall: a body schema whose allOf holds 20 $refs to itself", () => timely("allOf20"));
test("no stall: 1,000 parameter $refs to one long pointer that refers to itself (the call refused)", () =>
  timely("pointers", ["GET /q"]));
test("no stall: reduceOpenAPI() over a path of 4,000 path parameters shared by four operations", () =>
  timely("shared"));
test("no stall: a $ref chain of 10,000 schemas, no stack overflow", () => timely("chain"));
test("no stall: 2,000 operations inheriting 2,000 security alternatives, 3.x and 2.0, and reduceOpenAPI() of them", () =>
  timely("security"));
test("no stall: a Swagger 2.0 file of 20,000 form fields, 20,000 media types, a million slashes", () =>
  timely("swagger"));
test("no stall: 10,000 cookie credentials beside a megabyte of cookies; a mistyped key among 10,000 schemes", () =>
  timely("credentials", ["a mistyped key among 10,000 long scheme names, 40 calls"]));
test("no stall: 4,000 Swagger 2.0 operations under a basePath of 250,000 slashes", () => timely("basePath"));
test("no stall: one operation's literal query, GET body types and fragment read in one pass; bracket pairs bounded", () =>
  timely("one", ["a deepObject of a megabyte key over 600 leaves"]));
test("no stall: a query credential among 4,000 alternatives beside 4 MB of value", () => timely("queries"));
test("no stall: 3.2's additional methods read once per path item, and `$self` once per document", () => timely("v32"));
test("no stall: a value holding itself twice at every level, in a form's fields and a query, is refused", () =>
  timely("cycles", [
    "a URL-encoded form's deepObject field",
    "a URL-encoded form's field",
    "a multipart form's deepObject field",
    "a query parameter's deepObject",
  ]));

// --- 7. The fuzz: the public API directory, mutated, called with values of the wrong shape ----------------------------

/** A seeded PRNG (mulberry32): the same sample, mutations and values on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
type Random = () => number;
const pick = <T>(rng: Random, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;

const isObject = (value: unknown): value is Record<string, any> => typeof value === "object" && value !== null;

/** Where a mutation can act: objects (with their JSON Pointers), `$ref` holders, parameters, `content` maps. */
interface Spots {
  objects: [node: Record<string, any>, pointer: string][];
  refs: [node: Record<string, any>, pointer: string][];
  parameters: Record<string, any>[];
  contents: Record<string, any>[];
  holders: Record<string, any>[];
}

/** The description's nodes, depth first, at most 20,000. */
function spotsOf(root: any): Spots {
  const spots: Spots = { objects: [], refs: [], parameters: [], contents: [], holders: [root] };
  const stack: [any, string][] = [[root, "#"]];
  while (stack.length && spots.objects.length < 20000) {
    const [node, pointer] = stack.pop()!;
    if (!Array.isArray(node)) spots.objects.push([node, pointer]);
    if (typeof node.$ref === "string") spots.refs.push([node, pointer]);
    if (typeof node.in === "string" && typeof node.name === "string") spots.parameters.push(node);
    if (isObject(node.responses) || isObject(node.parameters)) spots.holders.push(node);
    for (const key of Object.keys(node)) {
      const child = node[key];
      if (!isObject(child)) continue;
      if (key === "content" && !Array.isArray(child)) spots.contents.push(child);
      stack.push([child, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`]);
    }
  }
  return spots;
}

/** Sets an own property, `__proto__` included (as JSON.parse makes one). */
const own = (node: Record<string, any>, key: string, value: unknown) =>
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });

const LOCATIONS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "body",
  "formData",
  "Query",
  "",
  "header",
  "cookie",
  "path",
  "query",
];
const NAMES = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "x bad",
  "x\r\ny",
  "",
  "headers",
  "data",
  "server:host",
];
const MEDIA_TYPES = [
  "application/json\r\nx-injected: 1",
  "*/*",
  "",
  "multipart/form-data",
  "application/x-www-form-urlencoded",
  "application/json, text/plain",
  "__proto__",
];
const SERVERS = [
  undefined,
  [],
  [{ url: "/v1" }],
  { url: "https://object.example" },
  [{ url: "https://{host}/v1" }],
  [{ url: "//{host}/v1", variables: { host: { default: "eu" } } }],
  [{ url: 42 }],
  [
    {
      url: "https://{region}.x.example{basePath}",
      variables: { region: { default: "eu", enum: ["eu"] }, basePath: { default: "/v1" } },
    },
  ],
];

/** The mutations, each acting on one random spot; `false` where the description has none. */
const MUTATIONS: ((spots: Spots, rng: Random) => boolean)[] = [
  // A key renamed to __proto__ or constructor (not the root's: the description must stay one to reach its operations).
  ({ objects }, rng) => {
    const [node, pointer] = pick(rng, objects);
    const keys = Object.keys(node);
    if (pointer === "#" || !keys.length) return false;
    const key = pick(rng, keys);
    const value = node[key];
    delete node[key];
    own(node, pick(rng, ["__proto__", "constructor"]), value);
    return true;
  },
  // A $ref pointed at itself, or at nothing.
  ({ refs }, rng) => {
    if (!refs.length) return false;
    const [node, pointer] = pick(rng, refs);
    node.$ref = pick(rng, [
      pointer,
      "#/components/schemas/__nothing__",
      "#/",
      "#/paths",
      "https://elsewhere.example/x.json",
    ]);
    return true;
  },
  ({ parameters }, rng) => {
    if (!parameters.length) return false;
    pick(rng, parameters).in = pick(rng, LOCATIONS);
    return true;
  },
  ({ parameters }, rng) => {
    if (!parameters.length) return false;
    pick(rng, parameters).name = pick(rng, NAMES);
    return true;
  },
  ({ contents }, rng) => {
    const content = contents.length ? pick(rng, contents) : undefined;
    const keys = content ? Object.keys(content) : [];
    if (!content || !keys.length) return false;
    const key = pick(rng, keys);
    const value = content[key];
    delete content[key];
    own(content, pick(rng, MEDIA_TYPES), value);
    return true;
  },
  ({ holders }, rng) => {
    const holder = pick(rng, holders);
    const servers = pick(rng, SERVERS);
    if (servers === undefined) delete holder.servers;
    else holder.servers = structuredClone(servers);
    return true;
  },
  // A parameter list given a $ref that names nothing, or one to itself.
  ({ objects }, rng) => {
    const [node, pointer] = pick(rng, objects);
    if (!Array.isArray(node.parameters)) return false;
    node.parameters.push({
      $ref: pick(rng, ["#/components/parameters/__nothing__", `${pointer}/parameters/${node.parameters.length}`]),
    });
    return true;
  },
];

/** Values of the wrong shape, each made fresh. */
const WRONG: (() => unknown)[] = [
  () => ({ admin: "true", limit: "1000" }),
  () => [1, [2, 3]],
  () => ["a", "b"],
  () => new Map([["a", 1]]),
  () => new Date(Date.UTC(2024, 0, 2)),
  () => "x\u00e9".repeat(50000),
  () => [],
  () => ({}),
  () => [null],
  () => "",
  () => "../..",
  () => "a\r\nb",
  () => 10n,
  () => Symbol("s"),
  () => () => 1,
  () => new Blob(["b"]),
  () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    return cycle;
  },
  () => ({ nested: { deep: [new Map()] } }),
  () => JSON.parse('{"__proto__": {"isAdmin": true}}'),
  () => Number.NaN,
  () => true,
];
const SERVER_VALUES = ["evil.example", "169.254.169.254", "2130706433", "[::1]", "/../admin", "80@evil.example", "eu"];
const SERVER_NAMES = ["host", "region", "basePath", "port", "regoin", "__proto__", "constructor"];
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const TOKEN = /^[\w!#$%&'*+.^`|~-]+$/;

/** What is wrong with a built request: not request options, an unsafe header, a URL that is not one. */
function problemOf(result: any, githubAllowed: boolean): string | undefined {
  if (
    !isObject(result) ||
    typeof result.method !== "string" ||
    typeof result.url !== "string" ||
    !isObject(result.headers)
  ) {
    return "not request options";
  }
  if (!RFC3986_URI.test(result.url)) return `a URL RFC 3986 does not allow: ${shown(result.url)}`;
  if (/t0ken/.test(new URL(result.url).host)) return `a credential in the host: ${shown(result.url)}`;
  if (!githubAllowed && result.url.startsWith("https://api.github.com")) return "sent to api.github.com";
  for (const [name, value] of Object.entries(result.headers)) {
    if (!TOKEN.test(name)) return `the header name ${q(name)}`;
    if ((typeof value !== "string" && typeof value !== "number") || /[\r\n\0]/.test(String(value))) {
      return `the header ${q(name)}: ${shown(value)}`;
    }
  }
  return undefined;
}

/** A node with its $refs followed, a few hops at most (the mutations make cycles); `undefined` where one names nothing. */
function followed(description: any, raw: unknown): any {
  let node = raw as any;
  for (let hops = 0; hops < 5 && isObject(node) && typeof node.$ref === "string"; hops++) {
    const keys = node.$ref.startsWith("#/") ? node.$ref.slice(2).split("/") : [];
    node = keys.reduce(
      (at: any, key: string) => (isObject(at) ? at[key.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined),
      description,
    );
  }
  return node;
}

/** A value of a schema's type: what a careful caller would pass. */
function plainValue(schema: any): unknown {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  if (type === "integer" || type === "number") return 1;
  if (type === "boolean") return true;
  if (type === "array") return ["v"];
  return type === "object" ? { a: "v" } : "v";
}

/** A parameter of an operation: its name and a plain value for it. */
type FuzzParameter = [name: string, plain: unknown];

/** The operations of a description as routes, each with its parameters. */
function operationsOf(description: any): [route: string, parameters: FuzzParameter[]][] {
  const paths = isObject(description.paths) ? description.paths : {};
  const found: [string, FuzzParameter[]][] = [];
  for (const path of Object.keys(paths)) {
    const item = paths[path];
    if (!isObject(item)) continue;
    for (const method of Object.keys(item)) {
      if (!METHODS.includes(method) || !isObject(item[method])) continue;
      const raw = [item.parameters, item[method].parameters].flatMap((list) => (Array.isArray(list) ? list : []));
      const parameters = raw
        .map((parameter) => followed(description, parameter))
        .filter((parameter) => isObject(parameter) && typeof parameter.name === "string")
        .map((parameter): FuzzParameter => [parameter.name, plainValue(followed(description, parameter.schema))]);
      found.push([`${method.toUpperCase()} ${path}`, parameters]);
    }
  }
  return found;
}

/**
 * A call's options, three kinds: every parameter given a wrong value, with a hostile server variable, a body field
 * and sometimes `data`; one parameter wrong, the others plain; all plain (so that requests get built, and checked).
 */
function fuzzOptions(parameters: FuzzParameter[], rng: Random, kind: number): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  const wrong = parameters.length ? pick(rng, parameters)[0] : undefined;
  for (const [name, plain] of parameters) {
    own(options, name, kind === 0 || (kind === 1 && name === wrong) ? pick(rng, WRONG)() : plain);
  }
  if (kind > 0) return options;
  own(options, `server:${pick(rng, SERVER_NAMES)}`, pick(rng, SERVER_VALUES));
  options.meta = pick(rng, WRONG)();
  if (rng() < 0.2) options.data = pick(rng, WRONG)();
  return options;
}

/** What the fuzz found: calls made, and each kind of wrong outcome once, with its first example. */
interface FuzzReport {
  ms: number;
  descriptions: number;
  /** The APIs made of them: on the default base, on ours, on the reduction (none where refused). */
  apis: number;
  operations: number;
  calls: number;
  built: number;
  refused: number;
  wrong: Record<string, string>;
}

/** A description's API made (withOpenAPI(), reduceOpenAPI()): what it made, or our TypeError; anything else is wrong. */
function attempt(report: FuzzReport, where: string, run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!(error instanceof TypeError && message.startsWith(PREFIX))) report.wrong[wrongKind(error)] ??= where;
    return undefined;
  } finally {
    for (const found of pollution()) report.wrong[found] ??= where;
  }
}

/** A thrown value's kind, for the report: its class and the first words of its message. */
const wrongKind = (error: unknown) =>
  error instanceof Error
    ? `${error.constructor.name}: ${error.message.split("\n")[0]!.slice(0, 80)}`
    : `${typeof error} thrown`;

/** One call counted: built (and checked), our TypeError, or wrong; Object.prototype checked and restored. */
function judge(report: FuzzReport, where: string, run: () => unknown, githubAllowed: boolean): void {
  report.calls++;
  let problem: string | undefined;
  try {
    problem = problemOf(run(), githubAllowed);
    report.built++;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof TypeError && message.startsWith(PREFIX)) report.refused++;
    else problem = wrongKind(error);
  }
  for (const found of pollution()) report.wrong[found] ??= where;
  if (problem !== undefined) report.wrong[problem] ??= where;
}

/** About 20 descriptions of the directory, under 150 KB, not the big ones: a fixed seed's sample. */
async function fuzzSample(rng: Random): Promise<string[]> {
  const files = (await directoryFiles()).filter(
    (file: string) => !BIG_APIS.includes(descriptionName(file)) && statSync(file).size < 150_000,
  );
  const chosen = new Set<string>();
  while (chosen.size < 20) chosen.add(pick(rng, files));
  return [...chosen].sort();
}

/** An API a mutated description makes, what it is, and whether a call on it may go to the library's default base. */
type FuzzApi = [api: any, label: string, githubAllowed: boolean];

/** The APIs a mutated description makes: on the library's default base, on a base of ours, on its reduction. */
function fuzzApis(report: FuzzReport, name: string, description: any): FuzzApi[] {
  const apis: FuzzApi[] = [];
  // Credentials for every scheme it declares, given once: each call sends its operation's first alternative's.
  const authorized = (api: any, from: any) => api.defaults(credentialsFor(from));
  const made = attempt(report, `${name}: withOpenAPI()`, () =>
    authorized(withOpenAPI(endpoint, description), description),
  );
  // A description whose every server is gone sends nowhere on the library's default base (api.github.com).
  if (made) apis.push([made, "the default base", false]);
  const ourBase = endpoint.defaults({ baseUrl: "https://fuzz.example" });
  const based = attempt(report, `${name}: withOpenAPI()`, () =>
    authorized(withOpenAPI(ourBase, description), description),
  );
  if (based) apis.push([based, "a baseUrl set", true]);
  const reduced = attempt(report, `${name}: reduceOpenAPI()`, () => reduceOpenAPI(description));
  const onReduction =
    reduced &&
    attempt(report, `${name}: withOpenAPI(reduced)`, () => authorized(withOpenAPI(endpoint, reduced as any), reduced));
  if (onReduction) apis.push([onReduction, "reduced", false]);
  return apis;
}

/** The seed of the fuzz: its sample, each description's mutations and each call's values. */
const SEED = 0x5eed;

/**
 * One sampled description mutated (its mutations drawn from its own seed, whatever the library does), then every
 * operation called three ways on each API it makes. The description must come out as it went in.
 */
async function fuzzDescription(report: FuzzReport, name: string, description: any, index: number): Promise<void> {
  const mutate = random(SEED + index + 1);
  const spots = spotsOf(description);
  for (let done = 0, tries = 0; done < 8 && tries < 50; tries++) if (pick(mutate, MUTATIONS)(spots, mutate)) done++;
  const before = JSON.stringify(description);
  const values = random(SEED * 31 + index);
  const apis = fuzzApis(report, name, description);
  report.descriptions++;
  report.apis += apis.length;
  for (const [route, parameters] of operationsOf(description)) {
    report.operations++;
    for (const [api, label, githubAllowed] of apis) {
      for (const kind of [0, 1, 2]) {
        const options = fuzzOptions(parameters, values, kind);
        judge(report, `${name} (${label}): ${route} ${shown(options)}`, () => api(route, options), githubAllowed);
      }
    }
  }
  if (JSON.stringify(description) !== before) report.wrong["the description was modified"] ??= name;
}

/** Swagger 2.0 descriptions the fuzz mutates too (fixtures/swagger.mjs): forms, files, collectionFormats, headers. */
const SWAGGER_FUZZED = [
  "@readme/oas-examples/petstore.json",
  "@microsoft.azure/autorest.testserver/swagger/body-formdata.json",
  "@microsoft.azure/autorest.testserver/swagger/url.json",
  "@microsoft.azure/autorest.testserver/swagger/header.json",
];

/**
 * The fuzz: about 20 descriptions of the directory and four Swagger 2.0 ones, each mutated and called; its time
 * and what went wrong.
 */
async function fuzz(): Promise<FuzzReport> {
  const files = await fuzzSample(random(SEED));
  const described: [string, () => Promise<any>][] = files.map((file) => [
    descriptionName(file),
    () => readDescription(file),
  ]);
  const swagger = (await swaggerDescriptions()).filter(([name]) => SWAGGER_FUZZED.includes(name));
  for (const [name, description] of swagger) described.push([name, async () => description]);
  const report: FuzzReport = {
    ms: 0,
    descriptions: 0,
    apis: 0,
    operations: 0,
    calls: 0,
    built: 0,
    refused: 0,
    wrong: {},
  };
  const started = threadMs();
  for (const [index, [name, read]] of described.entries()) await fuzzDescription(report, name, await read(), index);
  report.ms = threadMs() - started;
  return report;
}

test("fuzz: about 20 mutated directory descriptions and four 2.0 ones, every operation called with wrong values: options or our TypeError", async () => {
  const { result, stalled, error } = await JOBS.fuzz!;
  assert.ok(!stalled && !error, `the fuzz did not finish: ${stalled ?? error}`);
  const report = result as FuzzReport;
  const { descriptions, apis, operations, calls, built, ms } = report;
  console.log(
    `  fuzz: ${descriptions} descriptions (${apis} APIs), ${operations} operations, ${calls} calls (${built} built) in ${ms.toFixed(0)} ms`,
  );
  const wrong = Object.entries(report.wrong).map(([problem, where]) => `${problem} (first: ${where})`);
  assert.ok(report.descriptions >= 22 && report.calls >= 600, `too little fuzzed: ${shown(report)}`);
  assert.ok(
    !wrong.length,
    `${wrong.length} kinds of wrong outcome in ${report.calls} calls:\n      ${wrong.join("\n      ")}`,
  );
  assert.ok(report.ms < FUZZ_LIMIT, `the fuzz took ${report.ms.toFixed(0)} ms`);
});

if (isMainThread) test.run();
else await serve((workerData as { jobs: string[] }).jobs);
