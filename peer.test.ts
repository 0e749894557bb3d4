// The peer oracle: swagger-client (pinned), the OpenAPI client whose own request-building tests found four faults of
// ours, builds the same calls from the same descriptions as withOpenAPI(); each request is compared with ours part by
// part (method, origin and path, query pairs, header parameters, cookies, credentials, the body's media type and
// content), and every difference is put in a class, judged against the OpenAPI Specification below: ours, where it
// says what we send and the peer sends otherwise; the peer's, where it leaves the choice and the README says ours. A
// difference of no judged class fails, as does a judged class no call shows any more (the table stays true).
//
// The calls: the specification's style table in every location, for 3.0 and 3.1; the features its tests cover
// (allowEmptyValue, bytes in multipart, forms and their Encoding Objects, credentials by scheme, Swagger 2.0's
// collectionFormat); and every operation of the seventeen descriptions of the third-party oracle, with generated
// values, each parameter given as `"<in>.<name>"` to the peer and by name to us.
//
//   node --import tsx peer.test.ts

import SwaggerClient from "swagger-client";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { endpoint, toFetch, withOpenAPI } from "./endpoint.ts";
import { callOf, follow, OAS_EXAMPLES, PRODUCTION_FIXTURES, published } from "./fixtures/testkit.mjs";

/** Where a description with no absolute server is called: the peer resolves its servers against it, as we do. */
const BASE = "https://api.example";

/** One call of an operation, as data both clients are given. */
interface PeerCall {
  title: string;
  spec: any;
  path: string;
  method: string;
  /** Values by `"<in>.<name>"`. */
  parameters: Record<string, unknown>;
  body?: unknown;
  contentType?: string;
  /** Credentials by scheme name: a string, or a user and password. */
  auth?: Record<string, unknown>;
}

/** A request in parts, each comparable: decoded query pairs and cookies, header parameters, the body's content. */
interface Parts {
  method: string;
  target: string;
  query: string;
  headers: string;
  cookies: string;
  type: string;
  body: string;
}

const decode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** `a=1&b=2` as `a=1 | b=2`, decoded (`+` a space where `form` says it is one). */
function pairs(text: string, form = false): string {
  return text
    .split("&")
    .filter(Boolean)
    .map((pair) => (form ? pair.replace(/\+/g, " ") : pair))
    .map((pair) => pair.split("=").map(decode).join("="))
    .join(" | ");
}

/** A body's content as text: JSON canonical, a form's pairs, a multipart form's parts with their types and bytes. */
async function bodyText(body: unknown, type: string): Promise<string> {
  if (body === undefined || body === null || body === "") return "";
  if (body instanceof FormData || (typeof body === "object" && typeof (body as any).entries === "function")) {
    const parts: string[] = [];
    for (const [name, value] of (body as FormData).entries()) {
      if (typeof value === "string") parts.push(`${name}=${value}`);
      else {
        const blob = value as Blob;
        const bytes =
          typeof blob.arrayBuffer === "function" ? await blob.arrayBuffer() : await new Response(blob).arrayBuffer();
        parts.push(`${name}=<${blob.type || "?"} ${[...new Uint8Array(bytes)]}>`);
      }
    }
    return parts.join(" | ");
  }
  if (body instanceof URLSearchParams) return pairs(String(body), true);
  if (/x-www-form-urlencoded/.test(type)) return pairs(String(body), true);
  if (typeof body === "string") {
    try {
      return JSON.stringify(JSON.parse(body));
    } catch {
      return body;
    }
  }
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return `<${[...new Uint8Array(body as ArrayBuffer)]}>`;
  return JSON.stringify(body);
}

/** What a client sends, in parts: `headers` by lowercase name. */
async function partsOf(method: string, url: string, headers: Record<string, string>, body: unknown): Promise<Parts> {
  const { accept: _a, "user-agent": _u, "content-type": type = "", cookie = "", ...own } = headers;
  // A fragment is never sent (RFC 9110 section 4.2.4): fetch leaves it out.
  const [target = "", query = ""] = url.split("#")[0]!.split("?");
  return {
    method: method.toUpperCase(),
    target: decode(target),
    query: pairs(query),
    headers: Object.entries(own)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, value]) => `${name}: ${value}`)
      .join(" | "),
    cookies: cookie
      .split(";")
      .map((pair) => pair.trim())
      .filter(Boolean)
      .map((pair) => pair.split("=").map(decode).join("="))
      .join(" | "),
    type: type.split(";")[0]!.trim().toLowerCase(),
    body: await bodyText(body, type),
  };
}

