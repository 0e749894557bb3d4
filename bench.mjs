// npm run bench — time endpoint-options against @octokit/endpoint and a hand-written floor.
// Every candidate is first checked to build the same request as ours (method case and user-agent
// aside); only then is it timed. Each sample runs a batch of calls, so timer resolution does not
// swamp sub-microsecond operations.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { endpoint as octokit } from "@octokit/endpoint";
import createClient from "openapi-fetch";
import { Bench } from "tinybench";
import { parseTemplate as urlTemplate } from "url-template";
import { endpoint, parseTemplate, withOpenAPI } from "./dist/endpoint.mjs";
import { descriptionName, directoryFiles, readDescription } from "./fixtures/directory.mjs";
import { hostileInputs } from "./fixtures/hostile.mjs";
import { conversionOf, swaggerDescriptions } from "./fixtures/swagger.mjs";
import { ACCEPT, callOf, credentialsFor, normalize, UA } from "./fixtures/testkit.mjs";
import { CHECK_OPTIONS, oursCall, peerCall, TYPED_APIS } from "./fixtures/typed-calls.mjs";

/** The chart's candidates and their colours. */
const CHART_COLORS = {
  "endpoint-options": "#2f6fdf",
  "endpoint-options, no dot": "#8fb3ef",
  withOpenAPI: "#6a4fd0",
  "withOpenAPI, its header by hand": "#a493e3",
  "withOpenAPI, credentials": "#4a2fa0",
  "withOpenAPI, by route": "#6a4fd0",
  "withOpenAPI, by operationId": "#8a6ff0",
  "@octokit/endpoint": "#a0a0a0",
  "hand-written": "#3aa76d",
  "url-template": "#c9a227",
  "openapi-fetch 0.17": "#d0743c",
};
/** Where the bars start, how wide the widest is, a bar's height and the gap between bars. */
const CHART = { left: 400, width: 400, bar: 13, gap: 3 };
const escapeXml = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
/** A time's bar length: ns on a logarithmic scale from 50 ns to 20 µs. */
const barLength = (ns) => (Math.log10(ns / 50) / Math.log10(20000 / 50)) * CHART.width;

const BATCH = 100;

/** GitHub's everyday calls: 8 of them, 12 times over, through the typed endpoint and a `defaults({ owner, repo })` level. */
const GITHUB_CALLS = [
  `("POST /repos/{owner}/{repo}/issues", { owner: "o", repo: "r", title: "t", labels: ["bug"] });`,
  `("GET /repos/{owner}/{repo}/issues", { owner: "o", repo: "r", per_page: 5, state: "open" });`,
  `("GET /repos/{owner}/{repo}/pulls/{pull_number}", { owner: "o", repo: "r", pull_number: 1 });`,
  `("PATCH /repos/{owner}/{repo}", { owner: "o", repo: "r", private: true });`,
  `("GET /user/repos", { per_page: 10 });`,
  `("PUT /repos/{owner}/{repo}/contents/{path}", { owner: "o", repo: "r", path: "a.md", message: "m", content: "x" });`,
  `("GET /search/issues", { q: "is:open" });`,
  `("DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}", { owner: "o", repo: "r", comment_id: 1 });`,
];

// --- Hand-written floor: one function per route, as a person would write it --------------------
const enc = encodeURIComponent;
const floor = {
  get: (o) => ({
    method: "get",
    url: `https://api.github.com/repos/${enc(o.owner)}/${enc(o.repo)}/issues?state=${enc(o.state)}&labels=${enc(o.labels)}&per_page=${enc(o.per_page)}`,
    headers: { accept: ACCEPT, "user-agent": UA },
  }),
  post: (o) => ({
    method: "post",
    url: `https://api.github.com/repos/${enc(o.owner)}/${enc(o.repo)}/issues`,
    headers: { accept: ACCEPT, "user-agent": UA, "content-type": "application/json; charset=utf-8" },
    body: { title: o.title, body: o.body, labels: o.labels },
  }),
};

// --- Workloads ----------------------------------------------------------------------------------
// GitHub's own kind of values: a dotted repository, a file path with "/", a tag, non-ASCII titles and commit
// messages. Every call builds its options object afresh, as code that passes `{ owner, repo, ... }` does.
const authorization = "token 0123456789abcdef0123456789abcdef01234567";
const oursAuthed = endpoint.defaults({ headers: { authorization }, owner: "vercel", repo: "next.js" });
const octokitAuthed = octokit.defaults({ headers: { authorization }, owner: "vercel", repo: "next.js" });

const getOptions = () => ({
  owner: "vercel",
  repo: "next.js",
  state: "open",
  labels: "bug,good first issue",
  per_page: 100,
});
const postOptions = () => ({
  owner: "vercel",
  repo: "next.js",
  title: "Build fails on Windows: “ENOENT” ✗",
  body: "Steps: `next build` in C:\\Users\\Jürgen",
  labels: ["bug", "windows"],
});
// The same issue in a repository without a dot, to show what a dot costs.
const plainPostOptions = () => ({
  owner: "vercel",
  repo: "next-js",
  title: "Build fails on Windows: “ENOENT” ✗",
  body: "Steps: `next build` in C:\\Users\\Jürgen",
  labels: ["bug", "windows"],
});
const contentsOptions = () => ({
  owner: "vercel",
  repo: "next.js",
  path: "docs/01-app/getting-started.mdx",
  message: "docs: fix a typo — thanks @mona ✓",
  content: "SGVsbG8sIHdvcmxkIQ==",
  branch: "canary",
});
const upload = "POST https://uploads.github.com/repos/{owner}/{repo}/releases/{release_id}/assets{?name,label}";
const uploadOptions = () => ({
  owner: "vercel",
  repo: "next.js",
  release_id: 1,
  name: "next-15.0.3.tgz",
  label: "Next.js 15.0.3 — tarball",
  data: "tarball bytes",
  headers: { "content-type": "application/gzip" },
});
const diffOptions = () => ({ owner: "vercel", repo: "next.js", pull_number: 71234, mediaType: { format: "diff" } });

