// npm run bench — time endpoint-options against @octokit/endpoint and a hand-written floor.
// Every candidate is first checked to build the same request as ours (method case and user-agent
// aside); only then is it timed. Each sample runs a batch of calls, so timer resolution does not
// swamp sub-microsecond operations.
import { Bench } from "tinybench";
import { isDeepStrictEqual } from "node:util";
import { cpus } from "node:os";
import { endpoint, parseTemplate } from "./dist/endpoint.mjs";
import { endpoint as octokit } from "@octokit/endpoint";
import { parseTemplate as urlTemplate } from "url-template";
import Endpoints from "./node_modules/@octokit/plugin-rest-endpoint-methods/dist-src/generated/endpoints.js";

const BATCH = 100;
const UA = endpoint.DEFAULTS.headers["user-agent"];
const ACCEPT = "application/vnd.github.v3+json";

/** A request in one shape for comparing: lowercase method, our user-agent, plain objects. */
function normalize(request) {
  const plain = JSON.parse(JSON.stringify(request));
  plain.method = plain.method.toLowerCase();
  plain.headers["user-agent"] = UA;
  return plain;
}

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
const authorization = "token 0123456789abcdef0123456789abcdef01234567";
const oursAuthed = endpoint.defaults({ headers: { authorization } });
const octokitAuthed = octokit.defaults({ headers: { authorization } });

const getOptions = { owner: "octocat", repo: "hello-world", state: "open", labels: "bug,ui", per_page: 100 };
const postOptions = { owner: "octocat", repo: "hello-world", title: "Found a bug", body: "It breaks.", labels: ["bug"] };
const upload = "POST https://uploads.github.com/repos/{owner}/{repo}/releases/{release_id}/assets{?name,label}";
const uploadOptions = { owner: "octocat", repo: "hello-world", release_id: 1, name: "example.zip", label: "short description", data: "zip bytes", headers: { "content-type": "application/zip" } };
const diffOptions = { owner: "octocat", repo: "hello-world", pull_number: 1347, mediaType: { format: "diff" } };

