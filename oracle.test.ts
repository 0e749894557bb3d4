// The outside oracle: every operation of GitHub's OpenAPI description (the pinned `@octokit/openapi`
// package), called the way an octokit-style SDK user calls it, sent with `fetch(...toFetch(...))` through
// Stoplight Prism, a validating proxy on loopback, to a recording server. Prism refuses (422) any request
// whose path, query, headers or body break the description; the recording server then checks that what
// arrived is what was passed: every path value back from its own segment, every query value, every body key.
//
// How an operation is called:
// - route `"METHOD /path"` from the description; path, query and JSON body parameters at the top level;
// - a query parameter of a non-GET operation goes in the route as `{?a,b}`; a query parameter the description
//   declares as an exploded list (`name=a&name=b`, OpenAPI's default for arrays) as `{?name*}`, since a
//   top-level list is comma-joined (GitHub's comma lists, octokit's behaviour);
// - a body key named like a path placeholder, or a body that is not a JSON object, goes in `data`;
// - a body that is not JSON goes in `data`, with its content type in `headers`.
// Values are generated to satisfy each schema, and strings are awkward where the schema lets them be:
// spaces, `/`, `%`, `#`, `?`, `&`, `=` and non-ASCII.
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import fc from "fast-check";
import * as source from "./endpoint.ts";
import * as esm from "./dist/endpoint.mjs";

type Lib = typeof source;
const cjs: Lib = createRequire(import.meta.url)("./dist/endpoint.cjs");
const SPEC = "node_modules/@octokit/openapi/generated/api.github.com.json";
const spec = JSON.parse(readFileSync(SPEC, "utf8"));
const METHODS = ["get", "head", "post", "put", "patch", "delete"];

// ---------------------------------------------------------------------------------------------------
// The operations the README excuses, each with its reason (section "OpenAPI check").

function excusedInReadme(): Map<string, string> {
  const readme = readFileSync("README.md", "utf8");
  const section = readme.slice(readme.indexOf("<!-- oracle-excused -->"), readme.indexOf("<!-- /oracle-excused -->"));
  const excused = new Map<string, string>();
  for (const line of section.split("\n")) {
    const row = /^\| `([A-Z]+ \/[^`]*)` \| (.+) \|$/.exec(line);
    if (row) excused.set(row[1]!, row[2]!);
  }
  return excused;
}

// ---------------------------------------------------------------------------------------------------
// Values that satisfy a schema

type Schema = Record<string, any>;

/** A `$ref` followed to its schema (the description keeps shared parts under `#/components`). */
function resolve(schema: Schema | undefined): Schema {
  let current = schema ?? {};
  while (current.$ref) current = current.$ref.slice(2).split("/").reduce((node: any, key: string) => node[key.replace(/~1/g, "/").replace(/~0/g, "~")], spec);
  return current;
}

/** A string that any lax schema takes, and no URL or query builder can pass through by accident. */
const awkward = (name: string) => `${name} a/b%c#d?e&f=g ü`;

/** A string matching `pattern` within the length limits, from fast-check's generator with a fixed seed. */
function matching(pattern: string, min = 0, max = Infinity): string {
  const candidates = fc.sample(fc.stringMatching(new RegExp(pattern)), { seed: 42, numRuns: 200 });
  const fit = candidates.find((text) => text.length >= min && text.length <= max);
  if (fit === undefined) throw new Error(`no sample of /${pattern}/ fits ${min}..${max}`);
  return fit;
}

/**
 * A value for `schema`. `variant` picks the branch of every oneOf/anyOf (modulo their count); `all` adds
 * optional object properties as well as the required ones; `index` makes list items differ.
 */