// An SDK's call site: one function that every method goes through, with whatever route and options it is given.
const sdkCalls = [
  ["GET /repos/{owner}/{repo}", () => ({ owner: "vercel", repo: "next.js" })],
  ["GET /repos/{owner}/{repo}/issues", getOptions],
  ["POST /repos/{owner}/{repo}/issues", postOptions],
  ["GET /repos/{owner}/{repo}/pulls/{pull_number}", () => ({ owner: "facebook", repo: "react", pull_number: 31000 })],
  [
    "GET /repos/{owner}/{repo}/contents/{path}",
    () => ({ owner: "nodejs", repo: "node", path: "doc/api/fs.md", ref: "v22.11.0" }),
  ],
  ["PUT /repos/{owner}/{repo}/contents/{path}", contentsOptions],
  ["GET /repos/{owner}/{repo}/releases/tags/{tag}", () => ({ owner: "socketio", repo: "socket.io", tag: "4.8.1" })],
  ["GET /repos/{owner}/{repo}/git/ref/{ref}", () => ({ owner: "vuejs", repo: "vue.js", ref: "heads/main" })],
  [
    "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
    () => ({ owner: "denoland", repo: "deno", issue_number: 26000, body: "Gleiche Ausgabe hier — 同じ ✓" }),
  ],
  ["GET /search/issues", () => ({ q: "repo:vercel/next.js is:open label:bug", per_page: 50 })],
  ["GET /users/{username}", () => ({ username: "mona.lisa-octo" })],
  [
    "PATCH /repos/{owner}/{repo}/issues/{issue_number}",
    () => ({ owner: "vercel", repo: "next.js", issue_number: 42, state: "closed", state_reason: "completed" }),
  ],
];
const sdk = (send) => () => {
  for (const [route, options] of sdkCalls) send(route, options());
};

// Every operation of GitHub's OpenAPI description, called with its path parameters (and per_page or a
// body key), each from a fresh object: an SDK covering the whole API. And 10 of them, spread over the list.
const description = JSON.parse(readFileSync("node_modules/@octokit/openapi/generated/api.github.com.json", "utf8"));
const operations = [];
for (const [path, item] of Object.entries(description.paths)) {
  for (const method of ["get", "put", "post", "delete", "patch", "head"]) {
    if (!item[method]) continue;
    const options = {};
    let i = 0;
    for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
      options[name] = /_(id|number)$/.test(name) ? 1000 + i++ : `${name}.v${i++}`;
    }
    Object.assign(options, method === "get" ? { per_page: 100 } : { name: "x" });
    operations.push([`${method.toUpperCase()} ${path}`, options]);
  }
}
const tenOperations = Array.from({ length: 10 }, (_, k) => operations[Math.floor((k * operations.length) / 10)]);
const roundRobin = (routes, fn) => () => {
  for (let i = 0; i < routes.length; i++) fn(routes[i][0], { ...routes[i][1] });
};

const workloads = [
  {
    name: "GET /repos/{owner}/{repo}/issues + 3 query parameters",
    ops: 1,
    candidates: {
      "endpoint-options": () => endpoint("GET /repos/{owner}/{repo}/issues", getOptions()),
      "@octokit/endpoint": () => octokit("GET /repos/{owner}/{repo}/issues", getOptions()),
      "hand-written": () => floor.get(getOptions()),
    },
  },
  {
    name: "POST /repos/{owner}/{repo}/issues + JSON body of 3 keys",
    ops: 1,
    candidates: {
      "endpoint-options": () => endpoint("POST /repos/{owner}/{repo}/issues", postOptions()),
      "@octokit/endpoint": () => octokit("POST /repos/{owner}/{repo}/issues", postOptions()),
      "hand-written": () => floor.post(postOptions()),
    },
  },
  // Checked against octokit with the same values, as "endpoint-options" is against the others.
  {
    name: "the same POST in next.js and in next-js: what a dot costs",
    ops: 1,
    references: {
      "endpoint-options, no dot": () => octokit("POST /repos/{owner}/{repo}/issues", plainPostOptions()),
    },
    candidates: {
      "endpoint-options": () => endpoint("POST /repos/{owner}/{repo}/issues", postOptions()),
      "endpoint-options, no dot": () => endpoint("POST /repos/{owner}/{repo}/issues", plainPostOptions()),
    },
  },
  {
    name: "PUT /repos/{owner}/{repo}/contents/{path}, a file path",
    ops: 1,
    candidates: {
      "endpoint-options": () => endpoint("PUT /repos/{owner}/{repo}/contents/{path}", contentsOptions()),
      "@octokit/endpoint": () => octokit("PUT /repos/{owner}/{repo}/contents/{path}", contentsOptions()),
    },
  },
  {
    name: "defaults({ headers, owner, repo }) + GET a release by tag",
    ops: 1,
    candidates: {
      "endpoint-options": () => oursAuthed("GET /repos/{owner}/{repo}/releases/tags/{tag}", { tag: "v15.0.3" }),
      "@octokit/endpoint": () => octokitAuthed("GET /repos/{owner}/{repo}/releases/tags/{tag}", { tag: "v15.0.3" }),
    },
  },
  {
    name: "POST upload URL {?name,label} with data",
    ops: 1,
    candidates: {
      "endpoint-options": () => endpoint(upload, uploadOptions()),
      "@octokit/endpoint": () => octokit(upload, uploadOptions()),
    },
  },
  {
    name: 'mediaType: { format: "diff" } on GET a pull request',
    ops: 1,
    candidates: {
      "endpoint-options": () => endpoint("GET /repos/{owner}/{repo}/pulls/{pull_number}", diffOptions()),
      "@octokit/endpoint": () => octokit("GET /repos/{owner}/{repo}/pulls/{pull_number}", diffOptions()),
    },
  },
  {
    name: `an SDK's one call site, ${sdkCalls.length} everyday routes in turn`,
    ops: sdkCalls.length,
    routes: sdkCalls.map(([route, options]) => [route, options()]),
    candidates: {
      "endpoint-options": sdk(endpoint),
      "@octokit/endpoint": sdk(octokit),
    },
  },
  {
    name: `round-robin over all ${operations.length} operations of GitHub's OpenAPI description`,
    ops: operations.length,
    routes: operations,
    candidates: {
      "endpoint-options": roundRobin(operations, endpoint),
      "@octokit/endpoint": roundRobin(operations, octokit),
    },
  },
  {
    name: "round-robin over 10 of those operations",
    ops: tenOperations.length,
    routes: tenOperations,
    candidates: {
      "endpoint-options": roundRobin(tenOperations, endpoint),
      "@octokit/endpoint": roundRobin(tenOperations, octokit),
    },
  },
];