const routes = [];
for (const methods of Object.values(Endpoints)) {
  for (const [route, defaults = {}] of Object.values(methods)) {
    const options = { ...defaults };
    let i = 0;
    for (const [, expression] of route.matchAll(/\{([^}]+)\}/g)) {
      for (const name of expression.replace(/^[?+#./;&]/, "").split(",")) options[name] = name.endsWith("_id") ? 1000 + i++ : `${name}-${i++}`;
    }
    if (route.includes("{origin}")) options.origin = "https://uploads.github.com";
    Object.assign(options, route.startsWith("GET ") ? { per_page: 100 } : { name: "x" });
    routes.push([route, options]);
  }
}
const roundRobin = (fn) => () => {
  for (let i = 0; i < routes.length; i++) fn(routes[i][0], routes[i][1]);
};

const workloads = [
  { name: "GET /repos/{owner}/{repo}/issues + 3 query parameters", ops: 1, candidates: {
    "endpoint-options": () => endpoint("GET /repos/{owner}/{repo}/issues", getOptions),
    "@octokit/endpoint": () => octokit("GET /repos/{owner}/{repo}/issues", getOptions),
    "hand-written": () => floor.get(getOptions),
  } },
  { name: "POST /repos/{owner}/{repo}/issues + JSON body of 3 keys", ops: 1, candidates: {
    "endpoint-options": () => endpoint("POST /repos/{owner}/{repo}/issues", postOptions),
    "@octokit/endpoint": () => octokit("POST /repos/{owner}/{repo}/issues", postOptions),
    "hand-written": () => floor.post(postOptions),
  } },
  { name: "defaults({ headers: { authorization } }) + GET /orgs/{org}/repos", ops: 1, candidates: {
    "endpoint-options": () => oursAuthed("GET /orgs/{org}/repos", { org: "octokit" }),
    "@octokit/endpoint": () => octokitAuthed("GET /orgs/{org}/repos", { org: "octokit" }),
  } },
  { name: "POST upload URL {?name,label} with data", ops: 1, candidates: {
    "endpoint-options": () => endpoint(upload, uploadOptions),
    "@octokit/endpoint": () => octokit(upload, uploadOptions),
  } },
  { name: "mediaType: { format: \"diff\" } on GET a pull request", ops: 1, candidates: {
    "endpoint-options": () => endpoint("GET /repos/{owner}/{repo}/pulls/{pull_number}", diffOptions),
    "@octokit/endpoint": () => octokit("GET /repos/{owner}/{repo}/pulls/{pull_number}", diffOptions),
  } },
  { name: `round-robin over all ${routes.length} GitHub REST routes`, ops: routes.length, candidates: {
    "endpoint-options": roundRobin(endpoint),
    "@octokit/endpoint": roundRobin(octokit),
  } },
];

// --- The expander alone ---------------------------------------------------------------------------
const templates = [
  ["/repos/{owner}/{repo}/issues{?state,labels,per_page}", { owner: "octocat", repo: "hello world", state: "open", labels: ["bug", "ui"], per_page: 100 }],
  ["{/path*}{?query*}{#frag}", { path: ["a", "b c", "d"], query: { x: "1", y: "two words" }, frag: "top" }],
  ["/search{?q,sort,order}", { q: "language:js stars:>10", sort: "stars", order: "desc" }],
];
workloads.push({ name: "RFC 6570 expand, 3 templates", ops: templates.length, candidates: {
  "endpoint-options": () => { for (const [t, v] of templates) parseTemplate(t).expand(v); },
  "url-template": () => { for (const [t, v] of templates) urlTemplate(t).expand(v); },
} });

// --- Validate, then time -------------------------------------------------------------------------
function validate(workload) {
  const results = {};
  for (const [name, fn] of Object.entries(workload.candidates)) {
    // Capture what one batch builds: for round-robin and the expander, every result.
    const seen = [];
    const capture = (f) => (...args) => { const r = f(...args); seen.push(r); return r; };
    if (workload.ops === 1) seen.push(fn());
    else if (workload.name.startsWith("RFC")) seen.push(...templates.map(([t, v]) => (name === "url-template" ? urlTemplate : parseTemplate)(t).expand(v)));
    else roundRobin(capture(name === "endpoint-options" ? endpoint : octokit))();
    results[name] = seen.map((r) => (typeof r === "string" ? r : normalize(r)));
  }
  const ours = results["endpoint-options"];
  for (const [name, result] of Object.entries(results)) {
    if (!isDeepStrictEqual(result, ours)) {
      const i = result.findIndex((r, k) => !isDeepStrictEqual(r, ours[k]));
      throw new Error(`${name} builds a different request for "${workload.name}":\n${JSON.stringify(result[i])}\nvs ours\n${JSON.stringify(ours[i])}`);
    }
  }
}

// Shared machines are noisy: each workload runs in ROUNDS rounds, every candidate once per round, and a
// candidate's time is the median over rounds of its mean (garbage collection included), so one
// disturbed stretch moves nothing. A sample is about BATCH calls: one pass for multi-call workloads.
const ROUNDS = 3;
const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
const rows = [];
for (const workload of workloads) {
  validate(workload);
  const rounds = Object.fromEntries(Object.keys(workload.candidates).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const bench = new Bench({ time: Number(process.env.BENCH_TIME ?? 300), warmupTime: 100 });
    const passes = Math.ceil(BATCH / workload.ops);
    for (const [name, fn] of Object.entries(workload.candidates)) {
      bench.add(name, () => { for (let i = 0; i < passes; i++) fn(); });
    }
    await bench.run();
    for (const task of bench.tasks) rounds[task.name].push((task.result.latency.mean * 1e6) / passes / workload.ops);
  }
  rows.push({ workload: workload.name, ns: Object.fromEntries(Object.entries(rounds).map(([name, times]) => [name, median(times)])) });
}

console.log(`Node ${process.version}, ${cpus()[0]?.model ?? "unknown CPU"} (${cpus().length} cores)\n`);
console.log("| workload | candidate | ns/op | × ours |");
console.log("|---|---|---:|---:|");
for (const { workload, ns } of rows) {
  const ours = ns["endpoint-options"];
  for (const [name, value] of Object.entries(ns)) {
    console.log(`| ${workload} | ${name} | ${value.toFixed(0)} | ${(value / ours).toFixed(2)} |`);
  }
}