/** Each description as swagger-client reads it: its `$ref`s resolved first, as its users do (`SwaggerClient.resolve`). */
const resolved = new Map<unknown, Promise<any>>();

/** The request swagger-client builds for a call, or its error's message. */
async function peerRequest(call: PeerCall): Promise<Parts | string> {
  if (!resolved.has(call.spec)) {
    resolved.set(call.spec, SwaggerClient.resolve({ spec: structuredClone(call.spec) } as any));
  }
  const { spec } = await resolved.get(call.spec)!;
  const operation = spec.paths[call.path][call.method];
  const schemes = spec.components?.securitySchemes ?? spec.securityDefinitions ?? {};
  // Its credentials' shapes: an OAuth 2 token as a token response, a user and password, any other as a value.
  const authorized = Object.fromEntries(
    Object.entries(call.auth ?? {}).map(([name, value]) => {
      if (typeof value !== "string") return [name, value];
      return [name, schemes[name]?.type === "oauth2" ? { token: { access_token: value } } : { value }];
    }),
  );
  let request: any;
  try {
    request = SwaggerClient.buildRequest({
      spec,
      operationId: SwaggerClient.helpers.opId(operation, call.path, call.method),
      parameters: call.parameters,
      requestBody: call.body,
      requestContentType: call.contentType,
      securities: { authorized },
      contextUrl: `${BASE}/`,
    } as any);
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
  // The peer labels multipart itself (no boundary); fetch writes the label with its boundary. Compared as a type.
  return partsOf(request.method, request.url, headers, request.body);
}

/** Our request for the same call, as fetch would send it, or our TypeError's message. */
async function ourRequest(call: PeerCall): Promise<Parts | string> {
  const options: Record<string, unknown> = {};
  const taken = new Set(["method", "baseUrl", "url", "headers", "mediaType", "request", "data"]);
  for (const [key, value] of Object.entries(call.parameters)) {
    const [where, name] = [key.slice(0, key.indexOf(".")), key.slice(key.indexOf(".") + 1)];
    options[taken.has(name) || name in options ? `${where}:${name}` : name] = value;
    taken.add(name);
  }
  const form = call.contentType === undefined || /form/.test(call.contentType);
  if (call.body !== null && typeof call.body === "object" && Object.getPrototypeOf(call.body) === Object.prototype) {
    for (const [name, value] of Object.entries(call.body as object)) {
      options[taken.has(name) && !(form && name === "data") ? `body:${name}` : name] = value;
    }
  } else if (call.body !== undefined) options.data = call.body;
  // The media type chosen, in defaults(): per call, `headers` is refused where the body declares a `headers` property.
  const base = call.contentType ? endpoint.defaults({ headers: { "content-type": call.contentType } }) : endpoint;
  for (const [name, value] of Object.entries(call.auth ?? {})) options[`auth:${name}`] = value;
  const route = `${call.method.toUpperCase()} ${call.path}`;
  let sent: [string, any];
  try {
    // A description whose server is relative, or that has none, is called under the base the peer resolves it
    // against; one with a server of its own, on it (a `baseUrl` set would replace it).
    let api = withOpenAPI(base, call.spec) as any;
    try {
      api(route, options);
    } catch (error) {
      if (/set `baseUrl`/.test((error as Error).message)) {
        api = withOpenAPI(base.defaults({ baseUrl: BASE }), call.spec);
      }
    }
    sent = toFetch(api(route, options)) as [string, any];
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
  const [url, init] = sent;
  return partsOf(init.method, url, init.headers, init.body);
}

// --- The calls --------------------------------------------------------------------------------------------------------

/** The specification's example values for its style table: `color` as a string, a list and an object. */
const COLORS: [string, unknown][] = [
  ["string", "blue"],
  ["list", ["blue", "black", "brown"]],
  ["object", { R: 100, G: 200, B: 150 }],
];
/** The styles of each location, as the specification's table lists them. */
const STYLES: [where: string, styles: string[]][] = [
  ["path", ["simple", "label", "matrix"]],
  ["query", ["form", "spaceDelimited", "pipeDelimited", "deepObject"]],
  ["header", ["simple"]],
  ["cookie", ["form"]],
];

/** Every row of the style table in every location, for 3.0 and 3.1, each value kind. */
function styleCalls(): PeerCall[] {
  const calls: PeerCall[] = [];
  for (const version of ["3.0.3", "3.1.0"]) {
    for (const [where, styles] of STYLES) {
      for (const style of styles) {
        for (const explode of [false, true]) {
          for (const [kind, value] of COLORS) {
            const parameter = { name: "color", in: where, style, explode, required: where === "path" };
            const path = where === "path" ? "/colors/{color}" : "/colors";
            const spec = {
              openapi: version,
              servers: [{ url: BASE }],
              paths: { [path]: { get: { parameters: [parameter] } } },
            };
            const title = `${version} ${where} ${style}${explode ? "*" : ""} ${kind}`;
            calls.push({ title, spec, path, method: "get", parameters: { [`${where}.color`]: value } });
          }
        }
      }
    }
  }
  return calls;
}

/** A one-operation description on BASE: `operation` under `method` of `path`. */
const one = (path: string, method: string, operation: object, extra: object = {}) => ({
  openapi: "3.0.3",
  servers: [{ url: BASE }],
  paths: { [path]: { [method]: operation } },
  ...extra,
});
const query = (name: string, more: object = {}) => ({ name, in: "query", schema: { type: "string" }, ...more });
const SCHEMES = {
  bearer: { type: "http", scheme: "bearer" },
  basic: { type: "http", scheme: "basic" },
  oauth: { type: "oauth2", flows: {} },
  header: { type: "apiKey", in: "header", name: "X-Key" },
  query: { type: "apiKey", in: "query", name: "key" },
  cookie: { type: "apiKey", in: "cookie", name: "session" },
};

/** What the peer's tests check beyond the style table: empty values, forms, bytes, credentials, Swagger 2.0. */
function featureCalls(): PeerCall[] {
  const bytes = new Uint8Array([255, 65, 0]);
  const form = (type: string, encoding: object = {}) => ({ requestBody: { content: { [type]: { encoding } } } });
  const calls: PeerCall[] = [
    {
      title: "allowEmptyValue: empty values",
      spec: one("/s", "get", { parameters: [query("q"), query("tag", { allowEmptyValue: true })] }),
      path: "/s",
      method: "get",
      parameters: { "query.q": "", "query.tag": "" },
    },
    {
      title: "allowReserved",
      spec: one("/s", "get", { parameters: [query("path", { allowReserved: true })] }),
      path: "/s",
      method: "get",
      parameters: { "query.path": "a/b?c=d,e:f@g" },
    },
    {
      title: "a URL-encoded form with Encoding Objects",
      spec: one(
        "/f",
        "post",
        form("application/x-www-form-urlencoded", { deep: { style: "deepObject", explode: true } }),
      ),
      path: "/f",
      method: "post",
      parameters: {},
      body: { deep: { a: "1 2", b: "&" }, text: "a b+c", list: ["x", "y"] },
    },
    {
      title: "multipart: bytes and text",
      spec: one("/m", "post", form("multipart/form-data")),
      path: "/m",
      method: "post",
      parameters: {},
      body: { file: bytes, note: "hi" },
    },
    {
      title: "a JSON body",
      spec: one("/j", "post", { requestBody: { content: { "application/json": {} } } }),
      path: "/j",
      method: "post",
      parameters: {},
      body: { a: 1, b: ["ü", null], c: { d: true } },
    },
  ];
  return calls.concat(credentialCalls(), collectionCalls());
}

/** One call per kind of credential the peer sends, and an empty bearer token. */
function credentialCalls(): PeerCall[] {
  const calls: PeerCall[] = [];
  calls.push({
    title: "credentials: an empty bearer token",
    spec: one("/a", "get", { security: [{ bearer: [] }] }, { components: { securitySchemes: SCHEMES } }),
    path: "/a",
    method: "get",
    parameters: {},
    auth: { bearer: "" },
  });
  for (const name of Object.keys(SCHEMES)) {
    const spec = one("/a", "get", { security: [{ [name]: [] }] }, { components: { securitySchemes: SCHEMES } });
    const value = name === "basic" ? { username: "Aladdin", password: "pässword" } : "t0k3n";
    calls.push({
      title: `credentials: ${name}`,
      spec,
      path: "/a",
      method: "get",
      parameters: {},
      auth: { [name]: value },
    });
  }
  return calls;
}

/** Swagger 2.0's collection formats, each on a list with a space in an item. */
function collectionCalls(): PeerCall[] {
  const calls: PeerCall[] = [];
  const list = { type: "array", items: { type: "string" } };
  for (const format of ["csv", "ssv", "tsv", "pipes", "multi"]) {
    const spec = {
      swagger: "2.0",
      host: "api.example",
      schemes: ["https"],
      paths: { "/c": { get: { parameters: [{ name: "c", in: "query", ...list, collectionFormat: format }] } } },
    };
    calls.push({
      title: `2.0 collectionFormat ${format}`,
      spec,
      path: "/c",
      method: "get",
      parameters: { "query.c": ["a b", "c"] },
    });
  }
  return calls;
}

/** Every operation of the third-party oracle's descriptions, with generated values (testkit's callOf()). */
function descriptionCalls(): PeerCall[] {
  const calls: PeerCall[] = [];
  for (const name of [...OAS_EXAMPLES, ...PRODUCTION_FIXTURES]) {
    const spec = published(name);
    for (const [path, raw] of Object.entries<any>(spec.paths)) {
      const item = follow(spec, raw);
      for (const method of ["get", "put", "post", "delete", "patch", "head", "options"]) {
        if (!item[method]) continue;
        const { sent, type, body } = callOf(spec, item, follow(spec, item[method]), { variant: 0, all: true });
        const parameters = Object.fromEntries(
          sent.map(([parameter, value]: any) => [`${parameter.in}.${parameter.name}`, value]),
        );
        calls.push({
          title: `${name} ${method.toUpperCase()} ${path}`,
          spec,
          path,
          method,
          parameters,
          body,
          contentType: type,
        });
      }
    }
  }
  return calls;
}

// --- Comparing --------------------------------------------------------------------------------------------------------

/** A difference between the two requests: the part, and both sides' text. */
interface Difference {
  call: string;
  part: keyof Parts | "refusal";
  ours: string;
  peer: string;
}

/** The parts of two requests that differ; a refusal on either side is one difference. */
function compare(call: PeerCall, ours: Parts | string, peer: Parts | string): Difference[] {
  if (typeof ours === "string" || typeof peer === "string") {
    if (typeof ours === "string" && typeof peer === "string") return [];
    return [
      {
        call: call.title,
        part: "refusal",
        ours: String(typeof ours === "string" ? ours : "built"),
        peer: String(typeof peer === "string" ? peer : "built"),
      },
    ];
  }
  return (Object.keys(ours) as (keyof Parts)[])
    .filter((part) => ours[part] !== peer[part])
    .map((part) => ({ call: call.title, part, ours: ours[part], peer: peer[part] }));
}

/**
 * Each kind of difference the calls show, judged: which request the OpenAPI Specification (or the RFC it cites) makes
 * right, and why. A row is matched by the call's title and the part that differs.
 */
const JUDGED: [title: RegExp, part: keyof Parts | "refusal", verdict: string][] = [
  [
    /path label (list|object)$|GET \/anything\/path\/label\//,
    "target",
    "ours: RFC 6570's `{.x}`, as 3.0.4, 3.1.1 and 3.2.0 correct the style table; the peer keeps 3.0.3's dots",
  ],
  [
    /query (space|pipe)Delimited object$|GET \/anything\/query\/(space|pipe)Delimited/,
    "query",
    "ours: the style table writes a delimited style's object with its delimiter (`R%20100%20G%20200`); the peer uses commas",
  ],
  [
    /query deepObject\*? list$/,
    "query",
    "ours, the specification's open choice: it defines deepObject for objects alone; the README's bracket form",
  ],
  [
    /cookie form\* (list|object)$/,
    "cookies",
    "ours: RFC 6265 separates cookie pairs with `; `; the peer sends one cookie holding `color=blue&color=black`",
  ],
  [
    /parameters-style GET \/cookies|parameters-cookies POST \/post|parameters-extreme POST/,
    "cookies",
    "ours: each cookie parameter is a cookie; the peer sends only the last one an operation declares",
  ],
  [
    /URL-encoded form|oauth\/token|(Messages|Calls)\.json/,
    "body",
    "ours: 3.1.1, a URL-encoded field defaults to form, exploded, so a list is a pair per item; the peer joins it with commas",
  ],
  [
    /multipart|uploadImage|form-data|api-specification|form\/primitive|\/parts$|POST \/files$|files\/content/,
    "type",
    "ours: RFC 7578 labels multipart with its boundary, which only fetch writes, so we leave the label to it",
  ],
  [
    /multipart: bytes/,
    "body",
    "ours: the Encoding Object's default contentType for bytes is application/octet-stream; the peer sends no type",
  ],
  [
    /POST \/anything\/form-data$|form-data\/(space|pipe)Delimited|form-data\/deepObject|PUT \/anything\/multipart-formdata/,
    "body",
    "ours: 3.1.1 writes a multipart field of its style (a list a part per item, a delimited list with its delimiter, deepObject brackets); the peer joins with commas",
  ],
  [
    /credentials: basic/,
    "headers",
    "ours: RFC 7617 section 2.1, the user and password as UTF-8; the peer writes ISO 8859-1",
  ],
  [
    /createWith(Array|List)|metadata\/\{scope\}|PUT \/requestBody-primitive-example/,
    "body",
    "ours: a JSON media type's list body is JSON text; the peer sends a form of `[object Object]` parts",
  ],
  [
    /POST \/requestBody-(primitive-example|multi-media-types)/,
    "body",
    'ours: a string for a JSON body is JSON text (`"…"`); the peer sends the text as it is, which is no JSON',
  ],
  [
    /GET \/responses\/\{response_id\}\?beta=true|#(get|add)_shared_link/,
    "target",
    "ours: a path key with a literal query or a fragment still names its path parameters; the peer leaves `{…}` unfilled",
  ],
  [/#(get|add)_shared_link/, "query", "ours: the peer reads no parameter of a path key with a fragment"],
  [
    /an empty bearer token/,
    "refusal",
    "ours: RFC 6750's b64token is one or more characters: we refuse an empty token; the peer sends `Bearer `",
  ],
];

/** Every call both clients build, and the differences found, each with its judged row (or none). */
async function run() {
  const calls = [...styleCalls(), ...featureCalls(), ...descriptionCalls()];
  const found: [Difference, number][] = [];
  for (const call of calls) {
    for (const difference of compare(call, await ourRequest(call), await peerRequest(call))) {
      found.push([difference, JUDGED.findIndex(([title, part]) => part === difference.part && title.test(call.title))]);
    }
  }
  return { calls, found };
}

const { calls, found } = await run();

test(`swagger-client builds what we build, but where the specification judges otherwise (${calls.length} calls)`, () => {
  const unjudged = found.filter(([, row]) => row < 0).map(([d]) => d);
  const shown = unjudged.map(
    (d) => `${d.call}: ${d.part}\n      ours: ${d.ours.slice(0, 200)}\n      peer: ${d.peer.slice(0, 200)}`,
  );
  assert.ok(
    !unjudged.length,
    `${unjudged.length} differences no row judges:\n    ${shown.slice(0, 20).join("\n    ")}`,
  );
});

test("every judged row still shows", () => {
  const stale = JUDGED.filter((_, row) => !found.some(([, at]) => at === row)).map(
    ([title, part]) => `${title} ${part}`,
  );
  assert.equal(stale, [], `rows no call shows any more: ${stale.join(", ")}`);
});

const counted = JUDGED.map((row, at) => [row, found.filter(([, i]) => i === at).length] as const);
const same = calls.length - new Set(found.map(([d]) => d.call)).size;
console.log(`\n    ${calls.length} calls: ${same} built alike, the others by judged class:\n`);
console.log("    | class | differences | verdict |\n    |---|---:|---|");
for (const [[title, part, verdict], count] of counted) {
  console.log(`    | ${part} \`${title.source.slice(0, 40)}\` | ${count} | ${verdict} |`);
}

test.run();