// --- Any OpenAPI API: petstore through withOpenAPI, beside the plain endpoint and openapi-fetch ----------
// withOpenAPI reads the server and media types from the description; the plain endpoint is given them (and
// the exploded list as a route recipe) so that both build the same request. openapi-fetch builds a `Request`
// and calls the `fetch` it is given, which answers at once with an empty 204; it is timed up to that call.
const petstore = JSON.parse(readFileSync("node_modules/@readme/oas-examples/3.0/json/petstore.json", "utf8"));
// Petstore's operations need its OAuth 2 token, GET /pet/{petId} its API key, PUT /user/{username} nothing: given
// once, by the schemes' names, each goes where its scheme says; the plain endpoint is given the same header.
const TOKEN = "t0ken";
const KEY = "special-key";
const pets = withOpenAPI(endpoint, petstore).defaults({ "auth:petstore_auth": TOKEN, "auth:api_key": KEY });
const PETSTORE = "http://petstore.swagger.io/v2";
const answered = Promise.resolve(new Response(null, { status: 204 }));
let fetched;
const client = createClient({
  baseUrl: PETSTORE,
  fetch: (request) => {
    fetched = request;
    return answered;
  },
});
const bearer = { authorization: `Bearer ${TOKEN}` };
const apiKey = { api_key: KEY };
const plainWith = (accept, credential) => endpoint.defaults({ baseUrl: PETSTORE, headers: { accept, ...credential } });
const jsonAnswer = plainWith("application/json, application/xml", bearer);
const keyed = plainWith("application/json, application/xml", apiKey);
const pet = () => ({
  name: "Rex",
  photoUrls: ["https://img.example/rex 1.png"],
  status: "available",
  tags: [{ id: 1, name: "good boy" }],
});
const user = () => ({ username: "mona.lisa", email: "mona@example.com", firstName: "Mona", lastName: "Lisa-Octo" });
const petstoreCalls = [
  [
    "GET /pet/findByStatus, an exploded list",
    jsonAnswer,
    "GET /pet/findByStatus{?status*}",
    "GET /pet/findByStatus",
    () => ({ status: ["available", "pending"] }),
    () => client.GET("/pet/findByStatus", { params: { query: { status: ["available", "pending"] } } }),
  ],
  [
    "GET /pet/{petId}",
    keyed,
    "GET /pet/{petId}",
    "GET /pet/{petId}",
    () => ({ petId: 10 }),
    () => client.GET("/pet/{petId}", { params: { path: { petId: 10 } } }),
  ],
  [
    "POST /pet, a JSON body",
    plainWith("*/*", bearer),
    "POST /pet",
    "POST /pet",
    pet,
    () => client.POST("/pet", { body: pet() }),
  ],
  [
    "PUT /user/{username}, a JSON body",
    plainWith("*/*", {}),
    "PUT /user/{username}",
    "PUT /user/{username}",
    user,
    () =>
      client.PUT("/user/{username}", {
        params: { path: { username: "mona.lisa" } },
        body: (({ username, ...rest }) => rest)(user()),
      }),
  ],
];
for (const [name, plain, recipe, route, options, peer] of petstoreCalls) {
  workloads.push({
    name: `petstore ${name}`,
    ops: 1,
    openapi: true,
    peer,
    candidates: {
      "endpoint-options": () => plain(recipe, options()),
      withOpenAPI: () => pets(route, options()),
      "openapi-fetch 0.17": peer,
    },
  });
}

// What credentials given once by scheme cost a call: the same petstore call with the key the caller set in headers
// (which meets the scheme too, and sends no credential of the library's).
const petsWithHeader = withOpenAPI(endpoint, petstore).defaults({ headers: apiKey });
workloads.push({
  name: 'petstore GET /pet/{petId}, "auth:api_key" given once, beside the key in headers',
  ops: 1,
  credentials: true,
  candidates: {
    "endpoint-options": () => keyed("GET /pet/{petId}", { petId: 10 }),
    "withOpenAPI, its header by hand": () => petsWithHeader("GET /pet/{petId}", { petId: 10 }),
    "withOpenAPI, credentials": () => pets("GET /pet/{petId}", { petId: 10 }),
  },
});