function sample(raw: Schema | undefined, name: string, variant: number, all: boolean, depth = 0, index = 0): unknown {
  const schema = resolve(raw);
  if ("const" in schema) return schema.const;
  if (schema.enum) {
    const values = schema.enum.filter((value: unknown) => value !== null);
    return values[(index + (values.length > 1 ? 1 : 0)) % values.length];
  }
  const branches: Schema[] | undefined = schema.oneOf ?? schema.anyOf;
  if (branches) {
    const usable = branches.map(resolve).filter((branch) => branch.type !== "null");
    const branch = usable[variant % usable.length]!;
    // A branch may only narrow its parent (`anyOf: [{ required: ["source"] }, …]`): both apply.
    const { oneOf, anyOf, ...parent } = schema;
    if (!parent.properties && !parent.type) return sample(branch, name, variant, all, depth, index);
    const combined = { ...parent, ...branch, properties: { ...parent.properties, ...branch.properties }, required: [...(parent.required ?? []), ...(branch.required ?? [])] };
    return sample(combined, name, variant, all, depth, index);
  }
  if (schema.allOf) {
    const parts = schema.allOf.map((part: Schema) => sample(part, name, variant, all, depth, index));
    return parts.every((part: unknown) => part && typeof part == "object" && !Array.isArray(part)) ? Object.assign({}, ...parts) : parts[0];
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t != "null") : schema.type ?? (schema.properties || schema.required ? "object" : schema.items ? "array" : "string");
  switch (type) {
    case "integer":
    case "number": {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
      const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
      let value = 42 + index;
      if (min !== undefined && value < min) value = min;
      if (max !== undefined && value > max) value = max;
      return value;
    }
    case "boolean":
      return index % 2 == 0;
    case "array": {
      if (depth > 6) return [];
      const count = Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 2, 2));
      return Array.from({ length: count }, (_, i) => sample(schema.items, name, variant, all, depth + 1, index + i));
    }
    case "object": {
      if (depth > 6) return {};
      const result: Record<string, unknown> = {};
      const required: string[] = schema.required ?? [];
      for (const [key, property] of Object.entries<Schema>(schema.properties ?? {})) {
        // Deprecated properties are left out, as a user writing new code leaves them out.
        if (required.includes(key) || (all && !resolve(property).deprecated)) result[key] = sample(property, key, variant, all, depth + 1, index);
      }
      if (!schema.properties && schema.additionalProperties && typeof schema.additionalProperties == "object") {
        result[`${name} key ü`] = sample(schema.additionalProperties, name, variant, all, depth + 1, index);
      }
      return result;
    }
    default: {
      const min = schema.minLength ?? 0;
      const max = schema.maxLength ?? Infinity;
      if (schema.pattern) return matching(schema.pattern, min, max);
      switch (schema.format) {
        case "date-time":
          return "2026-11-23T12:34:56Z";
        case "date":
          return "2026-11-23";
        case "uri":
          return `https://example.com/${encodeURIComponent(awkward(name))}`;
        case "email":
          return "mona@example.com";
      }
      let text = awkward(name) + (index ? ` ${index}` : "");
      while (text.length < min) text += "x";
      return text.slice(0, max);
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Calls, as an SDK user writes them

interface Operation {
  method: string;
  path: string;
  parameters: Schema[];
  body: { type: string; schema: Schema } | undefined;
}

const operations: Operation[] = [];
/** ORACLE_ONLY=<text>: only the operations whose route contains it (for debugging). */
const only = process.env.ORACLE_ONLY;
for (const [path, item] of Object.entries<Schema>(spec.paths)) {
  for (const method of METHODS) {
    const operation = item[method];
    if (!operation || (only && !`${method.toUpperCase()} ${path}`.includes(only))) continue;
    const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(resolve);
    const content = resolve(operation.requestBody).content ?? {};
    const type = Object.keys(content)[0];
    operations.push({ method: method.toUpperCase(), path, parameters, body: type ? { type, schema: content[type].schema } : undefined });
  }
}

interface Call {
  route: string;
  options: Record<string, unknown>;
  /** What must arrive. */
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  exploded: Set<string>;
  body: unknown;
  contentType: string | undefined;
}

function makeCall(operation: Operation, variant: number, all: boolean): Call {
  const { method, path, parameters, body } = operation;
  const call: Call = { route: `${method} ${path}`, options: {}, path: {}, query: {}, exploded: new Set(), body: undefined, contentType: undefined };
  const inRoute: string[] = [];
  parameters.forEach((parameter, i) => {
    if (parameter.deprecated && !parameter.required) return;
    const value = sample(parameter.schema, parameter.name, variant, all, 0, i);
    if (parameter.in == "path") call.path[parameter.name] = value;
    else if (parameter.in == "query") {
      call.query[parameter.name] = value;
      const exploded = resolve(parameter.schema).type == "array" && parameter.explode !== false;
      if (exploded) call.exploded.add(parameter.name);
      if (exploded || (method != "GET" && method != "HEAD")) inRoute.push(exploded ? `${parameter.name}*` : parameter.name);
    } else return;
    call.options[parameter.name] = value;
  });
  if (inRoute.length) call.route += `{?${inRoute.join(",")}}`;
  if (body) {
    const value = /json/.test(body.type)
      ? sample(body.schema, "body", variant, all)
      : body.type == "application/octet-stream"
      ? new Uint8Array([0, 1, 0xfe, 0xff])
      : `Hello **world** ü ${awkward("text")}`;
    call.body = value;
    const plain = value !== null && typeof value == "object" && !Array.isArray(value) && !(value instanceof Uint8Array);
    if (plain && /json/.test(body.type) && !Object.keys(value).some((key) => key in call.options)) Object.assign(call.options, value);
    else call.options.data = value;
    if (!/json/.test(body.type)) call.contentType = body.type;
  }
  return call;
}

// ---------------------------------------------------------------------------------------------------
// Prism in front of a recording server

interface Arrival {
  method: string;
  url: string;
  contentType: string | undefined;
  body: Buffer;
}
const arrivals = new Map<string, Arrival>();
let recorder: Server | undefined;
let prism: ChildProcess | undefined;
let prismOutput = "";
let baseUrl = "";

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  const port = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startPrism(): Promise<void> {
  recorder = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const id = request.headers["x-oracle-id"] as string;
      arrivals.set(id, { method: request.method!, url: request.url!, contentType: request.headers["content-type"], body: Buffer.concat(chunks) });
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  const upstream = await listen(recorder);
  const port = await freePort();
  const bin = "node_modules/@stoplight/prism-cli/dist/index.js";
  prism = spawn(process.execPath, [bin, "proxy", SPEC, `http://127.0.0.1:${upstream}`, "--errors", "--host", "127.0.0.1", "--port", String(port)], { stdio: ["ignore", "pipe", "pipe"] });
  prism.stdout!.on("data", (chunk) => void (prismOutput = (prismOutput + chunk).slice(-4000)));
  prism.stderr!.on("data", (chunk) => void (prismOutput = (prismOutput + chunk).slice(-4000)));
  baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      await fetch(`${baseUrl}/zen`, { headers: { "x-oracle-id": "ready" } });
      return;
    } catch {
      if (Date.now() > deadline || prism.exitCode !== null) throw new Error(`Prism did not start:\n${prismOutput}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// One operation: sent, validated, and compared with what arrived

let sequence = 0;

/** JSON with every object's keys sorted. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, item) => (item && typeof item == "object" && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1))) : item));

/** What differs between what was passed and what arrived, or undefined when nothing does. */
function changed(call: Call, operation: Operation, arrival: Arrival): string | undefined {
  if (arrival.method != operation.method) return `method arrived as ${arrival.method}`;
  const [pathname, search = ""] = arrival.url.split("?");
  // The description's path as a pattern: literal text as it is, each placeholder one or more characters
  // other than "/" (so a value that crossed into another segment cannot match).
  const names: string[] = [];
  const pattern = operation.path.replace(/\{([^}]+)\}|[^{]+/g, (text, name?: string) => (name ? (names.push(name), "([^/]+?)") : text.replace(/[.*+?^$()|[\]\\]/g, "\\$&")));
  const match = new RegExp(`^${pattern}$`).exec(pathname!);
  if (!match) return `path arrived as ${pathname}`;
  for (const [i, name] of names.entries()) {
    if (decodeURIComponent(match[i + 1]!) != String(call.path[name])) return `path parameter ${name} arrived as ${match[i + 1]}`;
  }
  const query = new URLSearchParams(search);
  for (const [name, value] of Object.entries(call.query)) {
    const got = call.exploded.has(name) ? query.getAll(name) : query.get(name);
    const want = call.exploded.has(name) ? (value as unknown[]).map(String) : String(value);
    if (JSON.stringify(got) != JSON.stringify(want)) return `query ${name} arrived as ${JSON.stringify(got)}, not ${JSON.stringify(want)}`;
  }
  if (call.body === undefined) return arrival.body.length ? `a body arrived: ${arrival.body}` : undefined;
  if (call.contentType && arrival.contentType != call.contentType) return `content-type arrived as ${arrival.contentType}`;
  const want = call.body instanceof Uint8Array ? Buffer.from(call.body) : typeof call.body == "string" ? Buffer.from(call.body) : undefined;
  if (want) return want.equals(arrival.body) ? undefined : `body arrived as ${arrival.body.toString("hex")}`;
  // Key order carries no meaning in JSON (a `url` beside a route travels apart and comes last).
  const got = arrival.body.toString("utf8");
  return canonical(JSON.parse(got)) == canonical(call.body) ? undefined : `body arrived as ${got.slice(0, 300)}`;
}

/** Undefined when Prism accepts the operation and it arrives unchanged; otherwise why not. */
async function check(lib: Lib, operation: Operation): Promise<string | undefined> {
  let reason = "";
  // oneOf/anyOf branches and optional properties are the generator's choices: the first combination
  // Prism accepts is compared; a refusal of every one is the operation's failure.
  for (const [variant, all] of [[0, true], [1, true], [0, false], [1, false], [2, false]] as const) {
    const call = makeCall(operation, variant, all);
    const id = String(++sequence);
    call.options.headers = { authorization: "token oracle-token", "x-oracle-id": id, ...(call.contentType ? { "content-type": call.contentType } : {}) };
    call.options.baseUrl = baseUrl;
    call.options.request = { signal: AbortSignal.timeout(20_000) };
    let response: Response;
    try {
      response = await fetch(...lib.toFetch(lib.endpoint(call.route, call.options)));
    } catch (error) {
      return `not sent: ${(error as Error).message}`;
    }
    const text = await response.text();
    if (response.status == 422 && text.includes("Invalid request")) {
      reason = `refused: ${JSON.stringify(JSON.parse(text).validation).slice(0, 400)}`;
      continue;
    }
    const arrival = arrivals.get(id);
    if (!arrival) return `status ${response.status} and nothing arrived: ${text.slice(0, 200)}`;
    arrivals.delete(id);
    return changed(call, operation, arrival);
  }
  return reason;
}

/** Run `task` over `items`, `width` at a time. */
async function pool<T, R>(items: T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  }));
  return results;
}

// ---------------------------------------------------------------------------------------------------

const oracle = suite("GitHub's OpenAPI description through Prism");
oracle.before(startPrism);
oracle.after(() => {
  prism?.kill();
  recorder?.close();
});

for (const [name, lib] of [["source", source], ["dist/endpoint.mjs", esm as Lib], ["dist/endpoint.cjs", cjs]] as const) {
  oracle(`${name}: every operation is accepted and arrives unchanged, but those the README excuses`, async () => {
    const excused = excusedInReadme();
    const outcomes = await pool(operations, 8, (operation) => check(lib, operation));
    const failed = new Map<string, string>();
    outcomes.forEach((outcome, i) => outcome !== undefined && failed.set(`${operations[i]!.method} ${operations[i]!.path}`, outcome));
    const accepted = operations.length - failed.size;
    console.log(`\n    ${name}: ${accepted}/${operations.length} operations accepted`);
    const unexcused = [...failed].filter(([route]) => !excused.has(route));
    assert.equal(unexcused, [], `failures the README does not excuse:\n${unexcused.map(([route, why]) => `${route}: ${why}`).join("\n")}`);
    const stale = [...excused.keys()].filter((route) => !failed.has(route));
    assert.equal(stale, [], "the README excuses operations that now pass");
    if (!only) assert.ok(operations.length > 1000, `only ${operations.length} operations`);
  });
}

oracle.run();