// A call by operationId, beside the same call by its route: the id is looked up once, with the route's plan.
workloads.push({
  name: "petstore GET /pet/{petId} by its operationId, getPetById",
  ops: 1,
  candidates: {
    "endpoint-options": () => keyed("GET /pet/{petId}", { petId: 10 }),
    "withOpenAPI, by route": () => pets("GET /pet/{petId}", { petId: 10 }),
    "withOpenAPI, by operationId": () => pets("getPetById", { petId: 10 }),
  },
});

// --- Swagger 2.0: the petstore's 2.0 file beside swagger2openapi's 3.0 conversion of it --------------------------
// Both are ours: the 2.0 file's plan is read from 3.0 nodes made while reading, so a call costs what the
// conversion's does (target: 1.0×, within noise).
const petstore2 = JSON.parse(readFileSync("node_modules/@readme/oas-examples/2.0/json/petstore.json", "utf8"));
const converted2 = await conversionOf(petstore2);
const [pets2, pets2Converted] = [petstore2, converted2].map((read) =>
  withOpenAPI(endpoint, read).defaults({ "auth:petstore_auth": TOKEN, "auth:api_key": KEY }),
);
workloads.push({
  name: "Swagger 2.0 petstore GET /pet/findByStatus, the 2.0 file beside its 3.0 conversion",
  ops: 1,
  candidates: {
    "endpoint-options": () => pets2("GET /pet/findByStatus", { status: ["available", "sold"] }),
    "withOpenAPI on the conversion": () => pets2Converted("GET /pet/findByStatus", { status: ["available", "sold"] }),
  },
});
/** Kubernetes 1.13's Swagger 2.0 file, from fixtures/swagger.mjs: the first-call table's 2.0 rows. */
const KUBERNETES_2 = "kubernetes-client/lib/specs/swagger-1.13.json.gz";

// --- Stripe's form bodies: withOpenAPI beside the same URLSearchParams built by hand ----------------------------
// Stripe's own description from the public API directory (its Encoding Object says deepObject for metadata,
// line_items and expand). The plain endpoint is given the form a user would otherwise build by hand, in the loop.
const stripeDescription = await readDescription(
  (await directoryFiles()).find((file) => descriptionName(file) === "stripe.com.json"),
);
// Stripe's secret key, as its basic scheme takes it: the user name, with no password.
const stripe = withOpenAPI(endpoint, stripeDescription).defaults({
  "auth:basicAuth": { username: "sk_test_4eC39HqLyjWDarjtT1zdp7dc", password: "" },
});
const stripePlain = endpoint.defaults({
  baseUrl: "https://api.stripe.com/",
  headers: {
    accept: "application/json",
    "content-type": "application/x-www-form-urlencoded",
    authorization: `Basic ${btoa("sk_test_4eC39HqLyjWDarjtT1zdp7dc:")}`,
  },
});
const session = () => ({
  mode: "payment",
  success_url: "https://shop.example/done?session={CHECKOUT_SESSION_ID}",
  metadata: { order_id: "6735", customer_note: "Gift — wrap it ✓" },
  line_items: [
    { price: "price_1Mo1", quantity: 2 },
    { price: "price_2Kx9", quantity: 1 },
  ],
  expand: ["customer", "payment_intent.payment_method"],
});
/** The form a user builds by hand for the same call, with Stripe's bracket names. */
function sessionForm({ mode, success_url, metadata, line_items, expand }) {
  const form = new URLSearchParams({ mode, success_url });
  for (const [key, value] of Object.entries(metadata)) form.append(`metadata[${key}]`, value);
  line_items.forEach(({ price, quantity }, i) => {
    form.append(`line_items[${i}][price]`, price);
    form.append(`line_items[${i}][quantity]`, String(quantity));
  });
  for (const [i, field] of expand.entries()) form.append(`expand[${i}]`, field);
  return form;
}
workloads.push({
  name: "Stripe POST /v1/checkout/sessions, a form of nested metadata, line_items and expand",
  ops: 1,
  form: true,
  candidates: {
    "endpoint-options": () => stripePlain("POST /v1/checkout/sessions", { data: sessionForm(session()) }),
    withOpenAPI: () => stripe("POST /v1/checkout/sessions", session()),
  },
});

// --- The expander alone ---------------------------------------------------------------------------
const templates = [
  [
    "/repos/{owner}/{repo}/issues{?state,labels,per_page}",
    { owner: "octocat", repo: "hello world", state: "open", labels: ["bug", "ui"], per_page: 100 },
  ],
  ["{/path*}{?query*}{#frag}", { path: ["a", "b c", "d"], query: { x: "1", y: "two words" }, frag: "top" }],
  ["/search{?q,sort,order}", { q: "language:js stars:>10", sort: "stars", order: "desc" }],
];
workloads.push({
  name: "RFC 6570 expand, 3 templates",
  ops: templates.length,
  candidates: {
    "endpoint-options": () => {
      for (const [t, v] of templates) parseTemplate(t).expand(v);
    },
    "url-template": () => {
      for (const [t, v] of templates) urlTemplate(t).expand(v);
    },
  },
});

// --- Validate, then time -------------------------------------------------------------------------
/** A request with its form body as text, to compare two that carry `URLSearchParams`. */
const formRequest = (request) => ({ ...normalize(request), body: String(request.body) });

function validate(workload) {
  if (workload.openapi) return validateOpenAPI(workload);
  if (workload.form) {
    const [ours, theirs] = [workload.candidates["endpoint-options"](), workload.candidates.withOpenAPI()];
    if (!isDeepStrictEqual(formRequest(theirs), formRequest(ours))) {
      throw new Error(
        `withOpenAPI builds another form for "${workload.name}":\n${JSON.stringify(formRequest(theirs))}`,
      );
    }
    return;
  }
  const results = {};
  for (const [name, fn] of Object.entries(workload.candidates)) {
    // What one pass builds: for round-robin and the expander, every result.
    let seen;
    if (workload.routes) {
      seen = workload.routes.map(([route, options]) =>
        (name === "endpoint-options" ? endpoint : octokit)(route, options),
      );
    } else if (workload.name.startsWith("RFC")) {
      seen = templates.map(([t, v]) => (name === "url-template" ? urlTemplate : parseTemplate)(t).expand(v));
    } else seen = [fn()];
    results[name] = seen.map((r) => (typeof r === "string" ? r : normalize(r)));
  }
  const ours = results["endpoint-options"];
  for (const [name, result] of Object.entries(results)) {
    const reference = workload.references?.[name];
    if (reference) {
      if (!isDeepStrictEqual(result, [normalize(reference())])) {
        throw new Error(`${name} builds a different request than @octokit/endpoint for "${workload.name}"`);
      }
    } else if (!isDeepStrictEqual(result, ours)) {
      const i = result.findIndex((r, k) => !isDeepStrictEqual(r, ours[k]));
      throw new Error(
        `${name} builds a different request for "${workload.name}":\n${JSON.stringify(result[i])}\nvs ours\n${JSON.stringify(ours[i])}`,
      );
    }
  }
}

/**
 * A petstore workload: withOpenAPI builds exactly the plain endpoint's request; openapi-fetch sends the same
 * method, URL and body (its headers are its own: no accept, no user-agent).
 */
async function validateOpenAPI({ name, candidates, peer }) {
  const ours = normalize(candidates["endpoint-options"]());
  const viaDescription = normalize(candidates.withOpenAPI());
  if (!isDeepStrictEqual(viaDescription, ours)) {
    throw new Error(
      `withOpenAPI builds a different request for "${name}":\n${JSON.stringify(viaDescription)}\nvs\n${JSON.stringify(ours)}`,
    );
  }
  await peer();
  const sent = {
    method: fetched.method.toLowerCase(),
    url: fetched.url,
    body: fetched.body ? JSON.parse(await fetched.text()) : undefined,
  };
  const wanted = { method: ours.method, url: ours.url, body: ours.body };
  if (!isDeepStrictEqual(sent, wanted)) {
    throw new Error(
      `openapi-fetch sends a different request for "${name}":\n${JSON.stringify(sent)}\nvs\n${JSON.stringify(wanted)}`,
    );
  }
}

// Shared machines are noisy: each workload runs in ROUNDS rounds, every candidate once per round, and a
// candidate's time is the median over rounds of its mean (garbage collection included), so two
// disturbed stretches move nothing. The order of the candidates flips every round: whichever runs first
// in a round (after the previous one's garbage, say) does so in half the rounds, not all of them. A sample
// is about BATCH calls: one pass for multi-call workloads.
const ROUNDS = 5;
const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];

async function time(workload) {
  const rounds = Object.fromEntries(Object.keys(workload.candidates).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const bench = new Bench({ time: Number(process.env.BENCH_TIME ?? 300), warmupTime: 100 });
    const passes = Math.ceil(BATCH / workload.ops);
    const candidates = Object.entries(workload.candidates);
    if (round % 2) candidates.reverse();
    for (const [name, fn] of candidates) {
      bench.add(name, () => {
        for (let i = 0; i < passes; i++) fn();
      });
    }
    await bench.run();
    for (const task of bench.tasks) rounds[task.name].push((task.result.latency.mean * 1e6) / passes / workload.ops);
  }
  return Object.fromEntries(Object.entries(rounds).map(([name, times]) => [name, median(times)]));
}

// Each workload is validated in one child process and timed in a fresh one: what one workload leaves
// behind in the engine (the shapes its calls met, its garbage) would otherwise move the next one's time.
const [flag, index] = process.argv.slice(2);
if (flag === "--first") console.log(JSON.stringify(await firstCalls(index)));
else if (flag === "--validate") await validate(workloads[index]);
else if (flag === "--time") console.log(JSON.stringify(await time(workloads[index])));
else {
  const self = fileURLToPath(import.meta.url);
  const child = (...args) =>
    execFileSync(process.execPath, [self, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const rows = [];
  for (const [i, workload] of workloads.entries()) {
    // BENCH_ONLY=text runs only the workloads whose name contains it.
    if (process.env.BENCH_ONLY && !workload.name.includes(process.env.BENCH_ONLY)) continue;
    child("--validate", String(i));
    rows.push({ workload: workload.name, ns: JSON.parse(child("--time", String(i))) });
  }

  if (rows.length) {
    console.log(`Node ${process.version}, ${cpus()[0]?.model ?? "unknown CPU"} (${cpus().length} cores)\n`);
    console.log("| workload | candidate | ns/op | × ours |");
    console.log("|---|---|---:|---:|");
    for (const { workload, ns } of rows) {
      const ours = ns["endpoint-options"];
      for (const [name, value] of Object.entries(ns)) {
        console.log(`| ${workload} | ${name} | ${value.toFixed(0)} | ${(value / ours).toFixed(2)} |`);
      }
    }
  }
  const [all, ten] = ["round-robin over all", "round-robin over 10"].map(
    (start) => rows.find((row) => row.workload.startsWith(start))?.ns["endpoint-options"],
  );
  if (all && ten) {
    console.log(
      `\nA call in a round-robin over every operation costs ${(all / ten).toFixed(2)}× one over 10 of them (target: at most 2.5×).`,
    );
  }
  const dot = rows.find((row) => row.workload.includes("what a dot costs"))?.ns;
  if (dot) {
    const ratio = dot["endpoint-options"] / dot["endpoint-options, no dot"];
    console.log(
      `A call with a dotted repository costs ${ratio.toFixed(2)}× the same call without the dot (target: at most 1.10×).`,
    );
    if (ratio > 1.1) console.log("Below target: a dot costs more than 10%.");
  }
  // withOpenAPI's target: within 1.2× of the plain endpoint building the same request.
  for (const { workload, ns } of rows) {
    if (!ns.withOpenAPI) continue;
    const ratio = ns.withOpenAPI / ns["endpoint-options"];
    const peer = ns["openapi-fetch 0.17"];
    console.log(
      `${workload}: withOpenAPI ${ratio.toFixed(2)}× the plain endpoint (target 1.2×)${ratio > 1.2 ? ": missed" : ""}` +
        (peer ? `, openapi-fetch ${(peer / ns.withOpenAPI).toFixed(1)}× withOpenAPI.` : "."),
    );
  }
  // A Swagger 2.0 file: a call costs what the same call on its 3.0 conversion does.
  for (const { workload, ns } of rows) {
    const converted = ns["withOpenAPI on the conversion"];
    if (!converted) continue;
    const ratio = ns["endpoint-options"] / converted;
    console.log(`${workload}: the 2.0 file ${ratio.toFixed(2)}× its conversion (target 1.0×, within noise).`);
  }
  // Credentials given once: within 1.1× of the same call that sends the caller's own header.
  for (const { workload, ns } of rows) {
    const [given, own] = [ns["withOpenAPI, credentials"], ns["withOpenAPI, its header by hand"]];
    if (!given || !own) continue;
    const ratio = given / own;
    console.log(
      `${workload}: credentials ${ratio.toFixed(2)}× the header by hand (target 1.1×)${ratio > 1.1 ? ": missed" : ""}.`,
    );
  }
  // A call by operationId: within 1.05× of the same call by its route.
  for (const { workload, ns } of rows) {
    const [id, route] = [ns["withOpenAPI, by operationId"], ns["withOpenAPI, by route"]];
    if (!id || !route) continue;
    const ratio = id / route;
    console.log(
      `${workload}: ${ratio.toFixed(2)}× the call by its route (target 1.05×)${ratio > 1.05 ? ": missed" : ""}.`,
    );
  }
  // The target: at least 10× @octokit/endpoint on every workload. What the hand-written floor costs, as measured.
  for (const { workload, ns } of rows) {
    const ours = ns["endpoint-options"];
    if (ns["@octokit/endpoint"] && ns["@octokit/endpoint"] / ours < 10) {
      console.log(
        `Below target: ${workload} is ${(ns["@octokit/endpoint"] / ours).toFixed(1)}× @octokit/endpoint (target 10×).`,
      );
    }
    if (ns["hand-written"]) {
      console.log(`${workload}: ${(ours / ns["hand-written"]).toFixed(2)}× the hand-written floor.`);
    }
  }
  if (!process.env.BENCH_ONLY) {
    writeFileSync("bench.svg", chart(rows, await sizes()));
    console.log("\nbench.svg: the chart of this run.");
  }

  // Hostile input: each ~1 MB input as the first call of a fresh process that loaded nothing else (cold),
  // three times, the median.
  // The first call of each operation of a big description reads that operation (once); measured in a fresh
  // process per description, every operation's first call, then its second.
  if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === "first") {
    console.log("\n| first call of an operation, cold | operations | first call, median | p95 | later calls, median |");
    console.log("|---|---:|---:|---:|---:|");
    for (const name of ["stripe.com.json", "kubernetes.io.json", `${KUBERNETES_2} 2.0`, `${KUBERNETES_2} 3.0`]) {
      const { count, first, p95, later } = JSON.parse(child("--first", name));
      console.log(`| ${name} | ${count} | ${first.toFixed(0)} µs | ${p95.toFixed(0)} µs | ${later.toFixed(1)} µs |`);
    }
  }

  if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === "hostile") {
    console.log("\n| hostile input (~1 MB), cold | ms | outcome |");
    console.log("|---|---:|---|");
    const hostile = fileURLToPath(new URL("fixtures/hostile.mjs", import.meta.url));
    for (const name of Object.keys(hostileInputs({}))) {
      const runs = Array.from({ length: 3 }, () =>
        JSON.parse(execFileSync(process.execPath, [hostile, name], { encoding: "utf8" })),
      ).sort((a, b) => a.ms - b.ms);
      const { ms, message } = runs[runs.length >> 1];
      console.log(
        `| ${name} | ${ms.toFixed(0)} | ${message ? "TypeError" : "result"}${ms > 150 ? ", over the 150 ms aim" : ""} |`,
      );
    }
  }

  // Type-checking: GitHub's calls through `OpenAPIEndpoint<paths>` and through @octokit/types' RequestInterface (what
  // `octokit.request` is); Stripe's, Kubernetes' and Zoom's through `withOpenAPI<paths>()` and openapi-fetch's
  // `createClient<paths>()`. Each file is checked alone by `tsc --extendedDiagnostics`, every file once per round,
  // rounds interleaved; the median of each is printed, and ours over the peer's.
  if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === "types") {
    console.log(
      "\n| type-checking | TypeScript | ours: check time | memory | peer: check time | memory | ours × peer |",
    );
    console.log("|---|---|---:|---:|---:|---:|---:|");
    for (const row of typeCheckTimes()) {
      const { name, compiler, ours, peer } = row;
      const ratio = (ours.check / peer.check).toFixed(2);
      console.log(
        `| ${name} | ${compiler} | ${ours.check.toFixed(2)} s | ${ours.memory} MB | ${peer.check.toFixed(2)} s | ${peer.memory} MB | ${ratio} |`,
      );
    }
  }
}

/**
 * Every operation of a directory description called twice through a fresh `withOpenAPI`, with the values a user
 * would pass (testkit's): the first call's time (reading the operation), in µs, median and p95, and the second's.
 */
async function firstCalls(name) {
  const [read, big] = await firstCallDescriptions(name);
  const api = withOpenAPI(endpoint.defaults({ baseUrl: "https://api.example" }), read).defaults(credentialsFor(big));
  const calls = [];
  for (const [path, item] of Object.entries(big.paths)) {
    for (const method of ["get", "put", "post", "delete", "patch"]) {
      if (!item[method]) continue;
      const { options } = callOf(big, item, item[method]);
      calls.push([`${method.toUpperCase()} ${path}`, options]);
    }
  }
  const timed = ([route, options]) => {
    const start = performance.now();
    try {
      api(route, options);
    } catch {}
    return (performance.now() - start) * 1000;
  };
  const first = calls.map(timed).sort((a, b) => a - b);
  const later = calls.map(timed).sort((a, b) => a - b);
  const at = (list, share) => list[Math.floor(list.length * share)];
  return { count: calls.length, first: at(first, 0.5), p95: at(first, 0.95), later: at(later, 0.5) };
}

/**
 * What a first-call row reads, and the 3.x description its values come from: a directory description for both;
 * for `<2.0 file> 2.0` or `<2.0 file> 3.0`, the 2.0 file or swagger2openapi's conversion, values from the conversion.
 */
async function firstCallDescriptions(name) {
  const [file, version] = name.split(" ");
  if (!version) {
    const described = await readDescription((await directoryFiles()).find((found) => descriptionName(found) === name));
    return [described, described];
  }
  const [, swagger] = (await swaggerDescriptions()).find(([found]) => found === file);
  const openapi = await conversionOf(swagger);
  return [version === "2.0" ? swagger : openapi, openapi];
}

/** The files to check: for each API, ours and the peer's, as `{ name, ours, peer }` file texts. */
function typeCheckFiles() {
  const github = (head) => {
    let text = head + `const repo = github.defaults({ owner: "o", repo: "r" });\n`;
    for (let round = 0; round < 12; round++) for (const call of GITHUB_CALLS) text += `github${call}\nrepo${call}\n`;
    return text;
  };
  const files = [
    {
      name: "192 GitHub calls: OpenAPIEndpoint, @octokit/types RequestInterface",
      ours: github(
        `import type { paths } from "@octokit/openapi-types";\nimport { endpoint, type OpenAPIEndpoint } from "../../../dist/endpoint.mjs";\nconst github = endpoint as OpenAPIEndpoint<paths>;\n`,
      ),
      peer: github(
        `import type { RequestInterface } from "@octokit/types";\ndeclare const github: RequestInterface;\n`,
      ),
    },
  ];
  for (const api of TYPED_APIS) {
    const paths = `import type { paths } from "../../../fixtures/${api.name}.paths.js";\n`;
    // The everyday calls alone, then with one mistake of each kind, as a file being edited holds both.
    for (const calls of [api.calls, [...api.calls, ...Object.values(api.mistakes)]]) {
      const mistakes = calls.length - api.calls.length;
      files.push({
        name: `${api.title}: ${api.calls.length} calls${mistakes ? ` and ${mistakes} mistakes` : ""}, withOpenAPI, openapi-fetch`,
        ours:
          paths +
          `import { endpoint, withOpenAPI } from "../../../dist/endpoint.mjs";\nconst api = withOpenAPI<paths>(endpoint, { paths: {} });\n` +
          calls.map((call) => oursCall("api", call)).join("\n"),
        peer:
          paths +
          `import createClient from "openapi-fetch";\nconst api = createClient<paths>();\n` +
          calls.map((call) => peerCall("api", call)).join("\n"),
      });
    }
  }
  return files;
}

/** One file's `tsc --extendedDiagnostics`: its check time in seconds and memory in MB. */
function checkFile(dir, tsc, text) {
  writeFileSync(join(dir, "calls.ts"), text);
  const root = dirname(fileURLToPath(import.meta.url));
  // A file the peer gets wrong still checks (Kubernetes' patches through openapi-fetch): tsc then exits 2.
  let output;
  try {
    output = execFileSync(
      process.execPath,
      [join(root, "node_modules", tsc, "bin", "tsc"), "-p", dir, "--extendedDiagnostics"],
      {
        encoding: "utf8",
      },
    );
  } catch (error) {
    output = error.stdout;
  }
  const stat = (name) => output.match(new RegExp(`^${name}:\\s+(\\S+)`, "m"))?.[1];
  return { check: parseFloat(stat("Check time")), memory: Math.round(parseFloat(stat("Memory used")) / 1024) };
}

/**
 * Every file through both compilers, `rounds` times, interleaved (each round checks every file once), so that a busy
 * spell on the machine falls on ours and the peer alike; the median round of each.
 */
function typeCheckTimes(rounds = 3) {
  const root = dirname(fileURLToPath(import.meta.url));
  if (TYPED_APIS.some(({ name }) => !existsSync(join(root, "fixtures", `${name}.paths.d.ts`)))) {
    execFileSync(process.execPath, ["test.mjs", "--paths"], { cwd: root, stdio: "inherit" });
  }
  const dir = join(root, "node_modules", ".cache", "endpoint-options-bench");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: CHECK_OPTIONS, files: ["calls.ts"] }));
  const compilers = [
    ["7", "typescript7"],
    ["5.9", "typescript"],
  ];
  const rows = typeCheckFiles().flatMap((file) =>
    compilers.map(([compiler, tsc]) => ({ ...file, compiler, tsc, times: { ours: [], peer: [] } })),
  );
  for (let round = 0; round < rounds; round++) {
    for (const row of rows) {
      for (const side of ["ours", "peer"]) row.times[side].push(checkFile(dir, row.tsc, row[side]));
    }
  }
  rmSync(dir, { recursive: true });
  const middle = (list) => [...list].sort((a, b) => a.check - b.check)[list.length >> 1];
  return rows.map(({ name, compiler, times }) => ({
    name,
    compiler,
    ours: middle(times.ours),
    peer: middle(times.peer),
  }));
}

/** Gzip sizes of the CDN bundle, `endpoint` alone, and @octokit/endpoint, as `npm run size` measures them. */
async function sizes() {
  const { measure, endpointAlone } = await import("./size.mjs");
  return [
    ["endpoint-options, CDN bundle", measure(readFileSync("dist/endpoint.min.js")).gzip],
    ["endpoint-options, endpoint alone", measure(await endpointAlone("./dist/endpoint.mjs")).gzip],
    ["@octokit/endpoint + universal-user-agent", measure(await endpointAlone("@octokit/endpoint")).gzip],
  ];
}

/** Gridlines at 100 ns, 1 µs and 10 µs, down the height of the bars. */
function chartGrid(rows) {
  const { left, bar, gap } = CHART;
  const height = rows.reduce((sum, row) => sum + Object.keys(row.ns).length * (bar + gap) + 10, 0);
  return [
    [100, "100 ns"],
    [1000, "1 µs"],
    [10000, "10 µs"],
  ].flatMap(([ns, label]) => [
    `<line x1="${left + barLength(ns)}" x2="${left + barLength(ns)}" y1="40" y2="${40 + height}" stroke="#ddd"/>`,
    `<text x="${left + barLength(ns)}" y="38" font-size="9" fill="#777" text-anchor="middle">${label}</text>`,
  ]);
}

/** Each workload's bars, from `y` down; returns the SVG and where it ends. */
function chartBars(rows, y) {
  const { left, bar, gap } = CHART;
  const out = [];
  for (const { workload, ns } of rows) {
    const names = Object.keys(ns);
    const title = workload.length > 62 ? workload.slice(0, 61) + "…" : workload;
    out.push(
      `<text x="${left - 10}" y="${y + ((bar + gap) * names.length) / 2 + 4}" text-anchor="end">${escapeXml(title)}</text>`,
    );
    for (const name of names) {
      const length = barLength(ns[name]);
      out.push(
        `<rect x="${left}" y="${y}" width="${length.toFixed(1)}" height="${bar}" fill="${CHART_COLORS[name]}"/>`,
      );
      out.push(`<text x="${left + length + 4}" y="${y + bar - 3}" font-size="10">${ns[name].toFixed(0)} ns</text>`);
      y += bar + gap;
    }
    y += 10;
  }
  return { out, y };
}

/** The bundle sizes as bars, from `y` down; returns the SVG and where it ends. */
function chartBundles(bundles, y) {
  const { left, width, bar, gap } = CHART;
  const out = [`<text x="10" y="${y}" font-weight="bold">Bundle size, gzip</text>`];
  y += 12;
  const biggest = Math.max(...bundles.map(([, bytes]) => bytes));
  for (const [name, bytes] of bundles) {
    const color = name.startsWith("@") ? CHART_COLORS["@octokit/endpoint"] : CHART_COLORS["endpoint-options"];
    out.push(`<text x="${left - 10}" y="${y + bar - 3}" text-anchor="end">${escapeXml(name)}</text>`);
    out.push(
      `<rect x="${left}" y="${y}" width="${((bytes / biggest) * width).toFixed(1)}" height="${bar}" fill="${color}"/>`,
    );
    out.push(`<text x="${left + (bytes / biggest) * width + 4}" y="${y + bar - 3}" font-size="10">${bytes} B</text>`);
    y += bar + gap + 4;
  }
  return { out, y };
}

/**
 * An SVG chart of the run: per workload, ns per call of each candidate as bars on a logarithmic scale
 * (octokit is 10–30× ours, the floor a third of it), then the bundle sizes. Written by hand: no charting
 * library for one picture.
 */
function chart(rows, bundles) {
  const bars = chartBars(rows, 48);
  const bundleBars = chartBundles(bundles, bars.y + 20);
  const legend = Object.entries(CHART_COLORS).map(
    ([name, color], i) =>
      `<rect x="${10 + i * 150}" y="8" width="10" height="10" fill="${color}"/><text x="${24 + i * 150}" y="17">${name}</text>`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART.left + CHART.width + 90}" height="${bundleBars.y + 10}" font-family="system-ui, sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="30" font-size="10" fill="#555">ns per call, log scale: shorter is faster (Node ${escapeXml(process.version)}, ${escapeXml(cpus()[0]?.model ?? "")})</text>`,
    ...legend,
    ...chartGrid(rows),
    ...bars.out,
    ...bundleBars.out,
    "</svg>",
    "",
  ].join("\n");
}
