// The unit tests, in endpoint.ts's order: the contract, the shared helpers' caches, RFC 6570 templates, options,
// building a request, toFetch(), withOpenAPI(); then the checks across all of it: every GitHub route against
// @octokit/endpoint, hostile input, properties, the shape of endpoint.ts and the size budgets.
//
// Each section runs against the source and both builds. UNIT_PART=source or builds runs half of it (npm test runs
// the halves side by side); QUICK=1 runs a quarter of the property tests. One file, one part:
//   UNIT_PART=source node --import tsx endpoint.test.ts
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { endpoint as octokit } from "@octokit/endpoint";
import fc from "fast-check";
import type * as TS from "typescript";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { URL as StandardURL } from "whatwg-url";
import * as source from "./endpoint.ts";
import { hostileInputs, timeHostile } from "./fixtures/hostile.mjs";
import {
  ACCEPT,
  builds,
  callsOf,
  JSON_TYPE,
  NAMED_OPTIONS,
  normalize,
  PRODUCTION_FIXTURES,
  published,
  RFC3986_URI,
  requestText,
  UA,
} from "./fixtures/testkit.mjs";
import { endpointAlone, measure } from "./size.mjs";

type Lib = typeof source;
const pkg = JSON.parse(readFileSync("package.json", "utf8"));
// Every GitHub REST route, from the package that generates octokit's REST methods.
const { default: Endpoints } = await import(
  "./node_modules/@octokit/plugin-rest-endpoint-methods/dist-src/generated/endpoints.js" as string
);
const fixture = (name: string) => JSON.parse(readFileSync(`fixtures/uritemplate-test/${name}`, "utf8"));

/** Property-test runs: a quarter in the quick loop. */
const runs = (count: number) => (process.env.QUICK ? Math.ceil(count / 4) : count);

/** Assert `fn` throws a TypeError whose message contains every one of `parts`. */
function throwsType(fn: () => unknown, ...parts: string[]) {
  try {
    fn();
  } catch (error) {
    assert.instance(error, TypeError, `expected TypeError, got ${error}`);
    for (const part of parts) {
      const { message } = error as Error;
      assert.ok(message.includes(part), `message ${JSON.stringify(message)} lacks ${JSON.stringify(part)}`);
    }
    return;
  }
  assert.unreachable(`expected a TypeError mentioning ${parts.join(", ")}`);
}

/**
 * UNIT_PART=source or builds: half of the suites, so that `npm test` runs the two halves side by side (the
 * source's behaviour, caches, hostile input, the shape and sizes; the builds' behaviour, the differential and
 * properties).
 */
const inPart = (name: "source" | "builds") => !process.env.UNIT_PART || process.env.UNIT_PART === name;
const BUILDS = Object.entries(await builds()) as [string, Lib][];
// The quick loop runs the sections on the ESM build alone: the CJS one is the same bundle in another wrapper, which
// npm test checks section by section (its cache tests run in either loop).
const SECTION_BUILDS = process.env.QUICK ? BUILDS.slice(0, 1) : BUILDS;
const LIBS: [name: string, lib: Lib][] = [
  ...(inPart("source") ? [["source", source] as [string, Lib]] : []),
  ...(inPart("builds") ? SECTION_BUILDS : []),
];

/** A test's view of a build: the build, and an endpoint on a test host for withOpenAPI()'s tests. */
type Under = Lib & { base: ReturnType<Lib["endpoint"]["defaults"]> };

/** A section of tests, each run against every build of LIBS as its own suite: `section(name, (lib) => …)`. */
function section(title: string) {
  const suites = LIBS.map(([name, lib]) => {
    const under: Under = { ...lib, base: lib.endpoint.defaults({ baseUrl: "https://api.example" }) };
    return [suite(`${name}: ${title}`), under] as const;
  });
  const test = (name: string, body: (lib: Under) => unknown) => {
    for (const [tests, lib] of suites) tests(name, () => body(lib));
  };
  const run = () => {
    for (const [tests] of suites) tests.run();
  };
  return Object.assign(test, { run });
}

// --- 1. The contract: the spec's worked shapes, the defaults -------------------------------------------------------

const contract = section("the contract");

contract("spec: route with a data body", ({ endpoint }) => {
  const result = endpoint(
    "POST https://uploads.github.com/repos/{owner}/{repo}/releases/{release_id}/assets{?name,label}",
    {
      owner: "octocat",
      repo: "hello-world",
      release_id: 1,
      name: "example.zip",
      label: "short description",
      data: "zip file contents",
      headers: { "content-type": "application/zip", "content-length": 17 },
    },
  );
  assert.equal(result, {
    method: "post",
    url: "https://uploads.github.com/repos/octocat/hello-world/releases/1/assets?name=example.zip&label=short%20description",
    headers: { accept: ACCEPT, "user-agent": UA, "content-type": "application/zip", "content-length": 17 },
    body: "zip file contents",
  });
});

contract("spec: placeholders, a query parameter and authorization", ({ endpoint }) => {
  const result = endpoint("GET /orgs/:org/repos", {
    headers: { authorization: "token 0000000000" },
    org: "octokit",
    type: "private",
  });
  assert.equal(result, {
    method: "get",
    url: "https://api.github.com/orgs/octokit/repos?type=private",
    headers: { accept: ACCEPT, authorization: "token 0000000000", "user-agent": UA },
  });
  assert.equal(Object.keys(result), ["method", "url", "headers"]);
});

contract("DEFAULTS: GitHub's base URL, accept and our user-agent with package.json's version", ({ endpoint }) => {
  assert.equal(endpoint.DEFAULTS, {
    method: "GET",
    baseUrl: "https://api.github.com",
    headers: { accept: ACCEPT, "user-agent": UA },
    mediaType: { format: "" },
  });
});

contract("version: the user-agent carries package.json's version", ({ endpoint }) => {
  assert.is(endpoint("GET /").headers["user-agent"], `endpoint-options/${pkg.version}`);
});

contract("NAMED_OPTIONS: the options never taken for a parameter", ({ NAMED_OPTIONS: named }) => {
  assert.equal([...named], NAMED_OPTIONS);
});

contract.run();

// --- 2. Shared helpers: the caches -----------------------------------------------------------------------------------

const caches = suite("caches");

/** How many of `routes`, called in turn, were compiled (a compile reads the route with indexOf(" ")). */
function compiles(lib: Lib, routes: string[]): number {
  const seen = new Set(routes);
  const indexOf = String.prototype.indexOf;
  let count = 0;
  String.prototype.indexOf = function (this: string, ...args: [string, number?]) {
    if (args[0] === " " && seen.has(String(this))) count++;
    return indexOf.apply(this, args);
  };
  try {
    for (const route of routes) lib.endpoint(route, { id: 1 });
  } finally {
    String.prototype.indexOf = indexOf;
  }
  return count;
}

for (const [name, lib] of [["source", source] as [string, Lib], ...BUILDS]) {
  caches(`${name}: 4,000 routes called in turn settle in the cache, even one full of other routes`, () => {
    // The earlier tests filled the cache. A miss makes room at random, so it may evict a route of this set
    // too, but a hit evicts nothing: within a few rounds every route is found (oldest-out finds none, ever).
    const routes = Array.from({ length: 4000 }, (_, i) => `GET /cache-${name}/${i}/{id}`);
    const rounds = Array.from({ length: 6 }, () => compiles(lib, routes));
    assert.is(rounds[0], 4000);
    assert.ok(rounds[1]! < 2000, `round 2: ${rounds.join(", ")}`);
    assert.equal(rounds.slice(-2), [0, 0], `compiles per round: ${rounds.join(", ")}`);
  });
  caches(
    `${name}: past the cache's size, a cycle of 8,000 routes still finds some (oldest-out would find none)`,
    () => {
      // With room made at random, a cycle twice the cache's size misses about 80% of the time, 5,000 routes 35%.
      const routes = Array.from({ length: 8000 }, (_, i) => `GET /cycle-${name}/${i}/{id}`);
      compiles(lib, routes);
      const misses = [compiles(lib, routes), compiles(lib, routes)];
      assert.ok(
        misses.every((count) => count < 8000 * 0.9),
        `recompiled per round of 8,000: ${misses.join(", ")}`,
      );
    },
  );
}
if (inPart("source")) caches.run();

// --- 3. RFC 6570 templates -----------------------------------------------------------------------------------------

const templates = section("RFC 6570 templates");

// RFC 6570's public test vectors, each case its own test named by its template.
const RFC6570_FILES = ["spec-examples.json", "extended-tests.json", "negative-tests.json"];
for (const file of RFC6570_FILES) {
  for (const [group, { variables, testcases }] of Object.entries<any>(fixture(file))) {
    for (const [template, expected] of testcases as [string, string | string[] | false][]) {
      templates(`RFC 6570 ${file}, ${group}: ${template}`, ({ parseTemplate }) => {
        if (expected === false) {
          let error: unknown;
          try {
            parseTemplate(template).expand(variables);
          } catch (thrown) {
            error = thrown;
          }
          assert.instance(error, TypeError, `${group}: ${template} should throw`);
          return;
        }
        const actual = parseTemplate(template).expand(variables);
        const allowed = Array.isArray(expected) ? expected : [expected];
        assert.ok(allowed.includes(actual), `${group}: ${template} gave ${actual}, expected ${allowed.join(" or ")}`);
      });
    }
  }
}

templates("RFC 6570: each fixture file holds its cases", () => {
  for (const file of RFC6570_FILES) {
    const count = Object.values<any>(fixture(file)).reduce((sum, { testcases }) => sum + testcases.length, 0);
    assert.ok(count > 30, `${file}: ${count} cases`);
  }
});

templates("RFC 6570: literals outside the URI set are encoded, triplets kept", ({ parseTemplate }) => {
  assert.is(parseTemplate("a b<c>|{x}").expand({ x: 1 }), "a%20b%3Cc%3E%7C1");
  assert.is(parseTemplate("%zz%41").expand({}), "%25zz%41");
});

templates("encoding: spaces and non-ASCII, with and without the characters only RFC 6570 escapes", ({ endpoint }) => {
  // Text without !'()* is escaped by encodeURIComponent, text with them by a pass of our own: alike.
  const x = "https://api.github.com/x";
  assert.is(
    endpoint("GET /x/{p}", { p: "Next.js 15.0.3 — tarball" }).url,
    x + "/Next.js%2015.0.3%20%E2%80%94%20tarball",
  );
  assert.is(
    endpoint("GET /x/{p}", { p: "Next.js (15.0.3) — tarball!" }).url,
    x + "/Next.js%20%2815.0.3%29%20%E2%80%94%20tarball%21",
  );
  assert.is(endpoint("GET /x{?p}", { p: "a b*'é" }).url, x + "?p=a%20b%2A%27%C3%A9");
  assert.is(endpoint("GET /x", { v: "a b*'é", w: "a b é" }).url, x + "?v=a%20b*'%C3%A9&w=a%20b%20%C3%A9");
  assert.is(endpoint("GET /x", { q: "a b+é", r: "a b+é" }).url, x + "?q=a%20b+%C3%A9&r=a%20b%2B%C3%A9");
  for (const [route, what] of [
    ["GET /x/{p}", "p"],
    ["GET /x", "p"],
    ["GET /x", "q"],
    ["GET /x/{+p}", "p"],
  ]) {
    for (const text of ["a b\uD800", "a!\uDC00b", "\uD800 "]) {
      throwsType(() => endpoint(route, { [what]: text }), `parameter "${what}" has a lone surrogate`);
    }
  }
});

templates("RFC 6570: inherited properties are not variables; 0 and false are values", ({ parseTemplate }) => {
  assert.is(parseTemplate("{constructor}{toString}{hasOwnProperty}").expand({}), "");
  assert.is(parseTemplate("{a}{?b,c}").expand({ a: 0, b: false, c: 0 }), "0?b=false&c=0");
});

templates("RFC 6570: strict names reject '-', error positions", ({ parseTemplate }) => {
  throwsType(
    () => parseTemplate("/x/{enterprise-team}"),
    'template "/x/{enterprise-team}": bad variable "enterprise-team" at 4',
  );
  assert.is(parseTemplate("/x/:name").expand({ name: "n" }), "/x/:name");
  throwsType(() => parseTemplate("/x/{a"), 'template "/x/{a": unclosed "{" at 3');
  throwsType(() => parseTemplate("x\uD800{a}"), 'template "x\\ud800{a}" has a lone surrogate');
  throwsType(() => parseTemplate(1 as any), "template must be a string");
  throwsType(() => parseTemplate("{x}").expand(null as any), "variables must be an object");
});

templates("RFC 6570: a template compiles once and expands many times", ({ parseTemplate }) => {
  const template = parseTemplate("/users{/id}{?fields*}");
  assert.is(template.expand({ id: 1, fields: ["a", "b"] }), "/users/1?fields=a&fields=b");
  assert.is(template.expand({ id: "x" }), "/users/x");
});

templates("url: :name reads as {name}; names may contain '-'", ({ endpoint }) => {
  assert.is(endpoint("GET /repos/:owner/:repo", { owner: "a", repo: "b" }).url, "https://api.github.com/repos/a/b");
  assert.is(endpoint("GET /x/:n", { n: 1 }).url, "https://api.github.com/x/1");
  assert.is(endpoint("GET /x/:repo_id2/y", { repo_id2: 7 }).url, "https://api.github.com/x/7/y");
  assert.is(endpoint("GET /x/:9", {}).url, "https://api.github.com/x/:9");
  assert.is(
    endpoint("GET /enterprises/{enterprise}/teams/{enterprise-team}", { enterprise: "e", "enterprise-team": "t" }).url,
    "https://api.github.com/enterprises/e/teams/t",
  );
});

templates(":name is a placeholder only in the path, never in the authority, query or fragment", ({ endpoint }) => {
  assert.is(
    endpoint("GET /search/issues?q=is:open+repo:octokit/rest.js").url,
    "https://api.github.com/search/issues?q=is:open+repo:octokit/rest.js",
  );
  assert.is(
    endpoint("GET /search/issues?q=is:open", { page: 2 }).url,
    "https://api.github.com/search/issues?q=is:open&page=2",
  );
  assert.is(endpoint("GET http://[::ffff:c0a8:1]:8080/health").url, "http://[::ffff:c0a8:1]:8080/health");
  assert.is(endpoint("GET https://user:pass@h.example/x/:id", { id: 7 }).url, "https://user:pass@h.example/x/7");
  assert.is(endpoint("GET /x/:id#a:b", { id: 7 }).url, "https://api.github.com/x/7#a:b");
  assert.is(endpoint("GET /repos/:owner/:repo", { owner: "a", repo: "b" }).url, "https://api.github.com/repos/a/b");
  assert.is(
    endpoint("GET /repos/:owner/:repo/compare/:base...:head", { owner: "o", repo: "r", base: "main", head: "dev" }).url,
    "https://api.github.com/repos/o/r/compare/main...dev",
  );
});

templates("url: placeholder values are percent-encoded, named options are never variables", ({ endpoint }) => {
  assert.is(
    endpoint("GET /repos/{owner}/{repo}/contents/{path}", { owner: "a b", repo: "ü", path: "dir/file.txt" }).url,
    "https://api.github.com/repos/a%20b/%C3%BC/contents/dir%2Ffile.txt",
  );
  assert.is(endpoint("GET /x{/url,method,headers}", { method: "GET", headers: {} }).url, "https://api.github.com/x");
  assert.is(endpoint("GET /x/{+path}", { path: "a/b c" }).url, "https://api.github.com/x/a/b%20c");
});

templates("errors: malformed templates name the template and position", ({ endpoint, parseTemplate }) => {
  throwsType(() => endpoint("GET /repos/{owner"), 'template "/repos/{owner": unclosed "{" at 7');
  throwsType(() => endpoint("GET /repos/{a{b}"), 'template "/repos/{a{b}": unclosed "{" at 7');
  throwsType(() => endpoint("GET /repos/owner}"), 'template "/repos/owner}": stray "}" at 12');
  throwsType(() => endpoint("GET /x/{!x}"), 'template "/x/{!x}": bad variable "!x" at 4');
  throwsType(() => endpoint({ url: "/x/{a,b c}" }), 'template "/x/{a,b c}": bad variable "b c" at 6');
  throwsType(() => endpoint("GET /x/{?a,b:0}"), 'bad variable "b:0" at 7');
  throwsType(() => endpoint("GET /x/{a:10000}"), 'bad variable "a:10000" at 4');
  throwsType(() => endpoint("GET /x/{a:3*}"), 'bad variable "a:3*"');
  throwsType(() => endpoint("GET /x/{}"), 'bad variable "" at 4');
  throwsType(() => endpoint("GET /x/{a:3}", { a: ["x"] }), 'parameter "a" is a list or object: no prefix ":3"');
  throwsType(() => endpoint("GET /x/{a:3}", { a: { b: "c" } }), 'parameter "a" is a list or object');
  throwsType(() => endpoint.defaults({ url: "/{x" }), 'unclosed "{" at 1');
  // A thousand variables compile; the expression that holds the next one is refused where it stands, whether
  // the variables are in many expressions or in one.
  assert.is(parseTemplate("{a}".repeat(1000)).expand({ a: "x" }), "x".repeat(1000));
  throwsType(() => parseTemplate("{a}".repeat(1001)), `template "${"{a}".repeat(26)}{a…": over 1000 variables at 3000`);
  throwsType(() => endpoint({ url: "/" + ":a/".repeat(1001) }), "over 1000 variables at 3001");
  const list = (count: number) => Array.from({ length: count }, (_, i) => "v" + i).join(",");
  assert.is(parseTemplate(`{?${list(1000)}}`).expand({ v0: 1, v999: 2 }), "?v0=1&v999=2");
  throwsType(() => parseTemplate(`/x{a}{?${list(1000)}}`), "over 1000 variables at 5");
  throwsType(() => endpoint({ url: `/x{/${list(1001)}}` }), "over 1000 variables at 2");
  assert.is(endpoint({ url: "/" + ":a/".repeat(1000), a: 1 }).url, "https://api.github.com/" + "1/".repeat(999) + "1");
});

templates("errors: a value may not make a path segment '.' or '..'", ({ endpoint }) => {
  for (const repo of ["..", ".", "%2e%2E", ".%2e", "%2E."]) {
    throwsType(
      () => endpoint("DELETE /repos/{owner}/{+repo}", { owner: "o", repo }),
      'parameter "repo"',
      "path segment",
    );
  }
  throwsType(
    () => endpoint("DELETE /repos/{owner}/{repo}", { owner: "o", repo: ".." }),
    'parameter "repo"',
    'segment ".."',
  );
  throwsType(() => endpoint("GET /a{/path*}", { path: ["x", "..", "y"] }), 'parameter "path"');
  throwsType(() => endpoint("GET /a/{x}{y}/b", { x: ".", y: "." }), 'parameter "x"');
  throwsType(() => endpoint("GET /a/:x", { x: "." }), 'parameter "x"');
  throwsType(() => endpoint("GET /a{/x}", { x: ".." }), 'parameter "x"');
});

templates("errors: dot segments from the template itself, and harmless dots, are fine", ({ endpoint }) => {
  assert.is(endpoint("GET /a/../b/{x}", { x: "c" }).url, "https://api.github.com/a/../b/c");
  assert.is(endpoint("GET /a/{x}", { x: "..." }).url, "https://api.github.com/a/...");
  assert.is(endpoint("GET /a/{x}", { x: "a/.." }).url, "https://api.github.com/a/a%2F..");
  assert.is(endpoint("GET /a/{x}", { x: "%2e%2e" }).url, "https://api.github.com/a/%252e%252e");
  assert.is(endpoint("GET /a/{x}", { x: ".a" }).url, "https://api.github.com/a/.a");
  assert.is(endpoint("GET /a/.{x}", { x: "b" }).url, "https://api.github.com/a/.b");
  assert.is(endpoint("GET /a/b{?x}", { x: ".." }).url, "https://api.github.com/a/b?x=..");
  assert.is(endpoint("GET /a/b", { x: ".." }).url, "https://api.github.com/a/b?x=..");
  assert.is(
    endpoint("GET /compare/{basehead}", { basehead: "main...dev" }).url,
    "https://api.github.com/compare/main...dev",
  );
});

templates("dot segments made by an expansion's own operators and separators are refused", ({ endpoint }) => {
  throwsType(
    () => endpoint("DELETE /repos/{owner}/{.a,b}/hooks", { owner: "o", a: "", b: "" }),
    'parameter "a" makes the path segment ".."',
  );
  throwsType(
    () => endpoint("DELETE /repos/{owner}/{.a}/hooks", { owner: "o", a: "" }),
    'parameter "a" makes the path segment "."',
  );
  throwsType(() => endpoint("GET /x/.{.a}", { a: "" }), 'parameter "a" makes the path segment ".."');
  throwsType(() => endpoint("GET /x{/a*}", { a: ["b", "..", "c"] }), 'parameter "a"');
  assert.is(
    endpoint("DELETE /repos/{owner}/{.a,b}/hooks", { owner: "o", a: "x", b: "" }).url,
    "https://api.github.com/repos/o/.x./hooks",
  );
  assert.is(endpoint("GET /x/..{a}", { a: "" }).url, "https://api.github.com/x/..");
  assert.is(endpoint("GET /x/{.a}", { a: "json" }).url, "https://api.github.com/x/.json");
});

templates(
  "bad values inside lists and objects, at any depth, are our TypeError naming the parameter",
  ({ endpoint }) => {
    const bad: unknown[] = [
      Symbol("s"),
      () => 1,
      Object.create(null),
      {
        toString: () => {
          throw new Error("no");
        },
      },
      { a: 1 },
      new (class A {})(),
    ];
    for (const item of bad) {
      throwsType(() => endpoint("GET /x", { list: ["a", [item]] }), 'parameter "list" has no text form');
      throwsType(() => endpoint("GET /x", { "ids[]": [1, item] }), 'parameter "ids[]" has no text form');
      throwsType(() => endpoint("GET /x/{list}", { list: ["a", item] }), 'parameter "list" has no text form');
      throwsType(() => endpoint("GET /x{?filter*}", { filter: { a: item } }), 'parameter "filter" has no text form');
    }
    const cyclic: unknown[] = ["a"];
    cyclic.push(cyclic);
    throwsType(() => endpoint("GET /x", { list: cyclic }), 'parameter "list" is nested too deeply');
    assert.is(
      endpoint("GET /x", { list: ["a", ["b", 1n], null, new Date(0)] }).url,
      `https://api.github.com/x?list=a%2Cb%2C1%2C%2C${encodeURIComponent(String(new Date(0)))}`,
    );
  },
);

templates("errors: plain objects in the query, lone surrogates, symbols", ({ endpoint }) => {
  throwsType(() => endpoint("GET /x", { filter: { a: 1 } }), 'parameter "filter" is an object');
  throwsType(() => endpoint("GET /x", { s: "a\uD800b" }), 'parameter "s"', "lone surrogate");
  throwsType(() => endpoint("GET /x/{s}", { s: "\uDC00" }), 'parameter "s"', "lone surrogate");
  throwsType(() => endpoint("GET /x", { s: Symbol("x") }), 'parameter "s" has no text form');
  throwsType(() => endpoint("GET /x/{s}", { s: new (class A {})() }), 'parameter "s" has no text form');
  assert.is(endpoint("GET /x", { s: "\uD83D\uDE00" }).url, "https://api.github.com/x?s=%F0%9F%98%80");
});

templates.run();

// --- 4. Options: checks and merging, defaults(), merge(), parse() ----------------------------------------------------

const merging = section("options: checks and merging");

merging("headers: names lowercased, passed values replace defaults", ({ endpoint }) => {
  const result = endpoint("GET /", { headers: { Accept: "text/html", "User-Agent": "me", "X-Foo": 1 } });
  assert.equal(result.headers, { accept: "text/html", "user-agent": "me", "x-foo": 1 });
});

merging("headers: undefined values are dropped and never unset a default", ({ endpoint }) => {
  assert.equal(endpoint("GET /", { headers: { accept: undefined, "x-a": undefined } }).headers, {
    accept: ACCEPT,
    "user-agent": UA,
  });
});

merging("errors: header names must be tokens; values may not hold CR, LF or NUL", ({ endpoint }) => {
  for (let i = 0; i < 2; i++) {
    throwsType(() => endpoint("GET /", { headers: { "x y": "1" } }), 'header "x y" is not a token');
    throwsType(() => endpoint("GET /", { headers: { "": "1" } }), 'header "" is not a token');
    throwsType(
      () => endpoint("GET /", { headers: { "X-Seen": "1\n" } }),
      'header "X-Seen" must be a string without CR, LF or NUL, or a number',
    );
    assert.equal(endpoint("GET /", { headers: { "X-Seen": "1", "x-other": 2 } }).headers, {
      accept: ACCEPT,
      "user-agent": UA,
      "x-seen": "1",
      "x-other": 2,
    });
  }
  throwsType(
    () => endpoint("GET /", { headers: { "x-a": "1\r\nx-b: 2" } }),
    'header "x-a" must be a string without CR, LF or NUL, or a number',
  );
  throwsType(
    () => endpoint("GET /", { headers: { "x-a": "1\n" } }),
    'header "x-a" must be a string without CR, LF or NUL, or a number',
  );
  throwsType(
    () => endpoint("GET /", { headers: { "x-a": "1\0" } }),
    'header "x-a" must be a string without CR, LF or NUL, or a number',
  );
  throwsType(
    () => endpoint("GET /", { headers: { "x-a": {} as any } }),
    'header "x-a" must be a string without CR, LF or NUL, or a number',
  );
  assert.is(endpoint("GET /", { headers: { "x-a": "tab\tok" } }).headers["x-a"], "tab\tok");
  throwsType(() => endpoint.defaults({ headers: { "x-a": "\n" } }), 'header "x-a"');
  throwsType(() => endpoint("GET /", { headers: "x" as any }), "option `headers` must be a plain object");
});

merging("mediaType.format rewrites vendor accept entries", ({ endpoint }) => {
  assert.is(endpoint("GET /x", { mediaType: { format: "raw" } }).headers.accept, "application/vnd.github.v3.raw");
  assert.is(
    endpoint("GET /x", { mediaType: { format: "diff" }, headers: { accept: "application/vnd.github.v3.sha+json" } })
      .headers.accept,
    "application/vnd.github.v3.diff",
  );
  assert.is(
    endpoint("GET /x", {
      mediaType: { format: "text+json" },
      headers: { accept: "application/vnd.github+json,text/html" },
    }).headers.accept,
    "application/vnd.github.text+json,text/html",
  );
  assert.is(
    endpoint("GET /x", { mediaType: { format: "raw" }, headers: { accept: "application/vnd.github.foo" } }).headers
      .accept,
    "application/vnd.github.raw",
  );
  assert.is(
    endpoint("GET /x", { mediaType: { format: "raw" }, headers: { accept: "application/vnd.github.foo.bar" } }).headers
      .accept,
    "application/vnd.github.foo.bar",
  );
  assert.is(
    endpoint("GET /x", {
      mediaType: { format: "raw" },
      headers: { accept: "application/vnd.github.v3.foo+json, text/html" },
    }).headers.accept,
    "application/vnd.github.v3.raw, text/html",
  );
  assert.is(
    endpoint("GET /x", {
      mediaType: { format: "raw" },
      headers: { accept: "application/vnd.github.mercy-preview+json" },
    }).headers.accept,
    "application/vnd.github.mercy-preview+json",
  );
});

merging("mediaType.format rewrites a vendor accept entry with parameters and keeps them", ({ endpoint }) => {
  const accept = "application/vnd.github.v3+json;q=0.9, application/json;q=0.1";
  assert.is(
    endpoint("GET /x", { headers: { accept }, mediaType: { format: "raw" } }).headers.accept,
    "application/vnd.github.v3.raw;q=0.9, application/json;q=0.1",
  );
  assert.is(
    endpoint("GET /x", {
      headers: { accept: "application/vnd.github+json ; charset=utf-8" },
      mediaType: { format: "diff" },
    }).headers.accept,
    "application/vnd.github.diff; charset=utf-8",
  );
  assert.is(
    endpoint.defaults({ headers: { accept } })("GET /x", { mediaType: { format: "html" } }).headers.accept,
    "application/vnd.github.v3.html;q=0.9, application/json;q=0.1",
  );
});

merging("mediaType: application/octet-stream is never rewritten", ({ endpoint }) => {
  const accept = "application/octet-stream";
  assert.is(
    endpoint("GET /x", { mediaType: { format: "raw", previews: ["a"] }, headers: { accept } }).headers.accept,
    accept,
  );
});

merging("mediaType.previews apply to every URL; a -preview suffix is ignored", ({ endpoint }) => {
  assert.is(
    endpoint("GET /repos/{o}/{r}/topics", { o: "a", r: "b", mediaType: { previews: ["mercy", "symmetra-preview"] } })
      .headers.accept,
    "application/vnd.github.mercy-preview+json,application/vnd.github.symmetra-preview+json",
  );
  assert.is(
    endpoint("POST /graphql", { query: "", mediaType: { previews: ["jean-grey"], format: "raw" } }).headers.accept,
    "application/vnd.github.jean-grey-preview.raw",
  );
});

merging("mediaType.previews: previews named in accept come first", ({ endpoint }) => {
  const result = endpoint("GET /x", {
    headers: { accept: "application/vnd.github.scarlet-witch-preview+json" },
    mediaType: { previews: ["mercy"] },
  });
  assert.is(
    result.headers.accept,
    "application/vnd.github.scarlet-witch-preview+json,application/vnd.github.mercy-preview+json",
  );
});

merging("mediaType.previews merge with those of defaults: earlier ones not named first", ({ endpoint }) => {
  const withPreviews = endpoint.defaults({ mediaType: { previews: ["a", "b"] } });
  assert.is(
    withPreviews("GET /x").headers.accept,
    "application/vnd.github.a-preview+json,application/vnd.github.b-preview+json",
  );
  assert.is(
    withPreviews("GET /x", { mediaType: { previews: ["c", "a-preview"] } }).headers.accept,
    "application/vnd.github.b-preview+json,application/vnd.github.c-preview+json,application/vnd.github.a-preview+json",
  );
  const more = withPreviews.defaults({ mediaType: { previews: ["c"] } });
  assert.equal(more.DEFAULTS.mediaType.previews, ["a", "b", "c"]);
  assert.is(
    more("GET /x").headers.accept,
    "application/vnd.github.a-preview+json,application/vnd.github.b-preview+json,application/vnd.github.c-preview+json",
  );
});

merging(
  "mediaType: a format alone, repeated, over defaults with previews and a format, gives the same as the first time",
  ({ endpoint }) => {
    const withPreviews = endpoint.defaults({ mediaType: { previews: ["p"], format: "raw" } });
    for (let i = 0; i < 2; i++) {
      assert.is(
        withPreviews("GET /x", { mediaType: { format: "diff" } }).headers.accept,
        "application/vnd.github.p-preview.diff",
      );
      assert.is(
        withPreviews("GET /x", { mediaType: { format: "" } }).headers.accept,
        "application/vnd.github.p-preview+json",
      );
      assert.is(withPreviews("GET /x", { mediaType: {} }).headers.accept, "application/vnd.github.p-preview.raw");
      assert.is(
        withPreviews("GET /x", { mediaType: { format: "diff", previews: ["q"] } }).headers.accept,
        "application/vnd.github.p-preview.diff,application/vnd.github.q-preview.diff",
      );
      assert.is(
        withPreviews("GET /x", { mediaType: { format: "diff" }, headers: { accept: "application/vnd.github.v3+json" } })
          .headers.accept,
        "application/vnd.github.p-preview.diff",
      );
      assert.is(endpoint("GET /x", { mediaType: { format: "sha" } }).headers.accept, "application/vnd.github.v3.sha");
      throwsType(() => withPreviews("GET /x", { mediaType: { format: "a b" } }), "mediaType.format");
    }
  },
);

merging("errors: media types", ({ endpoint }) => {
  throwsType(
    () => endpoint("GET /", { mediaType: { format: "raw\r\n" } }),
    'option `mediaType.format` must be like "raw", not "raw\\r\\n"',
  );
  throwsType(
    () => endpoint("GET /", { mediaType: { format: 1 as any } }),
    "option `mediaType.format` must be",
    'not "1"',
  );
  throwsType(
    () => endpoint("GET /", { mediaType: { previews: "x" as any } }),
    "option `mediaType.previews` must be an array",
  );
  throwsType(
    () => endpoint("GET /", { mediaType: { previews: ["ok", "a,b"] } }),
    'option `mediaType.previews[1]` must be like "mercy", not "a,b"',
  );
  throwsType(() => endpoint("GET /", { mediaType: "raw" as any }), "option `mediaType` must be a plain object");
});

merging("route: URL alone means GET; options form needs url, method defaults to GET", ({ endpoint }) => {
  assert.is(endpoint("/user").method, "get");
  assert.is(endpoint("/user").url, "https://api.github.com/user");
  assert.equal(endpoint({ url: "/user" }), endpoint("GET /user"));
  assert.is(endpoint({ method: "PATCH", url: "/user", name: "x" }).method, "patch");
});

merging("route: method is lowercase in the result whatever its case", ({ endpoint }) => {
  assert.is(endpoint("post /markdown", { text: "x" }).method, "post");
  assert.is(endpoint("Delete /x").method, "delete");
});

merging("method: a call's own method wins over its route's, and either comes out lowercase", ({ endpoint }) => {
  assert.is(endpoint("PoSt /x", { method: "PUT" }).method, "put");
  assert.is(endpoint("DELETE /x").method, "delete");
  assert.is(endpoint.defaults({ method: "Patch" })({ url: "/x" }).method, "patch");
  assert.is(endpoint.defaults({ method: "Patch" })("GET /x").method, "get");
});

merging("errors: missing url, bad route, bad method", ({ endpoint }) => {
  throwsType(() => endpoint({ method: "GET" }), "`url` is required");
  throwsType(() => endpoint(""), 'route "" is not "URL" or "METHOD URL"');
  throwsType(() => (endpoint as any)(42), "route must be a string or a plain object, not number");
  throwsType(() => (endpoint as any)([]), "route must be a string", "not array");
  throwsType(() => (endpoint as any)(null), "`url` is required");
  throwsType(() => endpoint("GET /a b"), 'route "GET /a b"', '"URL" or "METHOD URL"');
  throwsType(() => endpoint("GET "), 'route "GET "');
  throwsType(() => endpoint("G(T /x"), 'method "G(T" is not a token');
  throwsType(() => endpoint({ method: "GET\r\n", url: "/" }), 'method "GET\\r\\n" is not a token');
  throwsType(() => endpoint({ method: 1 as any, url: "/" }), "option `method` must be a string, not number");
  throwsType(() => endpoint({ url: 1 as any }), "option `url` must be a non-empty string, not number");
  throwsType(() => endpoint({ url: "" }), "option `url` must be a non-empty string");
  throwsType(() => endpoint.merge({ method: "a b" }), 'method "a b" is not a token');
  throwsType(() => endpoint("GET /", "x" as any), "options must be a plain object");
  // A base URL and a method are checked where they are given: in a call, or once in defaults().
  throwsType(() => endpoint("GET /x", { baseUrl: 1 as any }), "option `baseUrl` must be a string, not number");
  throwsType(() => endpoint.defaults({ baseUrl: null as any }), "option `baseUrl` must be a string, not null");
  throwsType(() => endpoint.defaults({ method: "a b" }), 'method "a b" is not a token');
  throwsType(
    () => endpoint.parse({ method: "GET", url: "/a", headers: {} } as any),
    'option `baseUrl` is required for "/a"',
  );
});

merging("defaults: a new function with the same interface, defaults cascade", ({ endpoint }) => {
  const ghe = endpoint.defaults({
    baseUrl: "https://ghe.example/api/v3",
    headers: { Authorization: "token a" },
    per_page: 100,
  });
  assert.type(ghe.defaults, "function");
  assert.type(ghe.merge, "function");
  assert.type(ghe.parse, "function");
  assert.is(ghe.DEFAULTS.baseUrl, "https://ghe.example/api/v3");
  assert.is(endpoint.DEFAULTS.baseUrl, "https://api.github.com");
  const org = ghe.defaults({ org: "octokit", headers: { "x-b": "b" } });
  assert.equal(org("GET /orgs/{org}/repos"), {
    method: "get",
    url: "https://ghe.example/api/v3/orgs/octokit/repos?per_page=100",
    headers: { accept: ACCEPT, "user-agent": UA, authorization: "token a", "x-b": "b" },
  });
  assert.equal(
    org("GET /orgs/{org}/repos", { org: "other", per_page: 10, headers: { authorization: "token b" } }).url,
    "https://ghe.example/api/v3/orgs/other/repos?per_page=10",
  );
  assert.equal(org("POST /orgs/{org}/x", { name: "n" }).body, { per_page: 100, name: "n" });
});

merging("defaults: undefined never unsets a default; plain objects merge deeply", ({ endpoint }) => {
  const custom = endpoint.defaults({
    baseUrl: "https://a.example",
    request: { timeout: 1, retry: { n: 1 } },
    config: { a: 1 },
  });
  assert.is(custom("POST /", { baseUrl: undefined }).url, "https://a.example/");
  assert.equal(custom("POST /").request, { timeout: 1, retry: { n: 1 } });
  assert.equal(custom("POST /", { request: { retry: { m: 2 } } }).request, { timeout: 1, retry: { n: 1, m: 2 } });
  assert.equal(custom("POST /", { config: { b: 2 } }).body, { config: { a: 1, b: 2 } });
  assert.equal(custom.merge("POST /", { config: { b: 2 } }).config, { a: 1, b: 2 });
});

merging("defaults: a url default is used when the call gives none", ({ endpoint }) => {
  const me = endpoint.defaults({ url: "/users/{username}", username: "octocat" });
  assert.is(me().url, "https://api.github.com/users/octocat");
  assert.is(me({}).url, "https://api.github.com/users/octocat");
});

merging("merge: defaulted options, unparsed, in octokit's key order", ({ endpoint }) => {
  const merged = endpoint.merge("GET /orgs/{org}/repos", {
    org: "octokit",
    type: "private",
    headers: { "X-A": "a" },
  });
  assert.equal(merged, {
    method: "GET",
    baseUrl: "https://api.github.com",
    headers: { accept: ACCEPT, "user-agent": UA, "x-a": "a" },
    mediaType: { format: "" },
    url: "/orgs/{org}/repos",
    org: "octokit",
    type: "private",
  });
  assert.equal(Object.keys(merged), ["method", "baseUrl", "headers", "mediaType", "url", "org", "type"]);
  assert.is(endpoint.merge("post /x").method, "post");
  assert.equal(endpoint.merge({ a: 1 }).a, 1);
});

merging("merge: undefined values are dropped and never unset a default", ({ endpoint }) => {
  const custom = endpoint.defaults({ per_page: 5, headers: { "x-a": "a" } });
  const merged = custom.merge("GET /x", { per_page: undefined, headers: { "x-a": undefined }, other: undefined });
  assert.is(merged.per_page, 5);
  assert.is(merged.headers["x-a"], "a");
  assert.is("other" in merged, false);
});

merging("parse: endpoint(x) equals parse(merge(x))", ({ endpoint }) => {
  const cases: [string, Record<string, unknown>][] = [
    ["GET /orgs/{org}/repos", { org: "o", type: "all", headers: { authorization: "token x" } }],
    ["POST /repos/{owner}/{repo}/issues", { owner: "a", repo: "b", title: "t", mediaType: { previews: ["x"] } }],
    ["PUT /x", { request: { a: 1 } }],
    ["GET /x", { mediaType: { format: "raw" } }],
  ];
  const custom = endpoint.defaults({ per_page: 5, mediaType: { previews: ["p"] }, headers: { "x-a": "1" } });
  for (const fn of [endpoint, custom]) {
    for (const [route, options] of cases) assert.equal(fn(route, options), fn.parse(fn.merge(route, options)));
  }
});

merging("parse: is stateless and needs a url", ({ endpoint }) => {
  assert.equal(
    endpoint.parse({
      method: "GET",
      baseUrl: "https://x.example",
      url: "/a",
      headers: {},
      mediaType: { format: "" },
    }),
    { method: "get", url: "https://x.example/a", headers: {} },
  );
  throwsType(
    () => endpoint.parse({ method: "GET", baseUrl: "https://x.example", headers: {}, mediaType: { format: "" } }),
    "`url` is required",
  );
});

merging("inputs are never written to (deep-frozen options, route and defaults)", ({ endpoint }) => {
  const freeze = <T>(value: T): T => {
    if (value && typeof value === "object") for (const key of Object.keys(value)) freeze((value as any)[key]);
    return Object.freeze(value);
  };
  const defaults = freeze({
    headers: { "X-A": "a" },
    mediaType: { previews: ["p"] },
    request: { r: { n: 1 } },
    config: { a: 1 },
  });
  const custom = endpoint.defaults(defaults);
  const options = freeze({
    owner: "o",
    config: { b: 2 },
    headers: { Authorization: "x" },
    mediaType: { format: "raw" },
    request: { r: { m: 2 } },
  });
  const result = custom("POST /repos/{owner}", options);
  assert.equal(result.body, { config: { a: 1, b: 2 } });
  assert.equal(result.request, { r: { n: 1, m: 2 } });
  assert.equal(custom.parse(freeze(custom.merge("POST /repos/{owner}", options))), result);
});

merging("safety: keys from JSON.parse never touch a prototype", ({ endpoint }) => {
  const options = JSON.parse(
    '{"__proto__":{"x":1},"constructor":{"prototype":{"y":2}},"prototype":{"z":3},"headers":{"__proto__":"h"},"mediaType":{"__proto__":{"format":"raw"}},"request":{"__proto__":{"r":1}}}',
  );
  const custom = endpoint.defaults(JSON.parse('{"headers":{"__proto__":"d"},"__proto__":{"p":1}}'));
  const result = custom("POST /x", options);
  assert.is(Object.getPrototypeOf(result), Object.prototype);
  assert.is(Object.getPrototypeOf(result.headers), Object.prototype);
  assert.is(Object.getOwnPropertyDescriptor(result.headers, "__proto__")?.value, "h");
  assert.is(result.headers.accept, ACCEPT);
  assert.equal(Object.keys(result.body as object), ["__proto__", "constructor", "prototype"]);
  const probe = {} as Record<string, unknown>;
  for (const key of ["x", "y", "z", "p", "r", "format"]) assert.is(probe[key], undefined);
  assert.is(Object.getOwnPropertyDescriptor(custom.DEFAULTS, "__proto__")?.value.p, 1);
});

merging("safety: mutating DEFAULTS, a result or a merge() result changes nothing later", ({ endpoint }) => {
  const custom = endpoint.defaults({ request: { retry: { n: 1 } }, labels: ["a"], headers: { "x-a": "a" } });
  const before = custom("POST /x");
  const defaults = custom.DEFAULTS as any;
  defaults.headers["x-a"] = "changed";
  defaults.request.retry.n = 2;
  defaults.baseUrl = "https://evil.example";
  const result = custom("POST /x") as any;
  result.headers["x-a"] = "changed";
  result.request.retry.n = 3;
  result.body.labels.push("b");
  (custom("POST /x", { request: { timeout: 1 } }).request as any).retry.n = 4;
  const merged = custom.merge("POST /x") as any;
  merged.labels.push("c");
  merged.headers.accept = "x";
  assert.equal(custom("POST /x"), before);
  const agent = new (class Agent {})();
  assert.is((endpoint.defaults({ request: { agent } })("GET /").request as any).agent, agent);
});

merging("safety: cycles end in a result or a TypeError, never a stack overflow", ({ endpoint }) => {
  const cyclic: any = { name: "c" };
  cyclic.self = cyclic;
  assert.is((endpoint("POST /x", { data: cyclic }).body as any).self, cyclic);
  assert.is(endpoint("GET /", { request: cyclic }).request, cyclic);
  throwsType(() => endpoint.defaults({ request: cyclic }), "nested too deeply");
  const other: any = { name: "o" };
  other.self = other;
  const withObject = endpoint.defaults({ config: { a: { a: { a: 1 } } } });
  throwsType(() => withObject.defaults({ config: other }).defaults({ config: other }), "nested too deeply");
});

merging.run();

// --- 5. Building a request: the URL, the query, the body, the headers ------------------------------------------------

const building = section("building a request");

building("url: full URLs are the target, paths join baseUrl with exactly one slash", ({ endpoint }) => {
  assert.is(endpoint("GET https://example.com/a").url, "https://example.com/a");
  assert.is(endpoint("GET HTTP://example.com/a").url, "HTTP://example.com/a");
  assert.is(endpoint("GET /user", { baseUrl: "https://ghe.example/api/v3/" }).url, "https://ghe.example/api/v3/user");
  assert.is(endpoint("GET /user", { baseUrl: "https://ghe.example/api/v3" }).url, "https://ghe.example/api/v3/user");
  assert.is(endpoint("GET user", { baseUrl: "https://ghe.example/api/v3" }).url, "https://ghe.example/api/v3/user");
  assert.is(endpoint("GET /").url, "https://api.github.com/");
});

building("url: a trailing slash goes, unless the URL is just '/'", ({ endpoint }) => {
  assert.is(endpoint("GET /repos/{owner}/", { owner: "a" }).url, "https://api.github.com/repos/a");
  assert.is(endpoint("GET /repos/{owner}/{path}", { owner: "a" }).url, "https://api.github.com/repos/a");
  assert.is(endpoint("GET https://example.com/").url, "https://example.com");
  assert.is(endpoint("GET /a{/b}", { b: "" }).url, "https://api.github.com/a");
  assert.is(endpoint("GET /a{/b,c}", { b: "x", c: "" }).url, "https://api.github.com/a/x");
  assert.is(endpoint("GET /a{+b}", { b: "/c/" }).url, "https://api.github.com/a/c");
  assert.is(endpoint("GET /a{b}/", { b: "" }).url, "https://api.github.com/a");
  assert.is(endpoint("GET /a{b}", { b: "/" }).url, "https://api.github.com/a%2F");
  assert.is(endpoint("GET {+b}", { b: "/" }).url, "https://api.github.com/");
});

building("url: a template that does not start with '/' is joined to baseUrl with one", ({ endpoint }) => {
  assert.is(endpoint("GET {+path}", { path: "/x/y" }).url, "https://api.github.com/x/y");
  assert.is(endpoint("GET {+path}", { path: "x/y" }).url, "https://api.github.com/x/y");
  assert.is(endpoint("GET {/path}", { path: "x" }).url, "https://api.github.com/x");
  assert.is(endpoint("GET x/{y}", { y: 1, baseUrl: "https://h.example/api/" }).url, "https://h.example/api/x/1");
});

building(
  "a baseUrl with a query or fragment: the path goes into the path, parameters into one query",
  ({ endpoint }) => {
    const base = "https://ghe.example/api?tenant=1";
    assert.is(endpoint("GET /user", { baseUrl: base }).url, "https://ghe.example/api/user?tenant=1");
    assert.is(endpoint("GET /user", { baseUrl: base, page: 2 }).url, "https://ghe.example/api/user?tenant=1&page=2");
    assert.is(
      endpoint("GET /search?q=x", { baseUrl: "https://h.example/api/?k=v#top", page: 2 }).url,
      "https://h.example/api/search?q=x&k=v&page=2#top",
    );
    assert.is(endpoint("GET /x#mine", { baseUrl: "https://h.example#theirs" }).url, "https://h.example/x#mine");
    assert.is(endpoint("POST /user", { baseUrl: base, name: "n" }).url, "https://ghe.example/api/user?tenant=1");
    assert.is(
      endpoint.defaults({ baseUrl: base })("GET /orgs/{org}", { org: "o", page: 3 }).url,
      "https://ghe.example/api/orgs/o?tenant=1&page=3",
    );
    assert.is(endpoint("GET https://h.example/x", { baseUrl: base }).url, "https://h.example/x");
  },
);

building("a literal #fragment: GET and HEAD parameters go before it", ({ endpoint }) => {
  assert.is(endpoint("GET /x#frag", { a: 1, b: "c d" }).url, "https://api.github.com/x?a=1&b=c%20d#frag");
  assert.is(endpoint("HEAD /x?y=1#frag", { a: 1 }).url, "https://api.github.com/x?y=1&a=1#frag");
  assert.is(endpoint("GET https://h.example/x#f?g", { a: 1 }).url, "https://h.example/x?a=1#f?g");
  assert.is(endpoint("GET /x{#f}", { f: "s", a: 1 }).url, "https://api.github.com/x?a=1#s");
  assert.is(endpoint("POST /x#frag", { a: 1 }).url, "https://api.github.com/x#frag");
});

building("routing: GET and HEAD send unused parameters as the query, encoded", ({ endpoint }) => {
  assert.is(
    endpoint("GET /x", { a: "1 2", "b&c": "=", list: ["a", "b"], n: 0, t: false }).url,
    "https://api.github.com/x?a=1%202&b%26c=%3D&list=a%2Cb&n=0&t=false",
  );
  assert.is(endpoint("HEAD /x/{id}", { id: 1, page: 2 }).url, "https://api.github.com/x/1?page=2");
  assert.is(endpoint("HEAD /x/{id}", { id: 1, page: 2 }).body, undefined);
});

building("routing: the query appends with & when the URL already has one", ({ endpoint }) => {
  assert.is(endpoint("GET /x?a=1", { b: 2 }).url, "https://api.github.com/x?a=1&b=2");
  assert.is(endpoint("GET /x{?a}", { a: 1, b: 2 }).url, "https://api.github.com/x?a=1&b=2");
  assert.is(endpoint("GET /x{?a}", { b: 2 }).url, "https://api.github.com/x?b=2");
  assert.is(endpoint("GET /x{+a}", { a: "?c=3", b: 2 }).url, "https://api.github.com/x?c=3&b=2");
  assert.is(endpoint("GET /x{#a}", { a: "y?z", b: 2 }).url, "https://api.github.com/x?b=2#y?z");
  assert.is(endpoint("GET /x{+a}", { a: "/y", b: 2 }).url, "https://api.github.com/x/y?b=2");
  assert.is(endpoint("GET /x", { b: 2, baseUrl: "https://h.example/?v=1" }).url, "https://h.example/x?v=1&b=2");
});

building("routing: q keeps literal '+' between encoded parts", ({ endpoint }) => {
  assert.is(
    endpoint("GET /search/issues", { q: 'repo:a/b+is:open label:"x y"' }).url,
    "https://api.github.com/search/issues?q=repo%3Aa%2Fb+is%3Aopen%20label%3A%22x%20y%22",
  );
  assert.is(endpoint("GET /search/code", { q: 42 }).url, "https://api.github.com/search/code?q=42");
});

building(
  "query lists: name[] repeats the name per item; other lists are comma-joined; {?name*} repeats",
  ({ endpoint }) => {
    assert.is(endpoint("GET /x", { "fields[]": [1, 2] }).url, "https://api.github.com/x?fields%5B%5D=1&fields%5B%5D=2");
    assert.is(
      endpoint("GET /x", { "fields[]": ["a b", null, "c"], page: 1 }).url,
      "https://api.github.com/x?fields%5B%5D=a%20b&fields%5B%5D=c&page=1",
    );
    assert.is(endpoint("GET /x", { "fields[]": [], page: 1 }).url, "https://api.github.com/x?page=1");
    assert.is(endpoint("GET /x", { "fields[]": "one" }).url, "https://api.github.com/x?fields%5B%5D=one");
    assert.is(endpoint("GET /x", { labels: ["bug", "ui"] }).url, "https://api.github.com/x?labels=bug%2Cui");
    assert.is(
      endpoint("GET /x{?labels*}", { labels: ["bug", "ui"] }).url,
      "https://api.github.com/x?labels=bug&labels=ui",
    );
    assert.is(
      endpoint("POST /x{?labels*}", { labels: ["bug", "ui"], title: "t" }).url,
      "https://api.github.com/x?labels=bug&labels=ui",
    );
  },
);

building("routing: other methods send unused parameters as a JSON body", ({ endpoint }) => {
  const result = endpoint("POST /repos/{owner}/{repo}/issues", {
    owner: "a",
    repo: "b",
    title: "t",
    labels: ["x"],
    milestone: null,
  });
  assert.equal(result, {
    method: "post",
    url: "https://api.github.com/repos/a/b/issues",
    headers: { accept: ACCEPT, "user-agent": UA, "content-type": "application/json; charset=utf-8" },
    body: { title: "t", labels: ["x"], milestone: null },
  });
  assert.is(Object.getPrototypeOf(result.body), Object.prototype);
  assert.equal(endpoint("DELETE /x/{id}", { id: 1, reason: "r" }).body, { reason: "r" });
});

building("routing: data is the body as it is, other parameters are not sent", ({ endpoint }) => {
  const data = { any: "thing" };
  const result = endpoint("PUT /x/{id}", { id: 1, data, ignored: true });
  assert.is(result.body, data);
  assert.is(result.headers["content-type"], "application/json; charset=utf-8");
  assert.is(endpoint("POST /markdown/raw", { data: "# hi", headers: { "content-type": "text/plain" } }).body, "# hi");
});

building("a body key named like a placeholder goes in data", ({ endpoint }) => {
  const result = endpoint("PATCH /repos/{owner}/{repo}/environments/{environment_name}/variables/{name}", {
    owner: "o",
    repo: "r",
    environment_name: "prod",
    name: "OLD_NAME",
    data: { name: "NEW_NAME", value: "1" },
  });
  assert.is(result.url, "https://api.github.com/repos/o/r/environments/prod/variables/OLD_NAME");
  assert.equal(result.body, { name: "NEW_NAME", value: "1" });
  assert.is(result.headers["content-type"], "application/json; charset=utf-8");
});

building("data on GET or HEAD is a TypeError, never a query parameter", ({ endpoint }) => {
  throwsType(() => endpoint("GET /x", { data: "body" }), "option `data` is a body: GET and HEAD have none");
  throwsType(() => endpoint("HEAD /x", { data: { a: 1 } }), "option `data`");
  throwsType(() => endpoint.parse(endpoint.merge("GET /x", { data: "body" })), "option `data`");
  assert.is(endpoint("GET /x", { data: null, a: 1 }).url, "https://api.github.com/x?a=1");
  assert.is(endpoint("GET /x{?data}", { data: "d" }).url, "https://api.github.com/x?data=d");
});

building("route: a method beside a route overrides it; a url beside it is a parameter", ({ endpoint }) => {
  const result = endpoint("GET /user", { method: "POST", url: "/users/{username}", username: "octocat" });
  assert.is(result.method, "post");
  assert.is(result.url, "https://api.github.com/user");
  assert.equal(result.body, { username: "octocat", url: "/users/{username}" });
});

building("url beside a route: a body key, never the target; the token stays with the route's host", ({ endpoint }) => {
  const route = "PATCH /repos/{owner}/{repo}/hooks/{hook_id}/config";
  const options = {
    owner: "o",
    repo: "r",
    hook_id: 1,
    url: "https://example.com/hook",
    content_type: "json",
    headers: { authorization: "token t" },
  };
  const expected = {
    method: "patch",
    url: "https://api.github.com/repos/o/r/hooks/1/config",
    headers: {
      accept: ACCEPT,
      "user-agent": UA,
      authorization: "token t",
      "content-type": "application/json; charset=utf-8",
    },
    body: { content_type: "json", url: "https://example.com/hook" },
  };
  assert.equal(endpoint(route, options), expected);
  const merged = endpoint.merge(route, options);
  assert.is(merged.url, "/repos/{owner}/{repo}/hooks/{hook_id}/config");
  assert.equal(endpoint.parse(merged), expected);
  // SDK hooks copy merged options with spread or Object.assign: the parameter travels with them.
  assert.equal(endpoint.parse({ ...merged, headers: { ...merged.headers } }), expected);
  assert.equal(endpoint.parse(Object.assign({}, merged)), expected);
  const gh = endpoint.defaults({ headers: { authorization: "token d" }, per_page: 5 });
  assert.equal(
    gh("POST /orgs/{org}/private-registries", { org: "o", url: "https://evil.example", registry_type: "npm" }).body,
    { per_page: 5, registry_type: "npm", url: "https://evil.example" },
  );
  assert.equal(
    gh.parse(gh.merge("POST /orgs/{org}/private-registries", { org: "o", url: "https://evil.example" })).url,
    "https://api.github.com/orgs/o/private-registries",
  );
  // GET: a query parameter like any other.
  assert.is(
    endpoint("GET /search", { url: "https://e.example/?a=1" }).url,
    "https://api.github.com/search?url=https%3A%2F%2Fe.example%2F%3Fa%3D1",
  );
  // Without a route, url is the target, from options or defaults, as ever.
  assert.is(endpoint({ method: "GET", url: "https://x.example/a" }).url, "https://x.example/a");
  assert.is(endpoint.parse(endpoint.merge({ url: "/a/{b}", b: 1 })).url, "https://api.github.com/a/1");
  assert.is(endpoint.defaults({ url: "/users/{u}" })({ u: "me" }).url, "https://api.github.com/users/me");
});

building("routing: a __proto__ body key from JSON.parse stays data", ({ endpoint }) => {
  const options = JSON.parse('{"owner":"a","__proto__":{"polluted":true},"title":"t"}');
  const result = endpoint("POST /repos/{owner}/issues", options);
  const body = result.body as Record<string, unknown>;
  assert.equal(Object.keys(body), ["__proto__", "title"]);
  assert.is(JSON.stringify(body), '{"__proto__":{"polluted":true},"title":"t"}');
  assert.is(Object.getPrototypeOf(body), Object.prototype);
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

building(
  "routing: inherited properties are never options, parameters or headers, even on a polluted Object.prototype",
  ({ endpoint, toFetch }) => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = "x";
    proto.baseUrl = "https://evil.example";
    try {
      assert.is(endpoint("GET /repos/{owner}", { owner: "a", page: 2 }).url, "https://api.github.com/repos/a?page=2");
      assert.equal(endpoint("POST /repos/{owner}", { owner: "a", title: "t" }).body, { title: "t" });
      assert.is(endpoint("POST /repos/{owner}", { owner: "a" }).body, undefined);
      assert.equal(toFetch({ method: "get", url: "/x", headers: { accept: "a" } })[1].headers, { accept: "a" });
    } finally {
      delete proto.polluted;
      delete proto.baseUrl;
    }
  },
);

building("body: PUT and PATCH without a body send an empty one, without content-type", ({ endpoint }) => {
  assert.equal(endpoint("PUT /user/starred/{owner}/{repo}", { owner: "a", repo: "b" }), {
    method: "put",
    url: "https://api.github.com/user/starred/a/b",
    headers: { accept: ACCEPT, "user-agent": UA },
    body: "",
  });
  assert.is(endpoint("PATCH /x").body, "");
  assert.is("body" in endpoint("POST /x"), false);
  assert.is("body" in endpoint("DELETE /x"), false);
});

building("body: a content-type given is kept", ({ endpoint }) => {
  assert.is(
    endpoint("POST /x", { a: 1, headers: { "Content-Type": "application/x" } }).headers["content-type"],
    "application/x",
  );
  const xml = endpoint.defaults({ headers: { "content-type": "application/xml" } });
  assert.equal(xml("POST /x", { a: 1 }).headers, {
    accept: ACCEPT,
    "user-agent": UA,
    "content-type": "application/xml",
  });
  assert.equal(xml("POST /x", { a: 1, headers: { "x-b": "2" } }).headers, {
    accept: ACCEPT,
    "user-agent": UA,
    "content-type": "application/xml",
    "x-b": "2",
  });
});

building("body: a JSON content type joins every combination of the call's headers and media type", ({ endpoint }) => {
  const json = "application/json; charset=utf-8";
  assert.equal(endpoint("POST /x", { a: 1 }).headers, { accept: ACCEPT, "user-agent": UA, "content-type": json });
  assert.equal(endpoint("POST /x", { a: 1, headers: { "x-b": "2" } }).headers, {
    accept: ACCEPT,
    "user-agent": UA,
    "x-b": "2",
    "content-type": json,
  });
  assert.equal(endpoint("POST /x", { a: 1, mediaType: { format: "raw" } }).headers, {
    accept: "application/vnd.github.v3.raw",
    "user-agent": UA,
    "content-type": json,
  });
  assert.equal(endpoint("POST /x", { a: 1, mediaType: { format: "raw" }, headers: { "x-b": "2" } }).headers, {
    accept: "application/vnd.github.v3.raw",
    "user-agent": UA,
    "x-b": "2",
    "content-type": json,
  });
  assert.equal(endpoint("POST /x", { mediaType: { format: "raw" } }).headers, {
    accept: "application/vnd.github.v3.raw",
    "user-agent": UA,
  });
  const raw = endpoint.defaults({ mediaType: { format: "raw" } });
  assert.equal(raw("POST /x", { a: 1 }).headers, {
    accept: "application/vnd.github.v3.raw",
    "user-agent": UA,
    "content-type": json,
  });
  assert.equal(raw("POST /x", { a: 1, headers: { "x-b": "2" } }).headers, {
    accept: "application/vnd.github.v3.raw",
    "user-agent": UA,
    "x-b": "2",
    "content-type": json,
  });
  assert.equal(raw("GET /x", { mediaType: { format: "diff" } }).headers, {
    accept: "application/vnd.github.v3.diff",
    "user-agent": UA,
  });
});

building("bodies that are not JSON get no JSON content type; the caller's wins", ({ endpoint }) => {
  const bare = { accept: ACCEPT, "user-agent": UA };
  const bytes = new Uint8Array([1, 2]);
  for (const data of [
    new FormData(),
    new URLSearchParams("a=1"),
    new Blob(["x"], { type: "text/csv" }),
    bytes,
    bytes.buffer,
    new DataView(bytes.buffer),
    new ReadableStream(),
    { async *[Symbol.asyncIterator]() {} },
  ]) {
    const result = endpoint("POST /x", { data });
    assert.equal(result.headers, bare, Object.prototype.toString.call(data));
    assert.is(result.body, data);
  }
  assert.is(
    endpoint("POST /x", { data: new FormData(), headers: { "content-type": "multipart/form-data; boundary=b" } })
      .headers["content-type"],
    "multipart/form-data; boundary=b",
  );
  // Strings, objects, a Date or a class instance are JSON, as in octokit.
  for (const data of [
    '{"a":1}',
    { a: 1 },
    [1],
    new Date(0),
    new (class Point {
      x = 1;
    })(),
  ]) {
    assert.is(endpoint("POST /x", { data }).headers["content-type"], "application/json; charset=utf-8");
  }
});

building("request: returned as the very object passed", ({ endpoint }) => {
  const request = { agent: {}, timeout: 5 };
  assert.is(endpoint("GET /", { request }).request, request);
  assert.equal(Object.keys(endpoint("POST /", { request, a: 1 })), ["method", "url", "headers", "body", "request"]);
});

building.run();

// --- 6. toFetch(): request options as fetch() arguments -------------------------------------------------------------

const sending = section("toFetch");

sending(
  "toFetch: PATCH uppercased, JSON body serialised, headers as strings, signal carried over",
  ({ endpoint, toFetch }) => {
    const signal = new AbortController().signal;
    const options = endpoint("PATCH /repos/{owner}/{repo}", {
      owner: "o",
      repo: "r",
      private: true,
      request: { signal, agent: 1 },
    });
    const [url, init] = toFetch(options);
    assert.is(url, "https://api.github.com/repos/o/r");
    assert.equal(Object.keys(init), ["method", "headers", "body", "signal"]);
    assert.is(init.method, "PATCH");
    assert.equal(init.headers, { accept: ACCEPT, "user-agent": UA, "content-type": "application/json; charset=utf-8" });
    assert.is(init.body, '{"private":true}');
    assert.is(init.signal, signal);
    assert.equal(options.body, { private: true }, "the request options are not changed");
    assert.is(options.method, "patch");
  },
);

sending(
  "toFetch: GET and HEAD send no body, nor does an empty string; numbers become strings",
  ({ endpoint, toFetch }) => {
    const [getUrl, get] = toFetch({ method: "get", url: "https://x.test/?a=1", headers: { "x-n": 5 }, body: { a: 1 } });
    assert.is(getUrl, "https://x.test/?a=1");
    assert.equal(get, { method: "GET", headers: { "x-n": "5" } });
    assert.equal(toFetch({ method: "head", url: "https://x.test/", headers: {}, body: "x" })[1], {
      method: "HEAD",
      headers: {},
    });
    assert.equal(toFetch(endpoint("PUT /user/starred/{owner}/{repo}", { owner: "o", repo: "r" }))[1], {
      method: "PUT",
      headers: { accept: ACCEPT, "user-agent": UA },
    });
    assert.is(
      endpoint("PUT /user/starred/{owner}/{repo}", { owner: "o", repo: "r" }).body,
      "",
      "endpoint() keeps octokit's empty body",
    );
  },
);

sending("toFetch: arrays and +json types serialise; other bodies pass through untouched", ({ toFetch }) => {
  const json = (body: unknown, type: string) =>
    toFetch({ method: "post", url: "u", headers: { "Content-Type": type }, body })[1].body;
  assert.is(json([1, "a"], "application/json"), '[1,"a"]');
  assert.is(json({ a: null }, "application/merge-patch+json; charset=utf-8"), '{"a":null}');
  assert.is(json(Object.assign(Object.create(null), { b: 2 }), "application/json"), '{"b":2}');
  const bytes = new Uint8Array([0, 255]);
  const bodies = [bytes, bytes.buffer, new Blob(["x"]), new FormData(), new URLSearchParams("a=1"), "text {}", 0];
  for (const body of bodies) assert.is(json(body, "application/json"), body);
  // no content type at all: a plain object is JSON, and says so
  const [, init] = toFetch({ method: "post", url: "u", headers: {}, body: { a: 1 } });
  assert.equal(init, {
    method: "POST",
    headers: { "content-type": "application/json; charset=utf-8" },
    body: '{"a":1}',
  });
});

sending(
  "toFetch: a Date, a class instance or anything with toJSON goes out as JSON, never [object Object]",
  ({ endpoint, toFetch }) => {
    const send = (data: unknown, headers = {}) => toFetch(endpoint("POST /x", { data, headers }))[1];
    assert.is(send(new Date(0)).body, '"1970-01-01T00:00:00.000Z"');
    assert.is(
      send(
        new (class Point {
          x = 1;
          y = 2;
        })(),
      ).body,
      '{"x":1,"y":2}',
    );
    assert.is(send({ toJSON: () => ({ a: 1 }) }).body, '{"a":1}');
    assert.is(
      send(
        new (class Patch {
          op = "add";
        })(),
        { "content-type": "application/merge-patch+json" },
      ).body,
      '{"op":"add"}',
    );
    throwsType(
      () => send(new (class A {})(), { "content-type": "text/plain" }),
      'an object body cannot be sent as "text/plain"',
    );
    throwsType(() => toFetch({ method: "post", url: "u", headers: {}, body: () => 1 }), "the body has no JSON form");
    throwsType(
      () => toFetch({ method: "post", url: "u", headers: {}, body: { toJSON: () => undefined } }),
      "the body has no JSON form",
    );
  },
);

sending("toFetch: the result makes a Request as is", async ({ endpoint, toFetch }) => {
  const request = new Request(
    ...toFetch(endpoint("PATCH /repos/{owner}/{repo}", { owner: "o", repo: "r", archived: true })),
  );
  assert.is(request.method, "PATCH");
  assert.is(request.url, "https://api.github.com/repos/o/r");
  assert.is(request.headers.get("content-type"), "application/json; charset=utf-8");
  assert.is(await request.text(), '{"archived":true}');
});

sending("toFetch: a stream passes through with duplex: half", ({ toFetch }) => {
  const stream = new ReadableStream();
  const [, init] = toFetch({
    method: "post",
    url: "u",
    headers: { "content-type": "application/octet-stream" },
    body: stream,
  });
  assert.is(init.body, stream);
  assert.is((init as Record<string, unknown>).duplex, "half");
  const iterable = { async *[Symbol.asyncIterator]() {} };
  assert.is(
    (toFetch({ method: "put", url: "u", headers: {}, body: iterable })[1] as Record<string, unknown>).duplex,
    "half",
  );
  assert.is(
    (toFetch({ method: "put", url: "u", headers: {}, body: "s" })[1] as Record<string, unknown>).duplex,
    undefined,
  );
});

sending("toFetch: bad input is a TypeError naming what is wrong", ({ toFetch }) => {
  throwsType(() => toFetch(null as any), "request options must be an object, not null");
  throwsType(
    () => toFetch({ url: "u", headers: {} } as any),
    "request option `method` must be a string, not undefined",
  );
  throwsType(
    () => toFetch({ method: "get", url: 1, headers: {} } as any),
    "request option `url` must be a string, not number",
  );
  throwsType(
    () => toFetch({ method: "get", url: "u", headers: [] } as any),
    "option `headers` must be a plain object, not array",
  );
  throwsType(
    () => toFetch({ method: "get", url: "u", headers: { "x-a": {} } } as any),
    'header "x-a" must be a string without CR, LF or NUL, or a number',
  );
  throwsType(
    () => toFetch({ method: "get", url: "u", headers: { "x-a": "1\r\nx-b: 2" } }),
    'header "x-a" must be a string without CR, LF or NUL',
  );
  const form = {
    method: "post",
    url: "u",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: { a: 1 },
  };
  throwsType(() => toFetch(form), 'an object body cannot be sent as "application/x-www-form-urlencoded"');
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  throwsType(() => toFetch({ method: "post", url: "u", headers: {}, body: cyclic }), "the body has no JSON form");
  throwsType(() => toFetch({ method: "post", url: "u", headers: {}, body: { n: 1n } }), "the body has no JSON form");
});

sending("toFetch: a __proto__ header stays a header", ({ toFetch }) => {
  const headers = JSON.parse('{"__proto__": "x", "a": "1"}');
  const [, init] = toFetch({ method: "get", url: "u", headers });
  assert.equal(Object.keys(init.headers), ["__proto__", "a"]);
  assert.is(Object.getPrototypeOf(init.headers), Object.prototype);
});

sending.run();

// --- 8. withOpenAPI(): requests as an OpenAPI description says -------------------------------------------------------

/**
 * The OpenAPI Specification's style examples ("Style Examples", 3.2.0, as 3.0.4 and 3.1.1 corrected them), for
 * `color` = "blue", ["blue", "black", "brown"] and { R: 100, G: 200, B: 150 }: style, explode, then what each value
 * becomes. Characters a URL must escape (`|`, `[`, `]`) are percent-encoded, the delimited styles carry the name, and
 * an unexploded `label` list or object is RFC 6570's `{.x}` (`.blue,black,brown`), where 3.0.3 and 3.1.0 wrote dots.
 */
const STYLE_TABLE: [
  style: string,
  explode: boolean,
  string: string | undefined,
  array: string,
  object: string | undefined,
][] = [
  ["matrix", false, ";color=blue", ";color=blue,black,brown", ";color=R,100,G,200,B,150"],
  ["matrix", true, ";color=blue", ";color=blue;color=black;color=brown", ";R=100;G=200;B=150"],
  ["label", false, ".blue", ".blue,black,brown", ".R,100,G,200,B,150"],
  ["label", true, ".blue", ".blue.black.brown", ".R=100.G=200.B=150"],
  ["form", false, "color=blue", "color=blue,black,brown", "color=R,100,G,200,B,150"],
  ["form", true, "color=blue", "color=blue&color=black&color=brown", "R=100&G=200&B=150"],
  ["simple", false, "blue", "blue,black,brown", "R,100,G,200,B,150"],
  ["simple", true, "blue", "blue,black,brown", "R=100,G=200,B=150"],
  ["spaceDelimited", false, undefined, "color=blue%20black%20brown", "color=R%20100%20G%20200%20B%20150"],
  ["pipeDelimited", false, undefined, "color=blue%7Cblack%7Cbrown", "color=R%7C100%7CG%7C200%7CB%7C150"],
  ["deepObject", true, undefined, "", "color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150"],
];
const COLOR = { string: "blue", array: ["blue", "black", "brown"], object: { R: 100, G: 200, B: 150 } };

const [telecom, ai, files] = PRODUCTION_FIXTURES.map(published);
const SID = "AC" + "0123456789abcdef".repeat(2);

const openapi = section("withOpenAPI");

openapi("every row of the OpenAPI style table, in the location each style is for", ({ withOpenAPI, base }) => {
  for (const [style, explode, ...expected] of STYLE_TABLE) {
    let where = style === "simple" ? "header" : "path";
    if (style === "form" || /Delimited|deepObject/.test(style)) where = "query";
    const path = where === "path" ? "/colors/{color}" : "/colors";
    const description = {
      paths: { [path]: { get: { parameters: [{ name: "color", in: where, style, explode, required: true }] } } },
    };
    const api = withOpenAPI(base, description);
    (["string", "array", "object"] as const).forEach((kind, i) => {
      const want = expected[i];
      if (want === undefined || (style === "deepObject" && kind !== "object")) return;
      const { url, headers } = api(`GET ${path}`, { color: COLOR[kind] });
      const written = url.slice(`https://api.example/colors${where === "path" ? "/" : "?"}`.length);
      const got = where === "header" ? headers.color : written;
      assert.is(got, want, `${style}, explode ${explode}, ${kind}`);
    });
  }
});

openapi(
  "readme's parameter-style description: path, query, header and cookie parameters of every style",
  ({ withOpenAPI, base }) => {
    const api = withOpenAPI(base, published("parameters-style"));
    const values = { primitive: "blue", array: ["blue", "black", "brown"], object: { R: 100, G: 200, B: 150 } };
    const at = (route: string) => api(route, values);
    assert.is(
      at("GET /anything/path/matrix/{primitive}/{array}/{object}").url,
      "https://api.example/anything/path/matrix/;primitive=blue/;array=blue,black,brown/;object=R,100,G,200,B,150",
    );
    assert.is(
      at("POST /anything/path/label/{primitive}/{array}/{object}").url,
      "https://api.example/anything/path/label/.blue/.blue.black.brown/.R=100.G=200.B=150",
    );
    // Query parameters of a POST stay in the query, exploded by default.
    assert.is(
      at("POST /anything/query/form").url,
      "https://api.example/anything/query/form?primitive=blue&array=blue&array=black&array=brown&R=100&G=200&B=150",
    );
    assert.is(at("POST /anything/query/form").body, undefined);
    assert.is(
      at("GET /anything/query").url,
      "https://api.example/anything/query?primitive=blue&array=blue&array=black&array=brown&R=100&G=200&B=150",
    );
    // Its responses have no content: any media type will do.
    assert.equal(at("POST /anything/headers/simple").headers, {
      accept: "*/*",
      "user-agent": UA,
      primitive: "blue",
      array: "blue,black,brown",
      object: "R=100,G=200,B=150",
    });
    assert.is(
      at("GET /cookies#formNonExploded").headers.cookie,
      "primitive=blue; array=blue,black,brown; object=R,100,G,200,B,150",
    );
    assert.is(
      at("GET /cookies#formExploded").headers.cookie,
      "primitive=blue; array=blue; array=black; array=brown; R=100; G=200; B=150",
    );
  },
);

openapi(
  "petstore: an exploded array query, a header parameter on DELETE, a form body",
  ({ endpoint, withOpenAPI, base }) => {
    const pets = withOpenAPI(endpoint.defaults({ baseUrl: "https://petstore.example/v2" }), published("petstore"));
    const authorized = pets.defaults({ "auth:petstore_auth": "t0ken" });
    // What the operation answers with, JSON first; any media type where it answers with none.
    assert.equal(authorized("GET /pet/findByStatus", { status: ["available", "pending"] }), {
      method: "get",
      url: "https://petstore.example/v2/pet/findByStatus?status=available&status=pending",
      headers: { accept: "application/json, application/xml", "user-agent": UA, authorization: "Bearer t0ken" },
    });
    assert.equal(authorized("DELETE /pet/{petId}", { petId: 7, api_key: "special-key" }), {
      method: "delete",
      url: "https://petstore.example/v2/pet/7",
      headers: { accept: "*/*", "user-agent": UA, api_key: "special-key", authorization: "Bearer t0ken" },
    });
    const form = authorized("POST /pet/{petId}", { petId: 7, name: "Rex & co", status: "sold" });
    assert.is(form.url, "https://petstore.example/v2/pet/7");
    assert.instance(form.body, URLSearchParams);
    assert.is(String(form.body), "name=Rex+%26+co&status=sold");
    assert.is(
      form.headers["content-type"],
      "application/x-www-form-urlencoded",
      "labelled as the description says, for every client",
    );
    const upload = authorized("POST /pet/{petId}/uploadImage", {
      petId: 7,
      additionalMetadata: "front",
      file: new Blob(["png"]),
    });
    assert.instance(upload.body, FormData);
    assert.equal([...(upload.body as FormData).keys()], ["additionalMetadata", "file"]);
    assert.instance((upload.body as FormData).get("file"), Blob);
    // A `url` property travels beside the route as a parameter, and lands in the form; lists are a field per item.
    const spec = withOpenAPI(base, {
      paths: { "/specs": { post: { requestBody: { content: { "multipart/form-data": {} } } } } },
    });
    const fields = spec("POST /specs", { url: "https://example.com/a.json", tags: ["a", "b"], meta: { v: 1 } })
      .body as FormData;
    assert.equal(
      [...fields.entries()],
      [
        ["tags", "a"],
        ["tags", "b"],
        ["meta", '{"v":1}'],
        ["url", "https://example.com/a.json"],
      ],
    );
    // JSON bodies as endpoint() builds them.
    assert.equal(authorized("POST /pet", { name: "Rex", photoUrls: ["a"] }).body, { name: "Rex", photoUrls: ["a"] });
  },
);

openapi(
  "a JSON body: its properties in the call's order, undefined ones left out, whatever keys come between",
  ({ endpoint, withOpenAPI }) => {
    const pets = withOpenAPI(
      endpoint.defaults({ baseUrl: "https://petstore.example/v2" }),
      published("petstore"),
    ).defaults({
      "auth:petstore_auth": "t0ken",
    });
    // The keys the body object holds, in order: JSON text would hide a key held undefined.
    const bodyOf = (route: string, options: Record<string, unknown>) =>
      JSON.stringify(Object.entries(pets(route as never, options as never).body as object));
    // All keys body properties: the body is a copy, never the caller's object.
    const given = { name: "Rex", status: "sold" };
    const all = pets("POST /pet", given);
    assert.equal(all.body, { name: "Rex", status: "sold" });
    assert.is.not(all.body, given);
    assert.is(
      bodyOf("POST /pet", { name: "Rex", id: undefined, status: "sold" }),
      '[["name","Rex"],["status","sold"]]',
    );
    assert.is(
      bodyOf("POST /pet", { name: "Rex", status: "sold", id: undefined }),
      '[["name","Rex"],["status","sold"]]',
    );
    assert.is(
      bodyOf("POST /pet", { name: "Rex", headers: { "x-a": "1" }, status: "sold", tags: [] }),
      '[["name","Rex"],["status","sold"],["tags",[]]]',
    );
    assert.is(
      bodyOf("PUT /user/{username}", { email: "e", username: "mona", lastName: "L" }),
      '[["email","e"],["lastName","L"]]',
    );
    assert.is(
      bodyOf("POST /pet", { name: "Rex", "body:url": "u", status: "sold" }),
      '[["name","Rex"],["url","u"],["status","sold"]]',
    );
    // A `__proto__` key is an ordinary property.
    const parsed = JSON.parse('{"__proto__": {"isAdmin": true}, "name": "Rex"}');
    const polluting = pets("POST /pet", parsed).body as Record<string, unknown>;
    assert.equal(Object.keys(polluting), ["__proto__", "name"]);
    assert.is(Object.getPrototypeOf(polluting), Object.prototype);
  },
);

openapi("$ref parameters, and path-level parameters the operation overrides", ({ withOpenAPI, base }) => {
  const description = {
    paths: {
      "/items/{id}": {
        parameters: [
          { $ref: "#/components/parameters/id" },
          { name: "limit", in: "query", schema: { type: "integer" } },
        ],
        get: { parameters: [{ name: "limit", in: "query", style: "form", explode: false, required: true }] },
      },
    },
    components: { parameters: { id: { name: "id", in: "path", required: true, style: "label" } } },
  };
  const api = withOpenAPI(base, description);
  assert.is(api("GET /items/{id}", { id: 5, limit: [1, 2] }).url, "https://api.example/items/.5?limit=1,2");
  throwsType(() => api("GET /items/{id}", { id: 5 }), 'parameter "limit" is required by "GET /items/{id}"');
  const broken = withOpenAPI(base, {
    paths: { "/x": { get: { parameters: [{ $ref: "#/components/parameters/nope" }] } } },
  });
  // A `$ref` naming nothing where the call reads it, a parameter or an operation, is an error naming it.
  throwsType(() => broken("GET /x"), '"GET /x": parameter 0: $ref "#/components/parameters/nope" names nothing');
  const lost = withOpenAPI(base, { paths: { "/y": { get: { $ref: "#/components/nope" } } } } as never);
  throwsType(() => lost("GET /y"), '$ref "#/components/nope" names nothing');
});

openapi(
  "allowReserved keeps reserved characters; other query parameters stay escaped; pairs in the declared order",
  ({ withOpenAPI, base }) => {
    const description = {
      paths: {
        "/find": {
          get: {
            parameters: [
              { name: "path", in: "query", allowReserved: true },
              { name: "q", in: "query" },
            ],
          },
        },
      },
    };
    const api = withOpenAPI(base, description);
    assert.is(api("GET /find", { path: "a/b?c", q: "a/b?c" }).url, "https://api.example/find?path=a/b?c&q=a%2Fb%3Fc");
    assert.is(api("GET /find", { path: "a/b" }).url, "https://api.example/find?path=a/b");
  },
);

openapi(
  "a parameter named like a named option is passed as in:name; url beside a route fills a url parameter",
  ({ withOpenAPI, base }) => {
    const description = {
      paths: {
        "/hooks": {
          post: {
            parameters: [
              { name: "headers", in: "query" },
              { name: "url", in: "query" },
            ],
            requestBody: { content: { "application/json": { schema: { type: "object" } } } },
          },
        },
      },
    };
    const api = withOpenAPI(base.defaults({ headers: { authorization: "token t" } }), description);
    // Per call, a named option that a parameter is named like may be a stranger's field: refused, never an option.
    throwsType(
      () => api("POST /hooks", { headers: { "x-a": "1" } }),
      '"POST /hooks" has a query parameter "headers": pass it as "query:headers", or set the option in defaults()',
    );
    const result = api("POST /hooks", {
      "query:headers": "all",
      url: "https://hooks.example/a?b",
      active: true,
    });
    assert.equal(result, {
      method: "post",
      url: "https://api.example/hooks?headers=all&url=https%3A%2F%2Fhooks.example%2Fa%3Fb",
      headers: {
        accept: "*/*",
        "user-agent": UA,
        authorization: "token t",
        "content-type": "application/json; charset=utf-8",
      },
      body: { active: true },
    });
  },
);

openapi(
  "defaults(), merge(), parse() and DEFAULTS: endpoint(x) equals parse(merge(x)), defaults apply",
  ({ withOpenAPI, base }) => {
    const pets = withOpenAPI(base, published("petstore")).defaults({
      headers: { authorization: "token t" },
      petId: 3,
    });
    const options = { api_key: "k" };
    assert.equal(pets("DELETE /pet/{petId}", options), pets.parse(pets.merge("DELETE /pet/{petId}", options)));
    assert.equal(pets("DELETE /pet/{petId}", options), {
      method: "delete",
      url: "https://api.example/pet/3",
      headers: { accept: "*/*", "user-agent": UA, authorization: "token t", api_key: "k" },
    });
    assert.is(pets.DEFAULTS.baseUrl, "https://api.example");
    assert.equal(options, { api_key: "k" }, "the options are not modified");
  },
);

openapi(
  "errors: a route the description lacks, a description that is not one, a missing path parameter",
  ({ withOpenAPI, base }) => {
    const pets = withOpenAPI(base, published("petstore"));
    throwsType(() => pets("GET /pets"), 'route "GET /pets" is not in the description');
    throwsType(() => pets("PATCH /pet/{petId}", { petId: 1 }), 'route "PATCH /pet/{petId}" is not in the description');
    throwsType(() => pets("GET /pet/{petId}"), 'parameter "petId" is required by "GET /pet/{petId}"');
    throwsType(
      () => withOpenAPI(base, { openapi: "3.0.0" } as never),
      "withOpenAPI's description's `paths` must be an object of path items, not undefined",
    );
    throwsType(
      () => withOpenAPI(base, { paths: { "/a/{b}": { get: {} } } })("GET /a/{b}", { b: 1 }),
      '"GET /a/{b}": no path parameter "b" for {b}',
    );
  },
);

openapi(
  "hostile values: a path value cannot leave its segment, a header or cookie value cannot add a header",
  ({ withOpenAPI, base }) => {
    const description = {
      paths: {
        "/files/{name}": {
          get: {
            parameters: [
              { name: "name", in: "path", required: true },
              { name: "x-tag", in: "header" },
              { name: "session", in: "cookie" },
            ],
          },
        },
      },
    };
    const api = withOpenAPI(base, description);
    throwsType(() => api("GET /files/{name}", { name: ".." }), 'parameter "name" makes the path segment ".."');
    assert.is(api("GET /files/{name}", { name: "../etc?x#y" }).url, "https://api.example/files/..%2Fetc%3Fx%23y");
    throwsType(
      () => api("GET /files/{name}", { name: "a", "x-tag": "a\r\nx-admin: 1" }),
      'header parameter "x-tag" holds a character no header holds',
    );
    const { headers } = api("GET /files/{name}", {
      name: "a",
      session: "s; admin=1",
      headers: { cookie: "theme=dark" },
    });
    assert.is(headers.cookie, "theme=dark; session=s%3B%20admin%3D1");
  },
);

openapi(
  "servers: the operation's, else the path's, else the description's, variables at their defaults",
  ({ endpoint, withOpenAPI }) => {
    const api = withOpenAPI(endpoint, ai);
    assert.is(
      api("POST /chat/completions", { model: "m", messages: [] }).url,
      "https://api.ai.example/v1/chat/completions",
    );
    assert.is(
      api("POST /uploads/{upload_id}/parts", { upload_id: "u1", data: new Blob(["x"]) }).url,
      "https://uploads.ai.example/v1/uploads/u1/parts",
    );
    assert.is(
      api("POST /oauth/token", { grant_type: "client_credentials", client_id: "c" }).url,
      "https://auth.ai.example/oauth/token",
    );
    assert.is(api("POST /realtime/sessions").url, "https://us.api.ai.example/v1/realtime/sessions");
    const calls = withOpenAPI(endpoint, telecom);
    assert.is(
      calls("POST /v2/Services/{ServiceSid}/Verifications", { ServiceSid: "VA1", To: "+1", Channel: "sms" }).url,
      "https://verify.telecom.example/v2/Services/VA1/Verifications",
    );
    assert.is(
      calls("GET /v1/Services/{ServiceSid}/Documents", { ServiceSid: "IS1" }).url,
      "https://sync.telecom.example/v1/Services/IS1/Documents",
    );
    assert.is(
      calls("DELETE /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers/{Sid}.json", { AccountSid: SID, Sid: "PN1" })
        .url,
      `https://api.telecom.example/2010-04-01/Accounts/${SID}/IncomingPhoneNumbers/PN1.json`,
    );
    // A server variable without a default is named.
    const open = withOpenAPI(endpoint, {
      servers: [{ url: "https://{tenant}.example" }],
      paths: { "/a": { get: {} } },
    });
    throwsType(() => open("GET /a"), 'server "https://{tenant}.example" has no default for {tenant}');
  },
);

openapi(
  "servers: a baseUrl the caller sets wins, in defaults() before or after, or in the call; a relative server goes under it",
  ({ endpoint, withOpenAPI, base }) => {
    const staging = "https://staging.example/v9";
    const route = "GET /fine_tuning/jobs";
    assert.is(withOpenAPI(endpoint.defaults({ baseUrl: staging }), ai)(route).url, `${staging}/fine_tuning/jobs`);
    assert.is(withOpenAPI(endpoint, ai).defaults({ baseUrl: staging })(route).url, `${staging}/fine_tuning/jobs`);
    assert.is(withOpenAPI(endpoint, ai)(route, { baseUrl: staging }).url, `${staging}/fine_tuning/jobs`);
    assert.is(
      withOpenAPI(endpoint, ai)("POST /uploads/{upload_id}/parts", { upload_id: "u", data: "x", baseUrl: staging }).url,
      `${staging}/uploads/u/parts`,
    );
    // A relative server is a path under the baseUrl the caller set, whoever set it; the library's own is none.
    throwsType(() => withOpenAPI(endpoint, files)("GET /events"), '"GET /events": its server "/internal" is relative');
    assert.is(
      withOpenAPI(endpoint.defaults({ baseUrl: "https://box.example/api" }), files)("GET /events").url,
      "https://box.example/api/internal/events",
    );
    assert.is(
      withOpenAPI(endpoint, files)("GET /events", { baseUrl: "https://box.example" }).url,
      "https://box.example/internal/events",
    );
    // A relative server's trailing slashes go, as a base URL's does; one without a leading "/" gets one.
    assert.is(
      withOpenAPI(base, { servers: [{ url: "/v2//" }], paths: { "/a": { get: {} } } })("GET /a").url,
      "https://api.example/v2/a",
    );
    assert.is(
      withOpenAPI(base, { servers: [{ url: "v2" }], paths: { "/a": { get: {} } } })("GET /a").url,
      "https://api.example/v2/a",
    );
    // Without servers, the baseUrl the caller set; the library's GitHub default is none.
    throwsType(
      () => withOpenAPI(endpoint, { paths: { "/a": { get: {} } } })("GET /a"),
      '"GET /a": its description names no server: set `baseUrl`',
    );
    assert.is(withOpenAPI(base, { paths: { "/a": { get: {} } } })("GET /a").url, "https://api.example/a");
  },
);

openapi(
  "accept: what the operation answers with on success, JSON first; GitHub's media type only where the caller keeps it",
  ({ endpoint, withOpenAPI }) => {
    const api = withOpenAPI(endpoint, ai);
    assert.equal(api("POST /chat/completions", { model: "m", messages: [] }).headers, {
      accept: "application/json, text/event-stream",
      "user-agent": UA,
      "content-type": "application/json; charset=utf-8",
    });
    assert.is(api("POST /audio/speech", { input: "hi" }).headers.accept, "audio/mpeg");
    const box = endpoint.defaults({ baseUrl: "https://box.example" });
    assert.is(
      withOpenAPI(box, files)("DELETE /files/{file_id}", { file_id: 1 }).headers.accept,
      "*/*",
      "a 204 answers with nothing",
    );
    assert.is(withOpenAPI(box, files)("GET /scim/v2/Users").headers.accept, "application/scim+json");
    // The caller's accept wins, in the call or in defaults(), before or after.
    assert.is(api("POST /audio/speech", { input: "hi", headers: { Accept: "audio/wav" } }).headers.accept, "audio/wav");
    assert.is(
      withOpenAPI(endpoint.defaults({ headers: { accept: "audio/wav" } }), ai)("POST /audio/speech", { input: "hi" })
        .headers.accept,
      "audio/wav",
    );
    assert.is(
      api.defaults({ headers: { accept: "audio/wav" } })("POST /audio/speech", { input: "hi" }).headers.accept,
      "audio/wav",
    );
    // A media type the caller sets applies as it does for endpoint(): GitHub's format and previews.
    const github = withOpenAPI(endpoint, {
      servers: [{ url: "https://api.github.com" }],
      paths: {
        "/repos/{owner}/{repo}/pulls/{pull_number}": {
          get: {
            parameters: [
              { name: "owner", in: "path" },
              { name: "repo", in: "path" },
              { name: "pull_number", in: "path" },
            ],
            responses: { 200: { content: { "application/json": {} } } },
          },
        },
      },
    });
    const pull = { owner: "o", repo: "r", pull_number: 1 };
    assert.is(github("GET /repos/{owner}/{repo}/pulls/{pull_number}", pull).headers.accept, "application/json");
    assert.is(
      github("GET /repos/{owner}/{repo}/pulls/{pull_number}", { ...pull, mediaType: { format: "diff" } }).headers
        .accept,
      "application/vnd.github.v3.diff",
    );
    assert.is(
      github.defaults({ mediaType: { previews: ["mercy"] } })("GET /repos/{owner}/{repo}/pulls/{pull_number}", pull)
        .headers.accept,
      "application/vnd.github.mercy-preview+json",
    );
    // The cast keeps GitHub's.
    assert.is(endpoint("GET /repos/{owner}/{repo}/pulls/{pull_number}", pull).headers.accept, ACCEPT);
  },
);

openapi(
  "content-type: the request body's media type; JSON Patch, Merge Patch and SCIM go out as JSON through toFetch()",
  ({ endpoint, toFetch, withOpenAPI, base }) => {
    const api = withOpenAPI(endpoint, files);
    const patch = [{ op: "replace", path: "/team", value: "Finance" }];
    const metadata = api("PUT /files/{file_id}/metadata/{scope}/{template_key}", {
      file_id: 12,
      scope: "enterprise",
      template_key: "contract",
      data: patch,
    });
    assert.equal(metadata, {
      method: "put",
      url: "https://api.files.example/2.0/files/12/metadata/enterprise/contract",
      headers: { accept: "application/json", "user-agent": UA, "content-type": "application/json-patch+json" },
      body: patch,
    });
    assert.equal(toFetch(metadata)[1].body, JSON.stringify(patch));
    const merge = api("PATCH /users/{user_id}", { user_id: 7, job_title: null, status: "inactive" });
    assert.is(merge.headers["content-type"], "application/merge-patch+json");
    assert.equal(merge.body, { job_title: null, status: "inactive" });
    assert.is(toFetch(merge)[1].body, '{"job_title":null,"status":"inactive"}');
    const scim = api("POST /scim/v2/Users", {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
      userName: "mona",
      headers: { authorization: "Bearer t" },
    });
    assert.is(scim.headers["content-type"], "application/scim+json");
    assert.equal(toFetch(scim)[1].headers["content-type"], "application/scim+json");
    assert.is(toFetch(scim)[1].body, '{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"mona"}');
    // The caller's content-type wins; a GET, a DELETE without a body and a multipart form get none (fetch
    // labels a FormData with its boundary).
    assert.is(
      api("PATCH /users/{user_id}", { user_id: 7, name: "M", headers: { "content-type": "application/json" } }).headers[
        "content-type"
      ],
      "application/json",
    );
    assert.is(api("GET /files/{file_id}", { file_id: 1 }).headers["content-type"], undefined);
    assert.is(api("DELETE /files/{file_id}", { file_id: 1 }).headers["content-type"], undefined);
    assert.is(
      api("POST /files/content", { attributes: "{}", file: new Blob(["x"]) }).headers["content-type"],
      undefined,
    );
    // Bytes are labelled too.
    const bytes = withOpenAPI(base, {
      paths: { "/blobs": { post: { requestBody: { content: { "application/octet-stream": {} } } } } },
    })("POST /blobs", { data: new Uint8Array([1]) });
    assert.is(bytes.headers["content-type"], "application/octet-stream");
  },
);

openapi(
  "path keys: a #fragment only tells operations apart; a literal query stays, and the parameters join it",
  ({ endpoint, withOpenAPI, base }) => {
    const api = withOpenAPI(endpoint, files);
    assert.is(
      api("GET /files/{file_id}#get_shared_link", { file_id: 42, fields: "shared_link" }).url,
      "https://api.files.example/2.0/files/42?fields=shared_link",
    );
    const link = api("PUT /files/{file_id}#add_shared_link", {
      file_id: 42,
      fields: "shared_link",
      shared_link: { access: "open" },
    });
    assert.is(link.url, "https://api.files.example/2.0/files/42?fields=shared_link");
    assert.equal(link.body, { shared_link: { access: "open" } });
    throwsType(
      () => api("GET /files/{file_id}#get_shared_link", { file_id: 42 }),
      'parameter "fields" is required by "GET /files/{file_id}#get_shared_link"',
    );
    const responses = withOpenAPI(endpoint, ai);
    assert.is(
      responses("GET /responses/{response_id}?beta=true", { response_id: "r1", include: ["a", "b"], starting_after: 3 })
        .url,
      "https://api.ai.example/v1/responses/r1?beta=true&include=a&include=b&starting_after=3",
    );
    assert.is(
      responses("GET /responses/{response_id}?beta=true", { response_id: "r1" }).url,
      "https://api.ai.example/v1/responses/r1?beta=true",
    );
    assert.is(
      responses("GET /responses/{response_id}", { response_id: "r1", include: ["a"] }).url,
      "https://api.ai.example/v1/responses/r1?include=a",
    );
    // Its allowReserved and cookie parameters too.
    const reserved = withOpenAPI(base, {
      paths: {
        "/find?v=2#x": {
          get: {
            parameters: [
              { name: "path", in: "query", allowReserved: true },
              { name: "s", in: "cookie" },
            ],
          },
        },
      },
    });
    const found = reserved("GET /find?v=2#x", { path: "a/b#c[d]", s: "1" });
    assert.equal([found.url, found.headers.cookie], ["https://api.example/find?v=2&path=a/b%23c%5Bd%5D", "s=1"]);
  },
);

openapi(
  "path keys: a literal `:` after a placeholder is text (`{name}:cancel`), not a placeholder",
  ({ endpoint, withOpenAPI }) => {
    const api = withOpenAPI(endpoint, {
      servers: [{ url: "https://jobs.example/v1" }],
      paths: { "/{name}:cancel": { post: { parameters: [{ name: "name", in: "path", required: true }] } } },
    });
    assert.is(api("POST /{name}:cancel", { name: "jobs/7" }).url, "https://jobs.example/v1/jobs%2F7:cancel");
  },
);

openapi(
  "name clashes: body:<name> for a body property or form field; `data` is a form's field",
  ({ endpoint, withOpenAPI }) => {
    const api = withOpenAPI(endpoint, ai);
    const job = api("POST /fine_tuning/jobs", { model: "m", training_file: "f", "body:method": { type: "dpo" } });
    assert.equal(job.body, { model: "m", training_file: "f", method: { type: "dpo" } });
    assert.is(job.method, "post");
    const hook = api("POST /webhooks/{webhook_id}", {
      webhook_id: "w",
      "body:url": "https://hooks.example/a",
      "body:headers": { "x-a": "1" },
      "body:data": { b: 2 },
      events: ["done"],
    });
    assert.equal(hook.body, {
      url: "https://hooks.example/a",
      headers: { "x-a": "1" },
      data: { b: 2 },
      events: ["done"],
    });
    assert.equal(
      hook.headers,
      { accept: "application/json", "user-agent": UA, "content-type": "application/json; charset=utf-8" },
      "body:headers sets no header",
    );
    assert.is(hook.url, "https://api.ai.example/v1/webhooks/w");
    // A url beside the route is a body property too, as with endpoint().
    assert.equal(api("POST /webhooks/{webhook_id}", { webhook_id: "w", url: "https://hooks.example/b" }).body, {
      url: "https://hooks.example/b",
    });
    // A multipart field named `data` is a field.
    const part = api("POST /uploads/{upload_id}/parts", { upload_id: "u", data: new Blob(["chunk"]) }).body as FormData;
    assert.instance(part, FormData);
    assert.equal([...part.keys()], ["data"]);
    assert.instance(part.get("data"), Blob);
    // A form field named like a path parameter.
    const move = withOpenAPI(endpoint, telecom)(
      "POST /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers/{Sid}.json",
      { AccountSid: SID, Sid: "PN1", "body:AccountSid": "AC2", FriendlyName: "Main" },
    );
    assert.is(move.url, `https://api.telecom.example/2010-04-01/Accounts/${SID}/IncomingPhoneNumbers/PN1.json`);
    assert.is(String(move.body), "AccountSid=AC2&FriendlyName=Main");
    // A whole form is still the body.
    const whole = new URLSearchParams("To=%2B1");
    assert.is(
      withOpenAPI(endpoint, telecom)("POST /v2/Services/{ServiceSid}/Verifications", { ServiceSid: "VA1", data: whole })
        .body,
      whole,
    );
    throwsType(
      () => api("GET /fine_tuning/jobs", { "body:method": 1 }),
      '"GET /fine_tuning/jobs" has no body for "body:method"',
    );
    throwsType(
      () => api("POST /fine_tuning/jobs", { data: {}, "body:method": 1 }),
      'option `data` is the whole body: "POST /fine_tuning/jobs" takes no "body:" keys beside it',
    );
  },
);

openapi("form bodies: lists are a field per item, in the description's media type", ({ endpoint, withOpenAPI }) => {
  const api = withOpenAPI(endpoint, telecom);
  const sms = api("POST /2010-04-01/Accounts/{AccountSid}/Messages.json", {
    AccountSid: SID,
    To: "+15551234567",
    From: "+15557654321",
    Body: "Hi & bye ü",
    MediaUrl: ["https://a.example/1.png", "https://a.example/2.png"],
  });
  assert.instance(sms.body, URLSearchParams);
  assert.is(
    String(sms.body),
    "To=%2B15551234567&From=%2B15557654321&Body=Hi+%26+bye+%C3%BC&MediaUrl=https%3A%2F%2Fa.example%2F1.png&MediaUrl=https%3A%2F%2Fa.example%2F2.png",
  );
  assert.equal(sms.headers, {
    accept: "application/json",
    "user-agent": UA,
    "content-type": "application/x-www-form-urlencoded",
  });
  const token = withOpenAPI(endpoint, ai)("POST /oauth/token", {
    grant_type: "client_credentials",
    client_id: "c",
    scope: ["read", "write"],
  });
  assert.is(String(token.body), "grant_type=client_credentials&client_id=c&scope=read&scope=write");
});

openapi(
  "URLs RFC 3986 allows: query names and values percent-encoded, `<` and `>` in names too",
  ({ endpoint, withOpenAPI, base }) => {
    const api = withOpenAPI(endpoint, telecom);
    const { url } = api("GET /2010-04-01/Accounts/{AccountSid}/Calls.json", {
      AccountSid: SID,
      "StartTime<": "2026-11-01T00:00:00Z",
      "StartTime>": "2026-10-01",
      Status: "in-progress",
    });
    assert.is(
      url,
      `https://api.telecom.example/2010-04-01/Accounts/${SID}/Calls.json?Status=in-progress&StartTime%3C=2026-11-01T00%3A00%3A00Z&StartTime%3E=2026-10-01`,
    );
    const names = ["a b", 'q"', "{x}", "a|b", "a\\b", "^", "`", "ü", "<", ">", "[x]", "#", "%"];
    const description = {
      paths: {
        "/x/{p}": {
          get: {
            parameters: [
              { name: "p", in: "path" },
              ...names.map((name) => ({ name, in: "query" })),
              { name: "deep", in: "query", style: "deepObject" },
              { name: "r", in: "query", allowReserved: true },
            ],
          },
        },
      },
    };
    const odd = withOpenAPI(base, description);
    const values = Object.fromEntries(names.map((name) => [name, `${name} ü <>"{}|\\^\``]));
    const built = odd("GET /x/{p}", { p: "ü <>", ...values, deep: { "a b": "c d", "<": ">" }, r: "a/b?c=<d>&e" }).url;
    assert.ok(RFC3986_URI.test(built), built);
    // Every name and value comes back as it was.
    const query = new URL(built).searchParams;
    for (const name of names) assert.is(query.get(name), values[name], name);
    assert.is(query.get("deep[a b]"), "c d");
    assert.is(query.get("r"), "a/b?c=<d>");
  },
);

openapi("URLs RFC 3986 allows, whatever the parameters (property)", ({ withOpenAPI, base }) => {
  // One to six characters of the Basic Multilingual Plane but surrogates, drawn as numbers: fast-check's own string
  // arbitraries map every code point back to its index before they shrink (a second of CPU).
  const character = fc
    .integer({ min: 0, max: 0xffff })
    .filter((code) => code < 0xd800 || code > 0xdfff)
    .map((code) => String.fromCharCode(code));
  const unit = fc.array(character, { minLength: 1, maxLength: 6 }).map((characters) => characters.join(""));
  fc.assert(
    fc.property(
      fc.uniqueArray(unit, { minLength: 1, maxLength: 4 }),
      fc.array(fc.oneof(unit, fc.array(unit, { maxLength: 2 })), { minLength: 4, maxLength: 4 }),
      fc.constantFrom("form", "spaceDelimited", "pipeDelimited"),
      fc.boolean(),
      (names, values, style, explode) => {
        const parameters = names.map((name) => ({ name, in: "query", style, explode }));
        const api = withOpenAPI(base, { paths: { "/q": { post: { parameters } } } });
        const options = Object.fromEntries(names.map((name, i) => [name, values[i]]));
        let url: string;
        try {
          url = api("POST /q", options).url;
        } catch (error) {
          // Names like `headers` go as `query:headers`; nothing else may throw.
          return (
            /is required|no text form/.test(String(error)) ||
            names.some(
              (name) =>
                ["method", "baseUrl", "url", "headers", "request", "mediaType", "data"].includes(name) ||
                name.startsWith("body:"),
            )
          );
        }
        return RFC3986_URI.test(url);
      },
    ),
    { numRuns: runs(300) },
  );
});

openapi(
  "one operation, two ways: a call equals parse(merge()) of it, for every fixture operation and defaults",
  ({ endpoint, withOpenAPI }) => {
    for (const description of [telecom, ai, files]) {
      // The files description's servers are relative: a base URL is set for it.
      const under = description === files ? endpoint.defaults({ baseUrl: "https://box.example" }) : endpoint;
      for (const api of [
        withOpenAPI(under, description),
        withOpenAPI(under.defaults({ headers: { authorization: "t" }, PageSize: 5 }), description),
        withOpenAPI(endpoint, description).defaults({ baseUrl: "https://mock.example" }),
      ]) {
        for (const [route, options] of callsOf(description)) {
          const direct = api(route, options);
          assert.equal(direct, api.parse(api.merge(route, options)), route);
        }
      }
    }
  },
);

/** A credential for every security scheme a description declares: `"auth:<name>"` keys, basic's a user and password. */
function credentialsFor(description: any): Record<string, unknown> {
  const schemes = description.components?.securitySchemes ?? {};
  return Object.fromEntries(
    Object.keys(schemes).map((name) => {
      const basic = schemes[name].type === "http" && /^basic$/i.test(schemes[name].scheme);
      return [`auth:${name}`, basic ? { username: `user-${name}`, password: "pässword" } : `credential-${name}`];
    }),
  );
}

openapi(
  "reduceOpenAPI: the same requests from the reduced description, and an error for one that is not",
  ({ endpoint, withOpenAPI, reduceOpenAPI }) => {
    for (const description of [telecom, ai, files, published("petstore"), published("parameters-style")]) {
      const reduced = reduceOpenAPI(description);
      assert.ok(JSON.stringify(reduced).length < JSON.stringify(description).length);
      const under = description === files ? endpoint.defaults({ baseUrl: "https://box.example" }) : endpoint;
      // Credentials for every scheme: the reduced description's requirements must send the same ones.
      const credentials = credentialsFor(description);
      const [whole, light] = [withOpenAPI(under, description), withOpenAPI(under, reduced)].map((api) =>
        api.defaults(credentials as never),
      );
      for (const [route, options] of callsOf(description)) {
        assert.equal(requestText(light(route, options)), requestText(whole(route, options)), route);
      }
    }
    throwsType(
      () => reduceOpenAPI({} as never),
      "reduceOpenAPI's description's `paths` must be an object of path items, not undefined",
    );
  },
);

// --- withOpenAPI on the public API directory's shapes ------------------------------------------------------------

/** A one-operation description on a test host. */
const oneOperation = (path: string, method: string, operation: object, extra: object = {}) => ({
  servers: [{ url: "https://api.example" }],
  paths: { [path]: { [method]: operation } },
  ...extra,
});

/** Stripe's shapes: an empty form body on a GET, and form bodies whose Encoding Object says deepObject. */
const stripeLike = {
  servers: [{ url: "https://api.stripe.example" }],
  paths: {
    "/v1/customers": {
      get: {
        parameters: [{ name: "limit", in: "query" }],
        requestBody: {
          content: {
            "application/x-www-form-urlencoded": { schema: { type: "object", properties: { secret: {} } } },
          },
        },
      },
      post: {
        requestBody: {
          content: {
            "application/x-www-form-urlencoded": {
              encoding: {
                metadata: { style: "deepObject", explode: true },
                line_items: { style: "deepObject", explode: true },
                expand: { style: "deepObject", explode: true },
                tags: { style: "form", explode: false },
                codes: { style: "pipeDelimited" },
                shipping: { contentType: "application/json" },
              },
              schema: { type: "object" },
            },
          },
        },
      },
    },
  },
};

openapi(
  "a GET whose description declares a body sends none; a property of that body is a TypeError naming it",
  ({ endpoint, withOpenAPI }) => {
    const stripe = withOpenAPI(endpoint, stripeLike);
    assert.equal(stripe("GET /v1/customers"), {
      method: "get",
      url: "https://api.stripe.example/v1/customers",
      headers: { accept: "*/*", "user-agent": UA },
    });
    assert.is(stripe("GET /v1/customers", { limit: 3 }).url, "https://api.stripe.example/v1/customers?limit=3");
    throwsType(() => stripe("GET /v1/customers", { secret: "s" }), '"GET /v1/customers" sends no body', '"secret"');
    throwsType(
      () => stripe("GET /v1/customers", { "body:limit": 1 }),
      '"GET /v1/customers" has no body for "body:limit"',
    );
  },
);

openapi(
  "form bodies follow the Encoding Object: deepObject in brackets, a list's items indexed, styles as in a query",
  ({ endpoint, withOpenAPI }) => {
    const stripe = withOpenAPI(endpoint, stripeLike);
    const form = stripe("POST /v1/customers", {
      metadata: { order_id: "6735", note: "a b&c" },
      line_items: [
        { price: "price_1", quantity: 2 },
        { price: "price_2", quantity: 1 },
      ],
      expand: ["customer", "invoice.subscription"],
      tags: ["a", "b"],
      codes: [1, 2],
      shipping: { city: "Köln" },
      address: { line1: "1 Main St" },
      email: "mona@example.com",
      list: ["x", "y"],
    });
    assert.instance(form.body, URLSearchParams);
    assert.equal(
      [...(form.body as URLSearchParams)],
      [
        ["metadata[order_id]", "6735"],
        ["metadata[note]", "a b&c"],
        ["line_items[0][price]", "price_1"],
        ["line_items[0][quantity]", "2"],
        ["line_items[1][price]", "price_2"],
        ["line_items[1][quantity]", "1"],
        ["expand[0]", "customer"],
        ["expand[1]", "invoice.subscription"],
        ["tags", "a,b"],
        ["codes", "1|2"],
        ["shipping", '{"city":"Köln"}'],
        // No encoding: an object as JSON text, a list a field per item (the 3.1.1 defaults).
        ["address", '{"line1":"1 Main St"}'],
        ["email", "mona@example.com"],
        ["list", "x"],
        ["list", "y"],
      ],
    );
    assert.is(form.headers["content-type"], "application/x-www-form-urlencoded");
    throwsType(() => stripe("POST /v1/customers", { file: new Blob(["x"]) }), 'form field "file" is a file');
  },
);

openapi(
  "a form's fields from defaults() come first, the call's merged over them, the same both ways",
  ({ endpoint, withOpenAPI }) => {
    const stripe = withOpenAPI(endpoint, stripeLike).defaults({ metadata: { source: "web" }, email: "d@example.com" });
    const options = { metadata: { order_id: "6735" }, tags: ["a"], email: "mona@example.com" };
    const form = stripe("POST /v1/customers", options);
    assert.equal(
      [...(form.body as URLSearchParams)],
      [
        ["metadata[source]", "web"],
        ["metadata[order_id]", "6735"],
        ["email", "mona@example.com"],
        ["tags", "a"],
      ],
    );
    const general = stripe.parse(stripe.merge("POST /v1/customers", options));
    assert.equal([...(general.body as URLSearchParams)], [...(form.body as URLSearchParams)]);
    // The defaults' fields alone make the body of a call that brings none, and are not changed by any call.
    assert.equal(
      [...(stripe("POST /v1/customers").body as URLSearchParams)],
      [
        ["metadata[source]", "web"],
        ["email", "d@example.com"],
      ],
    );
  },
);

openapi(
  "multipart parts take their encoding: a JSON contentType is a JSON Blob, a style writes text parts",
  async ({ endpoint, withOpenAPI }) => {
    const multipart = withOpenAPI(
      endpoint,
      oneOperation("/files", "post", {
        requestBody: {
          content: {
            "multipart/form-data": {
              encoding: { meta: { contentType: "application/json" }, expand: { style: "deepObject", explode: true } },
            },
          },
        },
      }),
    );
    const body = multipart("POST /files", {
      meta: { name: "a.txt" },
      expand: ["x"],
      file: new Blob(["hi"]),
      note: { a: 1 },
    }).body as FormData;
    assert.equal([...body.keys()], ["meta", "expand[0]", "file", "note"]);
    const meta = body.get("meta") as Blob;
    assert.is(meta.type, "application/json");
    assert.is(await meta.text(), '{"name":"a.txt"}');
    assert.is(body.get("expand[0]"), "x");
    assert.is(body.get("note"), '{"a":1}');
  },
);

openapi(
  "a body's media type follows its value: JSON Patch only for a list; the caller's content-type wins",
  ({ endpoint, withOpenAPI }) => {
    // Kubernetes' PATCH lists JSON Patch first.
    const types = ["application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"];
    const kubernetes = withOpenAPI(
      endpoint,
      oneOperation("/api/v1/namespaces/{namespace}", "patch", {
        parameters: [{ name: "namespace", in: "path" }],
        requestBody: { required: true, content: Object.fromEntries(types.map((type) => [type, {}])) },
      }),
    );
    const route = "PATCH /api/v1/namespaces/{namespace}";
    const object = kubernetes(route, { namespace: "dev", metadata: { labels: { a: "b" } } });
    assert.is(object.headers["content-type"], "application/merge-patch+json");
    assert.equal(object.body, { metadata: { labels: { a: "b" } } });
    const patch = kubernetes(route, { namespace: "dev", data: [{ op: "add", path: "/x", value: 1 }] });
    assert.is(patch.headers["content-type"], "application/json-patch+json");
    const yaml = kubernetes(route, {
      namespace: "dev",
      data: "a: 1",
      headers: { "content-type": "application/apply-patch+yaml" },
    });
    assert.is(yaml.headers["content-type"], "application/apply-patch+yaml");
    // A required body left out: the empty value of the media type an object would go as.
    assert.equal(kubernetes(route, { namespace: "dev" }).body, {});
    assert.is(kubernetes(route, { namespace: "dev" }).headers["content-type"], "application/merge-patch+json");
    // Multipart where a field is a file and both forms are listed.
    const forms = withOpenAPI(
      endpoint,
      oneOperation("/up", "post", {
        requestBody: { content: { "application/x-www-form-urlencoded": {}, "multipart/form-data": {} } },
      }),
    );
    assert.instance(forms("POST /up", { name: "n" }).body, URLSearchParams);
    assert.instance(forms("POST /up", { name: "n", file: new Blob(["x"]) }).body, FormData);
  },
);

openapi(
  "required bodies left out are their media type's empty value; a JSON string in data is JSON text",
  ({ endpoint, withOpenAPI }) => {
    const body = (content: object, required = true) => ({ requestBody: { required, content } });
    const api = withOpenAPI(endpoint, {
      servers: [{ url: "https://api.example" }],
      paths: {
        "/json": { post: body({ "application/json": {} }), put: body({ "application/json": {} }, false) },
        "/form": { post: body({ "application/x-www-form-urlencoded": {} }), put: body({ "multipart/form-data": {} }) },
        "/patch": { patch: body({ "application/json-patch+json": {} }) },
        "/bytes": { post: body({ "application/octet-stream": {} }) },
      },
    });
    const json = api("POST /json");
    assert.equal([json.body, json.headers["content-type"]], [{}, "application/json; charset=utf-8"]);
    assert.is(api("PUT /json").body, "", "an optional body left out: none (octokit's empty PUT)");
    assert.is(String(api("POST /form").body), "");
    assert.instance(api("PUT /form").body, FormData);
    assert.equal(api("PATCH /patch").body, []);
    assert.equal(
      [api("POST /bytes").body, api("POST /bytes").headers["content-type"]],
      ["", "application/octet-stream"],
    );
    // A JSON body given whole as a string is a JSON string.
    assert.is(api("POST /json", { data: "50% off" }).body, '"50% off"');
    assert.is(api.parse(api.merge("POST /json", { data: "x" })).body, '"x"');
  },
);

openapi(
  "servers: protocol-relative ones take the base URL's scheme; variables take the call's or defaults' values",
  ({ endpoint, withOpenAPI }) => {
    const tenant = {
      servers: [
        {
          url: "https://{subdomain}.example.com:{port}/{version}",
          variables: { port: { default: "443" }, version: { default: "v2" } },
        },
      ],
      paths: { "/me": { get: {} } },
    };
    const api = withOpenAPI(endpoint, tenant);
    throwsType(
      () => api("GET /me"),
      'server "https://{subdomain}.example.com:{port}/{version}" has no default for {subdomain}',
      '"server:subdomain"',
    );
    assert.is(api("GET /me", { "server:subdomain": "acme" }).url, "https://acme.example.com:443/v2/me");
    const acme = api.defaults({ "server:subdomain": "acme", "server:version": "v3" });
    assert.is(acme("GET /me").url, "https://acme.example.com:443/v3/me");
    assert.is(acme("GET /me", { "server:port": 8443 }).url, "https://acme.example.com:8443/v3/me");
    assert.is(
      withOpenAPI(endpoint.defaults({ "server:subdomain": "beta" }), tenant)("GET /me").url,
      "https://beta.example.com:443/v2/me",
    );
    // Server keys are the server's: never a query parameter or a body property.
    assert.is(acme("GET /me", { page: 2 }).url, "https://acme.example.com:443/v3/me?page=2");
    const relative = withOpenAPI(endpoint, {
      servers: [{ url: "//budgea.example/2.0" }],
      paths: { "/users": { get: {} } },
    });
    assert.is(relative("GET /users").url, "https://budgea.example/2.0/users");
    assert.is(relative("GET /users", { baseUrl: "http://mock.example" }).url, "http://mock.example/users");
    const staged = withOpenAPI(endpoint.defaults({ baseUrl: "https://api.example" }), {
      servers: [{ url: "/{stage}", variables: { stage: { default: "live" } } }],
      paths: { "/a": { get: {} } },
    });
    assert.is(staged("GET /a", { "server:stage": "test" }).url, "https://api.example/test/a");
  },
);

openapi(
  "red team: a server variable cannot take a request to a host its template does not allow",
  ({ endpoint, withOpenAPI }) => {
    const api = withOpenAPI(endpoint, {
      servers: [
        {
          url: "https://{region}.api.example/{tenant}",
          variables: { region: { default: "eu" }, tenant: { default: "t" } },
        },
      ],
      paths: { "/a": { get: {} } },
    });
    for (const region of [
      "evil.example",
      "evil.example/x",
      "a@b",
      "a:80",
      "",
      "a b",
      "x\r\ny",
      "%65vil",
      "eu#",
      "eu?",
    ]) {
      throwsType(() => api("GET /a", { "server:region": region }), 'server variable "region" must be a DNS label');
    }
    for (const tenant of [".", ".."]) {
      throwsType(() => api("GET /a", { "server:tenant": tenant }), 'server variable "tenant"');
    }
    // A path value is one segment, percent-encoded; a host value a label.
    assert.is(
      api("GET /a", { "server:tenant": "a/../b", "server:region": "us-2" }).url,
      "https://us-2.api.example/a%2F..%2Fb/a",
    );
    throwsType(() => api("GET /a", { "server:region": Symbol("x") }), 'parameter "server:region" has no text form');
  },
);

openapi(
  "parameters: Accept, Content-Type and Authorization ones are ignored; one name fills two locations, unless escaped",
  ({ endpoint, withOpenAPI }) => {
    const api = withOpenAPI(
      endpoint,
      oneOperation("/v3/{id}", "get", {
        parameters: [
          { name: "id", in: "path" },
          { name: "id", in: "query", required: true },
          { name: "Authorization", in: "header", required: true },
          { name: "Accept", in: "header", required: true },
          { name: "content-type", in: "header" },
        ],
      }),
    );
    assert.equal(api("GET /v3/{id}", { id: 7 }), {
      method: "get",
      url: "https://api.example/v3/7?id=7",
      headers: { accept: "*/*", "user-agent": UA },
    });
    assert.is(api("GET /v3/{id}", { id: 7, "query:id": 8 }).url, "https://api.example/v3/7?id=8");
  },
);

openapi(
  "a body whose only media type is a range (`*/*`): an object as JSON, `{}` when required and left out, text unlabelled",
  ({ endpoint, withOpenAPI }) => {
    const api = withOpenAPI(
      endpoint,
      oneOperation("/namespaces", "post", { requestBody: { required: true, content: { "*/*": { schema: {} } } } }),
    );
    const json = { accept: "*/*", "user-agent": UA, "content-type": JSON_TYPE };
    assert.equal(api("POST /namespaces"), {
      method: "post",
      url: "https://api.example/namespaces",
      headers: json,
      body: {},
    });
    assert.equal(api("POST /namespaces", { metadata: { name: "team-a" } }).body, { metadata: { name: "team-a" } });
    assert.equal(api("POST /namespaces", { metadata: { name: "team-a" } }).headers, json);
    assert.equal(api("POST /namespaces", { data: "name: team-a" }), {
      method: "post",
      url: "https://api.example/namespaces",
      headers: { accept: "*/*", "user-agent": UA },
      body: "name: team-a",
    });
    const yaml = { headers: { "content-type": "application/yaml" }, data: "name: team-a" };
    assert.is(api("POST /namespaces", yaml).headers["content-type"], "application/yaml");
  },
);

openapi(
  'parameters the description does not declare: "query:<name>" joins the query; a path, header or cookie one is a TypeError',
  ({ endpoint, withOpenAPI }) => {
    const api = withOpenAPI(endpoint, oneOperation("/v3/{id}", "get", { parameters: [{ name: "id", in: "path" }] }));
    const given = { id: 7, "query:tags": ["a b", "ü"], "query:filter": { status: ["open"] }, "query:since": 0 };
    const before = structuredClone(given);
    assert.equal(api("GET /v3/{id}", given), {
      method: "get",
      url: "https://api.example/v3/7?tags=a%20b&tags=%C3%BC&filter%5Bstatus%5D%5B0%5D=open&since=0",
      headers: { accept: "*/*", "user-agent": UA },
    });
    assert.equal(given, before);
    // Through defaults() too, and never a key of its own in the query.
    assert.is(api.defaults({ "query:page": 2 })("GET /v3/{id}", { id: 7 }).url, "https://api.example/v3/7?page=2");
    assert.throws(
      () => api("GET /v3/{id}", { id: 7, "header:x-trace": "1" }),
      (error: Error) =>
        error instanceof TypeError &&
        error.message ===
          'endpoint-options: "GET /v3/{id}" declares no header parameter "x-trace" for "header:x-trace": set it in `headers`',
    );
    assert.throws(
      () => api("GET /v3/{id}", { id: 7, "path:version": "2" }),
      (error: Error) =>
        error instanceof TypeError &&
        error.message === 'endpoint-options: "GET /v3/{id}" declares no path parameter "version" for "path:version"',
    );
    assert.throws(
      () => api("GET /v3/{id}", { id: 7, "cookie:session": "s" }),
      /declares no cookie parameter "session"/,
    );
  },
);

openapi(
  "path keys: a trailing slash stays; a query placeholder is its parameter's; `#fragment` parameters go nowhere",
  ({ endpoint, withOpenAPI }) => {
    const api = withOpenAPI(endpoint, {
      servers: [{ url: "https://api.example" }],
      paths: {
        "/backup/plans/": { get: { parameters: [{ name: "page", in: "query" }] } },
        "/search/articles?query={query}": { get: { parameters: [{ name: "query", in: "query", required: true }] } },
        "/export?filename={filename}": { get: { parameters: [{ name: "filename", in: "path", required: true }] } },
        "/send/#env/v1/{partnerId}": { post: { parameters: [{ name: "partnerId", in: "path" }] } },
      },
    });
    assert.is(api("GET /backup/plans/").url, "https://api.example/backup/plans/");
    assert.is(api("GET /backup/plans/", { page: 2 }).url, "https://api.example/backup/plans/?page=2");
    assert.is(api.parse(api.merge("GET /backup/plans/")).url, "https://api.example/backup/plans/");
    assert.is(
      api("GET /search/articles?query={query}", { query: "a b" }).url,
      "https://api.example/search/articles?query=a%20b",
    );
    assert.is(
      api("GET /export?filename={filename}", { filename: "a/b.csv" }).url,
      "https://api.example/export?filename=a%2Fb.csv",
    );
    assert.equal(api("POST /send/#env/v1/{partnerId}", { partnerId: "p", amount: 1 }).body, { amount: 1 });
  },
);

openapi(
  "nested values: bracket form in a query (deepObject's lists, AWS's lists of objects); refused in a path",
  ({ endpoint, withOpenAPI }) => {
    const api = withOpenAPI(
      endpoint,
      oneOperation("/q/{p}", "get", {
        parameters: [
          { name: "p", in: "path" },
          { name: "filter", in: "query", style: "deepObject", explode: true },
          { name: "Tags", in: "query" },
          { name: "routes", in: "query", explode: false },
        ],
      }),
    );
    const { url } = api("GET /q/{p}", {
      p: "x",
      filter: { name: ["a", "b"], size: { min: 1 } },
      Tags: [{ Key: "k", Value: "v" }],
      routes: [[3, 4]],
    });
    const query = [...new URL(url).searchParams];
    assert.equal(query, [
      ["filter[name][0]", "a"],
      ["filter[name][1]", "b"],
      ["filter[size][min]", "1"],
      ["Tags[0][Key]", "k"],
      ["Tags[0][Value]", "v"],
      ["routes[0][0]", "3"],
      ["routes[0][1]", "4"],
    ]);
    assert.ok(url.includes("filter%5Bname%5D%5B0%5D=a"), "brackets percent-encoded, as RFC 3986 needs in a query");
    throwsType(() => api("GET /q/{p}", { p: [["a"]] }), 'parameter "p" holds a list or object in another');
  },
);

openapi(
  "descriptions: percent-encoded JSON Pointers resolve; a form's `data` is a field only where it declares one",
  ({ endpoint, withOpenAPI }) => {
    const api = withOpenAPI(endpoint, {
      servers: [{ url: "https://api.example" }],
      paths: {
        "/v2/keys/{key_id}": { get: { parameters: [{ name: "key_id", in: "path" }] } },
        "/v2/other/{key_id}": { get: { parameters: [{ $ref: "#/paths/~1v2~1keys~1%7Bkey_id%7D/get/parameters/0" }] } },
        "/form": { post: { requestBody: { content: { "application/x-www-form-urlencoded": {} } } } },
      },
    });
    assert.is(api("GET /v2/other/{key_id}", { key_id: 5 }).url, "https://api.example/v2/other/5");
    assert.is(String(api("POST /form", { data: { a: 1, b: "c" } }).body), "a=1&b=c");
    assert.is(api("POST /form", { data: "a=1&b=2" }).body, "a=1&b=2");
    throwsType(
      () => api("POST /form", { data: [1] }),
      'option `data` of "POST /form" must be an object of form fields',
    );
  },
);

openapi(
  "reduceOpenAPI keeps what the directory's shapes need: server variables, encodings, required bodies, a GET's body names",
  ({ endpoint, withOpenAPI, reduceOpenAPI }) => {
    const tenant = {
      servers: [
        { url: "https://{subdomain}.example.com", variables: { subdomain: { default: "www", enum: ["www", "acme"] } } },
      ],
      paths: {
        ...stripeLike.paths,
        "/json": { post: { requestBody: { required: true, content: { "application/json": {} } } } },
      },
    };
    const [whole, light] = [withOpenAPI(endpoint, tenant), withOpenAPI(endpoint, reduceOpenAPI(tenant))];
    const calls: [string, Record<string, unknown>][] = [
      ["GET /v1/customers", { "server:subdomain": "acme" }],
      ["POST /v1/customers", { metadata: { a: "1" }, expand: ["x"] }],
      ["POST /json", {}],
    ];
    for (const [route, options] of calls) {
      assert.is(requestText(light(route, options)), requestText(whole(route, options)), route);
    }
    throwsType(() => light("GET /v1/customers", { secret: "s" }), '"secret"');
  },
);

openapi(
  "a cold attack's findings: a header the description may not set, a path parameter with no placeholder, {?q} in a key",
  ({ endpoint, withOpenAPI }) => {
    const api = withOpenAPI(endpoint, {
      servers: [{ url: "https://api.example" }],
      paths: {
        "/me": {
          get: {
            parameters: [
              { name: "Authorization", in: "header", required: true },
              { name: "Host", in: "header" },
            ],
          },
          post: {
            requestBody: { content: { "application/json": {} } },
            parameters: [{ name: "Accept", in: "header" }],
          },
        },
        "/pets": { delete: { parameters: [{ name: "id", in: "path", required: true }] } },
        "/search{?q}": { get: { parameters: [{ name: "q", in: "query" }] } },
      },
    });
    // A token given by the header's name never reaches the URL or the body; it belongs in `headers`.
    throwsType(
      () => api("GET /me", { Authorization: "Bearer t" }),
      '"GET /me" sends no header parameter "Authorization"',
    );
    throwsType(() => api("GET /me", { Host: "evil.example" }), '"Host"', "`headers`");
    throwsType(() => api("POST /me", { Accept: "x" }), '"POST /me" sends no header parameter "Accept"');
    assert.is(api("GET /me", { headers: { authorization: "Bearer t" } }).headers.authorization, "Bearer t");
    assert.is(api("GET /me").url, "https://api.example/me");
    throwsType(() => api("DELETE /pets", { id: 7 }), '"DELETE /pets": no placeholder for the path parameter "id"');
    throwsType(() => api("GET /search{?q}", { q: "cats" }), '"GET /search{?q}": no path parameter "?q"');
  },
);

openapi(
  "a cold attack's findings: no empty path segment on a method that changes things, however the values make it",
  ({ withOpenAPI, base }) => {
    const api = withOpenAPI(base, {
      paths: {
        "/repos/{id}/hooks": {
          delete: { parameters: [{ name: "id", in: "path" }] },
          get: { parameters: [{ name: "id", in: "path" }] },
        },
        "/t/{a}{b}/x": {
          delete: {
            parameters: [
              { name: "a", in: "path" },
              { name: "b", in: "path" },
            ],
          },
        },
        "/l/{id}": { delete: { parameters: [{ name: "id", in: "path", schema: { type: "array" } }] } },
      },
    });
    throwsType(
      () => api("DELETE /repos/{id}/hooks", { id: "" }),
      'parameter "id" of "DELETE /repos/{id}/hooks" is empty',
    );
    throwsType(() => api("DELETE /repos/{id}/hooks", { id: [""] }), 'makes an empty segment in "/repos//hooks"');
    throwsType(() => api("DELETE /t/{a}{b}/x", { a: "", b: "" }), 'makes an empty segment in "/t//x"');
    throwsType(() => api("DELETE /l/{id}", { id: "" }), '"DELETE /l/{id}"');
    assert.is(api("DELETE /t/{a}{b}/x", { a: "", b: "1" }).url, "https://api.example/t/1/x");
    // A GET keeps it: GitHub's "contents of the root" is `path: ""`.
    assert.is(api("GET /repos/{id}/hooks", { id: "" }).url, "https://api.example/repos//hooks");
  },
);

openapi(
  "a cold attack's findings: a description's own server values stay in their place, and its URL is an HTTP one",
  ({ endpoint, withOpenAPI }) => {
    // A relative server goes under the base URL the caller set; an absolute one is its own, so none is set for it.
    const on = (url: string, variables?: object, path = "/x") =>
      withOpenAPI(url.includes("://") ? endpoint : endpoint.defaults({ baseUrl: "https://mine.example/tenant/42" }), {
        servers: [{ url, variables }],
        paths: { [path]: { get: {} } },
      });
    throwsType(
      () => on("https://{region}.api.example", { region: { default: "evil.test/" } })("GET /x"),
      '"evil.test/" cannot stand in the host',
    );
    throwsType(
      () => on("https://api.example:{port}", { port: { default: "443", enum: ["443@evil.test"] } })("GET /x"),
      "cannot stand in the port",
    );
    throwsType(() => on("/{v}", { v: { default: "../.." } })("GET /x"), '"../.." cannot stand in the path');
    for (const url of ["#", "?a=", "https://", "ws://h.example", "file:///etc"]) {
      throwsType(() => on(url)("GET /x"), `${JSON.stringify(url)} is not an HTTP URL`);
    }
    // 3.2: a relative server's own dot segments resolve within it, never above the base you set.
    for (const url of ["../../admin", "/%2e%2e/admin", "./admin/.", "admin/../../admin"]) {
      assert.is(on(url)("GET /x").url, "https://mine.example/tenant/42/admin/x", url);
    }
    throwsType(() => on("/v1", undefined, "/../../admin")("GET /../../admin"), "a path key holds a . or .. segment");
    // Values that stay in their place are the description's to choose.
    assert.is(
      on("https://{region}.api.example", { region: { default: "eu.west" } })("GET /x").url,
      "https://eu.west.api.example/x",
    );
    assert.is(on("/{v}", { v: { default: "v1/beta" } })("GET /x").url, "https://mine.example/tenant/42/v1/beta/x");
  },
);

openapi(
  "a cold attack's findings: NaN, Infinity and localhost refused; a header list's nulls are absent; reduce stays linear",
  ({ endpoint, withOpenAPI, reduceOpenAPI }) => {
    const api = withOpenAPI(endpoint, {
      servers: [{ url: "https://{host}/v1", variables: { host: { default: "api.example" } } }],
      paths: {
        "/p/{id}": {
          get: {
            parameters: [
              { name: "id", in: "path", schema: { type: "integer" } },
              { name: "x-tags", in: "header" },
            ],
          },
        },
      },
    });
    for (const id of [Number.NaN, Number.POSITIVE_INFINITY]) {
      throwsType(() => api("GET /p/{id}", { id }), 'parameter "id" is not a finite number');
    }
    throwsType(() => api("GET /p/{id}", { id: 1, "server:host": "localhost" }), 'makes the host "localhost"');
    assert.is(api("GET /p/{id}", { id: 1, "x-tags": ["a", null] }).headers["x-tags"], "a");
    // A thousand form operations sharing one schema of a thousand properties: the schema is written once.
    const properties = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`p${i}`, { type: "string" }]));
    const form = { content: { "application/x-www-form-urlencoded": { schema: { $ref: "#/components/schemas/F" } } } };
    const paths = Object.fromEntries(
      Array.from({ length: 1000 }, (_, i) => [`/f${i}`, { post: { requestBody: form } }]),
    );
    const reduced = reduceOpenAPI({ paths, components: { schemas: { F: { properties } } } });
    assert.ok(JSON.stringify(reduced).length < 200_000, `${JSON.stringify(reduced).length} B`);
    assert.is(
      String(withOpenAPI(endpoint.defaults({ baseUrl: "https://b.example" }), reduced)("POST /f7", { p3: "x" }).body),
      "p3=x",
    );
  },
);

openapi(
  "NaN, Infinity and invalid Dates refused at any depth, in parameters and in every kind of form field",
  ({ endpoint, withOpenAPI }) => {
    const form = (type: string) => ({
      requestBody: {
        content: {
          [type]: {
            schema: { type: "object", properties: { deep: { type: "object" }, doc: {}, list: {} } },
            encoding: { deep: { style: "deepObject", explode: true }, doc: { contentType: "application/json" } },
          },
        },
      },
    });
    const api = withOpenAPI(endpoint.defaults({ baseUrl: "https://api.example" }), {
      paths: {
        "/q": {
          get: {
            parameters: [
              { name: "ids", in: "query" },
              { name: "f", in: "query", style: "deepObject" },
            ],
          },
        },
        "/form": { post: form("application/x-www-form-urlencoded") },
        "/parts": { post: form("multipart/form-data") },
      },
    });
    for (const bad of [Number.NaN, Number.NEGATIVE_INFINITY]) {
      throwsType(() => api("GET /q", { ids: [1, bad] }), 'parameter "ids" is not a finite number');
      throwsType(() => api("GET /q", { f: { a: { b: bad } } }), 'parameter "f" is not a finite number');
      for (const route of ["POST /form", "POST /parts"]) {
        throwsType(() => api(route as never, { deep: { a: [bad] } }), 'parameter "deep[a][0]" is not a finite number');
        throwsType(() => api(route as never, { list: [1, bad] }), 'parameter "list" is not a finite number');
        // JSON would write them as null.
        throwsType(() => api(route as never, { doc: { n: bad } }), 'form field "doc" has no JSON form');
        throwsType(() => api(route as never, { list: [{ n: bad }] }), 'form field "list" has no JSON form');
      }
    }
    const invalid = new Date(Number.NaN);
    throwsType(() => api("POST /form", { deep: { at: invalid } }), 'parameter "deep[at]" is an invalid Date');
    throwsType(() => api("POST /form", { doc: { at: invalid } }), 'form field "doc" has no JSON form');
    // Valid ones are ISO 8601 wherever they stand.
    const at = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
    assert.is(
      String(api("POST /form", { deep: { at }, list: [at], doc: { at } }).body),
      "deep%5Bat%5D=2024-01-02T03%3A04%3A05.000Z&list=2024-01-02T03%3A04%3A05.000Z" +
        "&doc=%7B%22at%22%3A%222024-01-02T03%3A04%3A05.000Z%22%7D",
    );
    assert.is(api("GET /q", { ids: [at, 2] }).url, "https://api.example/q?ids=2024-01-02T03%3A04%3A05.000Z&ids=2");
  },
);

openapi(
  "servers: a variable right after the host is a path from /; a scheme variable takes its default or enum only",
  ({ endpoint, withOpenAPI }) => {
    const on = (url: string, variables: object) =>
      withOpenAPI(endpoint, { servers: [{ url, variables }], paths: { "/pets": { get: {} } } });
    const based = on("https://api.example.com{basePath}", { basePath: { default: "/v1" } });
    assert.is(based("GET /pets").url, "https://api.example.com/v1/pets");
    assert.is(based("GET /pets", { "server:basePath": "/v2/beta" }).url, "https://api.example.com/v2/beta/pets");
    // The scheme decides whether credentials travel encrypted: no value of a caller's downgrades it.
    const schemed = on("{scheme}://api.example.com", { scheme: { default: "https" } });
    assert.is(schemed("GET /pets", { "server:scheme": "https" }).url, "https://api.example.com/pets");
    throwsType(
      () => schemed("GET /pets", { "server:scheme": "http" }),
      'server variable "scheme" must be its default or one of its `enum` in "{scheme}://api.example.com", not "http"',
    );
    const either = on("{scheme}://api.example.com", { scheme: { default: "https", enum: ["https", "http"] } });
    assert.is(either("GET /pets", { "server:scheme": "http" }).url, "http://api.example.com/pets");
  },
);

// --- Credentials by security scheme ---------------------------------------------------------------------------------

/** One operation a path for each requirement: `/<path>` needs `security`. */
const SCHEMES = {
  oauth: { type: "oauth2", flows: {} },
  second: { type: "oauth2", flows: {} },
  oidc: { type: "openIdConnect", openIdConnectUrl: "https://id.example/.well-known/openid-configuration" },
  basic: { type: "http", scheme: "basic" },
  bearer: { type: "http", scheme: "BEARER" },
  digest: { type: "http", scheme: "Digest" },
  key: { type: "apiKey", in: "header", name: "X-API-Key" },
  queryKey: { type: "apiKey", in: "query", name: "api key" },
  cookieKey: { type: "apiKey", in: "cookie", name: "session" },
  tls: { type: "mutualTLS" },
};
const needs = (...alternatives: string[][]) => ({
  get: { security: alternatives.map((names) => Object.fromEntries(names.map((name) => [name, []]))) },
});
const SECURED = {
  servers: [{ url: "https://api.example" }],
  security: [{ oauth: ["read"] }],
  components: { securitySchemes: SCHEMES },
  paths: {
    "/root": { get: {} },
    "/public": { get: { security: [] } },
    "/oidc": needs(["oidc"]),
    "/basic": needs(["basic"]),
    "/bearer": needs(["bearer"]),
    "/digest": needs(["digest"]),
    "/key": needs(["key"]),
    "/query": needs(["queryKey"]),
    "/cookie": {
      get: { security: [{ cookieKey: [] }], parameters: [{ name: "theme", in: "cookie" }] },
    },
    "/tls": needs(["tls"]),
    "/optional": needs([], ["key"]),
    "/either": needs(["key"], ["basic"]),
    "/both": needs(["key", "basic"]),
    "/twice": needs(["oauth", "second"]),
    "/declared": {
      get: {
        security: [{ queryKey: [] }],
        parameters: [
          { name: "api key", in: "query", required: true },
          { name: "q", in: "query" },
        ],
      },
    },
    "/from": { put: { security: [], parameters: [{ name: "From", in: "header", required: true }] } },
  },
};
const ALADDIN = { username: "Aladdin", password: "pässword" };

openapi(
  "credentials: each kind of scheme sends its credential where the specification puts it",
  ({ withOpenAPI, endpoint }) => {
    const api = withOpenAPI(endpoint, SECURED).defaults({
      "auth:oauth": "oauth-t0ken",
      "auth:oidc": "id-t0ken",
      "auth:basic": ALADDIN,
      "auth:bearer": "b3arer",
      "auth:digest": 'username="a", response="b"',
      "auth:key": "k3y",
      "auth:queryKey": "q+/=",
      "auth:cookieKey": "s3ss/ion=",
      "auth:tls": "unused",
    });
    const sent = (route: string, options = {}) => {
      const { url, headers } = api(route as never, options);
      const { accept, "user-agent": _, ...rest } = headers;
      return { url, headers: rest };
    };
    assert.equal(sent("GET /root"), {
      url: "https://api.example/root",
      headers: { authorization: "Bearer oauth-t0ken" },
    });
    assert.equal(sent("GET /oidc").headers, { authorization: "Bearer id-t0ken" });
    // RFC 7617: the user and password as UTF-8, in base64.
    assert.equal(sent("GET /basic").headers, { authorization: "Basic QWxhZGRpbjpww6Rzc3dvcmQ=" });
    assert.equal(sent("GET /bearer").headers, { authorization: "Bearer b3arer" });
    assert.equal(sent("GET /digest").headers, { authorization: 'Digest username="a", response="b"' });
    assert.equal(sent("GET /key").headers, { "x-api-key": "k3y" });
    assert.equal(sent("GET /query"), { url: "https://api.example/query?api%20key=q%2B%2F%3D", headers: {} });
    assert.equal(sent("GET /cookie", { theme: "dark" }).headers, { cookie: "session=s3ss/ion=; theme=dark" });
    // Mutual TLS sends nothing: the client's certificate is the credential.
    assert.equal(sent("GET /tls").headers, {});
    // No requirement, or `security: []`: nothing is sent, whatever the defaults hold.
    assert.equal(sent("GET /public").headers, {});
    assert.equal(withOpenAPI(endpoint, SECURED)("GET /public").headers.authorization, undefined);
  },
);

openapi(
  "credentials: the first alternative met is sent, and only it; none met is a TypeError naming them",
  ({ withOpenAPI, endpoint }) => {
    const api = withOpenAPI(endpoint, SECURED);
    const both = api.defaults({ "auth:key": "k3y", "auth:basic": ALADDIN });
    assert.equal(both("GET /either").headers["x-api-key"], "k3y");
    assert.is(both("GET /either").headers.authorization, undefined, "the second alternative's credential stays");
    const basicOnly = api.defaults({ "auth:basic": ALADDIN });
    assert.is(basicOnly("GET /either").headers.authorization, "Basic QWxhZGRpbjpww6Rzc3dvcmQ=");
    assert.is(basicOnly("GET /either").headers["x-api-key"], undefined);
    // An empty alternative needs nothing: listed first, it is met, and nothing is sent.
    assert.is(both("GET /optional").headers["x-api-key"], undefined);
    // Schemes needed together: all sent, or the call refused.
    assert.equal(
      [both("GET /both").headers["x-api-key"], both("GET /both").headers.authorization],
      ["k3y", "Basic QWxhZGRpbjpww6Rzc3dvcmQ="],
    );
    throwsType(
      () => api.defaults({ "auth:key": "k3y" })("GET /both"),
      '"GET /both" needs credentials: "auth:key" with "auth:basic"',
    );
    // Credentials given, and none of the operation's alternatives met: a TypeError naming them.
    const unrelated = api.defaults({ "auth:oidc": "id-t0ken" });
    throwsType(() => unrelated("GET /either"), '"GET /either" needs credentials: "auth:key", or "auth:basic"');
    throwsType(() => unrelated("GET /root"), '"GET /root" needs credentials: "auth:oauth"');
    throwsType(() => api("GET /root", { "auth:key": "k" }), '"GET /root" needs credentials: "auth:oauth"');
    // Two schemes of one requirement in one place: the first listed writes it.
    const twice = api.defaults({ "auth:oauth": "first", "auth:second": "second" });
    assert.is(twice("GET /twice").headers.authorization, "Bearer first");
    // A call's own credential over the defaults'; merge() and parse() carry the defaults' as they carry any.
    assert.is(twice("GET /root", { "auth:oauth": "mine" }).headers.authorization, "Bearer mine");
    assert.equal(twice.parse(twice.merge("GET /twice" as never)), twice("GET /twice"));
    assert.is(twice.DEFAULTS["auth:oauth"], "first");
    // `null` unsets one: the call then needs another alternative, or none.
    throwsType(() => twice("GET /root", { "auth:oauth": null }), '"GET /root" needs credentials: "auth:oauth"');
    assert.is(twice("GET /public", { "auth:oauth": null }).headers.authorization, undefined);
    assert.is(api("GET /root", { "auth:oauth": "mine" }).headers.authorization, "Bearer mine");
  },
);

openapi(
  "credentials: a header the caller sets wins, and meets the scheme; a parameter in the key's place wins too",
  ({ withOpenAPI, endpoint }) => {
    const api = withOpenAPI(endpoint, SECURED);
    const token = { headers: { authorization: "Bearer own" } };
    assert.is(api("GET /root", token).headers.authorization, "Bearer own");
    assert.is(api.defaults(token)("GET /root").headers.authorization, "Bearer own");
    assert.is(api.defaults({ "auth:oauth": "given" })("GET /root", token).headers.authorization, "Bearer own");
    assert.is(api("GET /key", { headers: { "X-Api-Key": "own" } }).headers["x-api-key"], "own");
    assert.is(api("GET /cookie", { headers: { cookie: "session=own" } }).headers.cookie, "session=own");
    // An API key declared again as a required parameter of the same place: the credential fills it...
    const keyed = api.defaults({ "auth:queryKey": "c" });
    assert.is(keyed("GET /declared", { q: "x" }).url, "https://api.example/declared?q=x&api%20key=c");
    // ...and the parameter, given, is sent instead, once.
    assert.is(keyed("GET /declared", { "api key": "p" }).url, "https://api.example/declared?api%20key=p");
    assert.is(api("GET /declared", { "api key": "p" }).url, "https://api.example/declared?api%20key=p");
    throwsType(() => api("GET /declared", { q: "x" }), 'parameter "api key" is required by "GET /declared"');
    // A query pair of the key's name the caller adds is theirs too: one pair, theirs.
    const queried = api.defaults({ "auth:queryKey": "c" });
    assert.is(queried("GET /query", { "query:api key": "own" }).url, "https://api.example/query?api%20key=own");
    assert.is(queried("GET /query", { "api key": "own" }).url, "https://api.example/query?api%20key=own");
    assert.is(queried("GET /query", { other: "x" }).url, "https://api.example/query?api%20key=c&other=x");
  },
);

openapi(
  "a required header parameter set in headers, in any case, is given; the parameter's key wins over it",
  ({ withOpenAPI, endpoint }) => {
    const api = withOpenAPI(endpoint, SECURED);
    assert.is(api("PUT /from", { headers: { FROM: "a@example.com" } }).headers.from, "a@example.com");
    assert.is(api.defaults({ headers: { from: "a@example.com" } })("PUT /from").headers.from, "a@example.com");
    assert.is(
      api("PUT /from", { From: "b@example.com", headers: { from: "a@example.com" } }).headers.from,
      "b@example.com",
    );
    throwsType(() => api("PUT /from"), 'parameter "From" is required by "PUT /from"');
  },
);

openapi(
  "credentials: a scheme name the description lacks, a credential of the wrong shape: TypeErrors that keep the secret",
  ({ withOpenAPI, endpoint }) => {
    const api = withOpenAPI(endpoint, SECURED);
    const hint = '"auth:bearr" names no security scheme of the description: did you mean "auth:bearer"?';
    throwsType(() => api.defaults({ "auth:bearr": "t" }), hint);
    throwsType(() => api("GET /bearer", { "auth:bearr": "t" }), hint);
    throwsType(
      () => api("GET /basic", { "auth:basic": "Aladdin:pässword" }),
      '"auth:basic" must be { username, password }',
    );
    throwsType(
      () => api("GET /basic", { "auth:basic": { username: "a:b", password: "" } }),
      'the user name without ":"',
    );
    for (const secret of ["s3cret\r\nx-injected: 1", "s3cret\n", 42]) {
      try {
        api("GET /key", { "auth:key": secret as never });
        assert.unreachable("a credential that is no header value was sent");
      } catch (error) {
        assert.instance(error, TypeError);
        assert.is((error as Error).message, 'endpoint-options: "auth:key" must be a string without CR, LF or NUL');
      }
    }
    throwsType(
      () => api("GET /cookie", { "auth:cookieKey": "a; admin=1" }),
      '"auth:cookieKey" holds a character no cookie holds',
    );
    throwsType(
      () => api("GET /basic", { "auth:basic": { username: "\ud800", password: "" } }),
      '"auth:basic" has a lone surrogate',
    );
  },
);

openapi(
  "credentials: a scheme the description gets wrong is a TypeError naming the operation and the scheme",
  ({ withOpenAPI, endpoint }) => {
    const broken = (scheme: object) =>
      withOpenAPI(endpoint, {
        servers: [{ url: "https://api.example" }],
        components: { securitySchemes: { s: scheme } },
        paths: { "/a": needs(["s"]), "/b": { get: {} } },
      });
    const cases: [object, string][] = [
      [
        { type: "apiKey", in: "path", name: "k" },
        '"GET /a": security scheme "s": `in` must be "header", "query" or "cookie", not "path"',
      ],
      [
        { type: "apiKey", in: "header", name: "Host" },
        '"GET /a": security scheme "s": "Host" is no header name for a credential',
      ],
      [{ type: "apiKey", in: "header", name: "x-key\r\nx-injected" }, "is no header name for a credential"],
      [{ type: "apiKey", in: "cookie", name: "a=b" }, '"a=b" is no cookie name for a credential'],
      [{ type: "http", scheme: "Bearer x" }, '"GET /a": security scheme "s": `scheme` is not an auth-scheme'],
      [{ type: "magic" }, '`type` must be "apiKey", "http", "oauth2", "openIdConnect" or "mutualTLS", not "magic"'],
    ];
    for (const [scheme, message] of cases) {
      throwsType(() => broken(scheme)("GET /a", { "auth:s": "k" } as never), message);
      // The other operations keep working.
      assert.is(broken(scheme)("GET /b").url, "https://api.example/b");
    }
    const undeclared = withOpenAPI(endpoint, {
      servers: [{ url: "https://api.example" }],
      components: { securitySchemes: { other: { type: "http", scheme: "bearer" } } },
      paths: { "/a": needs(["nope"]) },
    });
    throwsType(
      () => undeclared("GET /a", { "auth:other": "t" } as never),
      '"GET /a": security scheme "nope" is not declared',
    );
    // A call that gives no credentials sends none, as its caller wires them: the fault is met only by one that gives.
    for (const [scheme] of cases) assert.is(broken(scheme)("GET /a").headers.authorization, undefined);
    assert.is(undeclared("GET /a").url, "https://api.example/a");
    // A name that is any other name: never a prototype's.
    const proto = withOpenAPI(endpoint, {
      servers: [{ url: "https://api.example" }],
      components: {
        securitySchemes: JSON.parse('{"__proto__": {"type": "apiKey", "in": "header", "name": "__proto__"}}'),
      },
      paths: { "/a": { get: { security: JSON.parse('[{"__proto__": []}]') } } },
    });
    const sent = proto("GET /a", JSON.parse('{"auth:__proto__": "k"}'));
    assert.is(Object.getOwnPropertyDescriptor(sent.headers, "__proto__")?.value, "k");
    assert.is(({} as Record<string, unknown>).type, undefined);
  },
);

openapi("credentials: a security list with a hole, and thousands of alternatives", ({ withOpenAPI, endpoint }) => {
  // A list with a hole, which JSON cannot write: the hole is a requirement that is not an object.
  const holes = withOpenAPI(endpoint, {
    servers: [{ url: "https://api.example" }],
    components: { securitySchemes: SCHEMES },
    // biome-ignore lint/suspicious/noSparseArray: the hole is the point.
    paths: { "/a": { get: { security: [, { key: [] }] } } },
  });
  throwsType(
    () => holes("GET /a", { "auth:key": "k" } as never),
    '"GET /a": `security`: requirement 0 must be an object',
  );
  // Thousands of alternatives: five named, the rest counted.
  const many = withOpenAPI(endpoint, {
    servers: [{ url: "https://api.example" }],
    components: { securitySchemes: SCHEMES },
    paths: { "/a": needs(...Array.from({ length: 7 }, () => ["key"])) },
  });
  throwsType(
    () => many("GET /a", { "auth:oauth": "t" }),
    '"auth:key", or "auth:key", or "auth:key", or "auth:key", or "auth:key", or 2 more',
  );
});

openapi(
  "credentials: reduceOpenAPI keeps every requirement and scheme: the same requests",
  ({ withOpenAPI, endpoint, reduceOpenAPI }) => {
    const reduced = reduceOpenAPI(SECURED);
    const credentials = {
      "auth:oauth": "o",
      "auth:second": "s",
      "auth:oidc": "i",
      "auth:basic": ALADDIN,
      "auth:bearer": "b",
      "auth:digest": "d",
      "auth:key": "k",
      "auth:queryKey": "q",
      "auth:cookieKey": "c",
    };
    const [whole, light] = [SECURED, reduced].map((description) =>
      withOpenAPI(endpoint, description).defaults(credentials),
    );
    const given: Record<string, object> = { "/from": { From: "a" }, "/declared": { q: "x" } };
    for (const path of Object.keys(SECURED.paths)) {
      const method = path === "/from" ? "PUT" : "GET";
      const options = given[path] ?? {};
      assert.equal(light(`${method} ${path}` as never, options), whole(`${method} ${path}` as never, options), path);
    }
    throwsType(
      () => withOpenAPI(endpoint, reduced)("GET /either", { "auth:oauth": "o" }),
      '"GET /either" needs credentials: "auth:key", or "auth:basic"',
    );
    // The description's own requirements stay the description's: written once, not into every operation.
    assert.equal((reduced as any).security, [{ oauth: [] }]);
    assert.is((reduced as any).paths["/root"].get.security, undefined);
    assert.equal((reduced as any).paths["/public"].get.security, []);
    // Every scheme stays declared, those no operation names too: a caller's credentials name them.
    const lighter = reduceOpenAPI({ ...SECURED, paths: { "/public": SECURED.paths["/public"] } }) as any;
    assert.equal(Object.keys(lighter.components.securitySchemes), Object.keys(SCHEMES));
    assert.is(withOpenAPI(endpoint, lighter).defaults(credentials)("GET /public").url, "https://api.example/public");
  },
);

openapi(
  "reduceOpenAPI() keeps a required body of media ranges alone: left out, it is still sent",
  ({ withOpenAPI, reduceOpenAPI, base }) => {
    const ranges = { paths: { "/x": { post: { requestBody: { required: true, content: { "*/*": {} } } } } } };
    const [whole, reduced] = [ranges, reduceOpenAPI(ranges)].map((read) => withOpenAPI(base, read)("POST /x"));
    assert.equal(reduced, whole);
    assert.equal(whole.body, {});
  },
);

// --- Swagger 2.0, read as its OpenAPI 3.0 equivalent ---------------------------------------------------------------

const LIST = { type: "array", items: { type: "string" } };
/** A 2.0 description with one of each construct: servers, media types, bodies, forms, every collectionFormat. */
const SWAGGER = {
  swagger: "2.0",
  info: { title: "2.0", version: "1" },
  host: "api.example.com:8443",
  basePath: "v2/",
  schemes: ["http", "https"],
  consumes: ["application/json", "application/xml"],
  produces: ["application/xml", "application/json"],
  securityDefinitions: {
    basic: { type: "basic" },
    key: { type: "apiKey", in: "header", name: "X-Key" },
    oauth: { type: "oauth2", flow: "implicit", authorizationUrl: "https://auth.example", scopes: {} },
  },
  security: [{ key: [] }],
  parameters: { limit: { name: "limit", in: "query", type: "integer" } },
  definitions: { Pet: { type: "object", properties: { name: { type: "string" }, tags: LIST } } },
  responses: { Pets: { description: "pets", schema: { type: "array", items: { $ref: "#/definitions/Pet" } } } },
  paths: {
    "/pets": {
      parameters: [{ $ref: "#/parameters/limit" }],
      get: {
        produces: ["text/csv"],
        parameters: [
          { name: "csv", in: "query", ...LIST },
          { name: "ssv", in: "query", ...LIST, collectionFormat: "ssv" },
          { name: "tsv", in: "query", ...LIST, collectionFormat: "tsv" },
          { name: "pipes", in: "query", ...LIST, collectionFormat: "pipes" },
          { name: "multi", in: "query", ...LIST, collectionFormat: "multi" },
          { name: "ids", in: "header", ...LIST },
          { name: "born", in: "query", type: "string", format: "date" },
        ],
        responses: { 200: { $ref: "#/responses/Pets" }, 204: { description: "none" } },
      },
      post: {
        parameters: [{ name: "pet", in: "body", required: true, schema: { $ref: "#/definitions/Pet" } }],
        responses: { 201: { description: "made", schema: { $ref: "#/definitions/Pet" } } },
      },
    },
    "/pets/{id}": {
      parameters: [{ name: "id", in: "path", required: true, ...LIST }],
      put: {
        schemes: ["http"],
        consumes: ["application/x-www-form-urlencoded"],
        security: [{ basic: [] }, { oauth: [] }],
        parameters: [
          { name: "name", in: "formData", type: "string", required: true },
          { name: "tags", in: "formData", ...LIST },
          { name: "many", in: "formData", ...LIST, collectionFormat: "multi" },
          { name: "piped", in: "formData", ...LIST, collectionFormat: "pipes" },
        ],
        responses: { 204: { description: "done" } },
      },
      post: {
        security: [],
        parameters: [
          { name: "note", in: "formData", type: "string" },
          { name: "photo", in: "formData", type: "file" },
          { name: "more", in: "formData", type: "array", items: { type: "file" } },
        ],
        responses: { 204: { description: "done" } },
      },
    },
  },
};
const KEYED = { "auth:key": "k3y" };

openapi(
  "Swagger 2.0: the server is `host` and `basePath`, on https where `schemes` lists it",
  ({ withOpenAPI, endpoint }) => {
    const api = withOpenAPI(endpoint, SWAGGER).defaults(KEYED);
    // https first, though listed second; a basePath without its leading `/` gets one, and loses a trailing one.
    assert.is(api("GET /pets").url, "https://api.example.com:8443/v2/pets");
    // An operation's own `schemes` replace the description's.
    const put = { id: ["a"], name: "n", "auth:basic": ALADDIN };
    assert.is(api("PUT /pets/{id}", put).url, "http://api.example.com:8443/v2/pets/a");
    const { schemes: _, ...anyScheme } = SWAGGER;
    assert.is(withOpenAPI(endpoint, anyScheme)("GET /pets", KEYED).url, "https://api.example.com:8443/v2/pets");
    // No host: 2.0's "the host serving the documentation", which the caller names as `baseUrl`.
    const { host: __, ...hostless } = SWAGGER;
    throwsType(() => withOpenAPI(endpoint, hostless)("GET /pets", KEYED), '"GET /pets": its server "/v2" is relative');
    const base = endpoint.defaults({ baseUrl: "https://k8s.local:6443" });
    assert.is(withOpenAPI(base, hostless)("GET /pets", KEYED).url, "https://k8s.local:6443/v2/pets");
    // A baseUrl set replaces the server, as it does a 3.x one.
    assert.is(withOpenAPI(base, SWAGGER)("GET /pets", KEYED).url, "https://k8s.local:6443/pets");
  },
);

openapi(
  "Swagger 2.0: `produces` is the accept header, `consumes` the body's media types",
  ({ withOpenAPI, endpoint }) => {
    const api = withOpenAPI(endpoint, SWAGGER).defaults(KEYED);
    // The operation's `produces` replaces the description's; only a response with a `schema` has content.
    assert.is(api("GET /pets").headers.accept, "text/csv");
    assert.is(api("POST /pets", { name: "Rex" }).headers.accept, "application/json, application/xml");
    assert.is(api("POST /pets", { name: "Rex" }).headers["content-type"], "application/json; charset=utf-8");
    const { produces: _, ...silent } = SWAGGER;
    assert.is(withOpenAPI(endpoint, silent)("POST /pets", { ...KEYED, name: "Rex" }).headers.accept, "*/*");
  },
);

openapi(
  "Swagger 2.0: an `in: body` parameter is the request body, its properties beside the parameters",
  ({ withOpenAPI, endpoint }) => {
    const api = withOpenAPI(endpoint, SWAGGER).defaults(KEYED);
    const made = api("POST /pets", { name: "Rex", tags: ["a"], limit: 2 });
    assert.is(made.url, "https://api.example.com:8443/v2/pets?limit=2");
    assert.equal(made.body, { name: "Rex", tags: ["a"] });
    // A required body left out is the empty value of its media type; the body parameter's name is no key.
    assert.equal(api("POST /pets").body, {});
    assert.equal(api("POST /pets", { data: [] }).body, []);
    // `consumes` absent: JSON.
    const { consumes: _, ...json } = SWAGGER;
    assert.is(
      withOpenAPI(endpoint, json)("POST /pets", { ...KEYED, name: "x" }).headers["content-type"],
      "application/json; charset=utf-8",
    );
  },
);

openapi("Swagger 2.0: `in: formData` is a form, multipart where a field is a file", ({ withOpenAPI, endpoint }) => {
  const api = withOpenAPI(endpoint, SWAGGER).defaults({ "auth:basic": ALADDIN });
  const form = api("PUT /pets/{id}", {
    id: ["a", "b"],
    name: "Rex",
    tags: ["x", "y"],
    many: ["m", "n"],
    piped: ["p", "q"],
  });
  assert.is(form.url, "http://api.example.com:8443/v2/pets/a,b");
  assert.instance(form.body, URLSearchParams);
  // csv (the default) joins with commas, multi is a pair per item, pipes joins with `|`.
  assert.is(String(form.body), "name=Rex&tags=x%2Cy&many=m&many=n&piped=p%7Cq");
  // No form type in `consumes` and a `type: file` field: multipart, which takes the file as a part.
  const photo = new Blob(["png"], { type: "image/png" });
  const upload = api("POST /pets/{id}", { id: ["a"], note: "hi", photo });
  assert.instance(upload.body, FormData);
  assert.equal([...(upload.body as FormData).keys()], ["note", "photo"]);
  const part = (upload.body as FormData).get("photo") as Blob;
  assert.equal([part.size, part.type], [3, "image/png"]);
  // A list of files is a part per file: no collectionFormat joins files.
  const many = api("POST /pets/{id}", { id: ["a"], more: [photo, new Blob(["gif89a"])] }).body as FormData;
  assert.equal(
    many.getAll("more").map((file) => (file as Blob).size),
    [3, 6],
  );
  // Without a file, multipart still: it is the only form type the operation takes.
  assert.instance(api("POST /pets/{id}", { id: ["a"], note: "hi" }).body, FormData);
});

openapi("Swagger 2.0: each `collectionFormat` as its 3.0 style, `tsv` tab-joined", ({ withOpenAPI, endpoint }) => {
  const api = withOpenAPI(endpoint, SWAGGER).defaults(KEYED);
  const two = ["a b", "c"];
  const made = api("GET /pets", {
    csv: two,
    ssv: two,
    tsv: two,
    pipes: two,
    multi: two,
    ids: [1, 2],
    born: new Date(Date.UTC(2024, 1, 29)),
  });
  assert.is(
    made.url,
    "https://api.example.com:8443/v2/pets?csv=a%20b,c&ssv=a%20b%20c&tsv=a%20b%09c&pipes=a%20b%7Cc&multi=a%20b&multi=c&born=2024-02-29",
  );
  // A path or header list is `simple`: comma-joined.
  assert.is(made.headers.ids, "1,2");
  // A cookie list (3.0's location, which a 2.0 file may hold) is comma-joined too.
  const parameters = [{ name: "c", in: "cookie", ...LIST }];
  const cookie = withOpenAPI(endpoint, { swagger: "2.0", host: "x.example", paths: { "/c": { get: { parameters } } } });
  assert.is(cookie("GET /c", { c: ["a", "b"] }).headers.cookie, "c=a,b");
});

openapi(
  "Swagger 2.0: `securityDefinitions` basic, apiKey and oauth2 send as 3.0's schemes do",
  ({ withOpenAPI, endpoint }) => {
    const api = withOpenAPI(endpoint, SWAGGER);
    assert.is(api("GET /pets", KEYED).headers["x-key"], "k3y");
    const form = { id: ["a"], name: "n" };
    assert.is(
      api("PUT /pets/{id}", { ...form, "auth:basic": ALADDIN }).headers.authorization,
      "Basic QWxhZGRpbjpww6Rzc3dvcmQ=",
    );
    assert.is(api("PUT /pets/{id}", { ...form, "auth:oauth": "t0k" }).headers.authorization, "Bearer t0k");
    throwsType(() => api("GET /pets", { "auth:oauth": "t" }), '"GET /pets" needs credentials: "auth:key"');
    throwsType(() => api("GET /pets", { "auth:kye": "k" }), '"auth:kye" names no security scheme', '"auth:key"');
    // `security: []` needs none.
    assert.is(api("POST /pets/{id}", { id: ["a"], "auth:key": "k3y" }).headers["x-key"], undefined);
  },
);

openapi(
  "Swagger 2.0: reduceOpenAPI() writes a 3.0 description that builds the same requests",
  ({ withOpenAPI, reduceOpenAPI, endpoint }) => {
    const reduced = reduceOpenAPI(SWAGGER);
    assert.is(reduced.openapi, "3.0.3");
    assert.is(reduced.swagger, undefined);
    const [from2, from3] = [SWAGGER, reduced].map((read) =>
      withOpenAPI(endpoint, read).defaults({ ...KEYED, "auth:basic": ALADDIN }),
    );
    const calls: [string, object][] = [
      ["GET /pets", { csv: ["a"], ssv: ["b", "c"], tsv: ["d", "e"], pipes: ["f", "g"], multi: ["h", "i"], ids: [1] }],
      ["POST /pets", { name: "Rex", limit: 1 }],
      ["POST /pets", {}],
      ["PUT /pets/{id}", { id: ["a"], name: "n", tags: ["x", "y"], many: ["m", "n"], piped: ["p", "q"] }],
      ["POST /pets/{id}", { id: ["a"], note: "hi", photo: new Blob(["x"]) }],
    ];
    for (const [route, options] of calls) {
      const [a, b] = [from2, from3].map((api) => api(route as never, options as never));
      const text = (made: typeof a) =>
        JSON.stringify([made, made.body instanceof FormData ? [...made.body.keys()] : String(made.body)]);
      assert.is(text(b), text(a), route);
    }
  },
);

openapi(
  "reduceOpenAPI() keeps a header parameter the description may not set: a call's key naming it is still refused",
  ({ withOpenAPI, reduceOpenAPI, base }) => {
    const secret = {
      paths: { "/p": { get: { parameters: [{ name: "Authorization", in: "header", required: true }] } } },
    };
    for (const read of [secret, reduceOpenAPI(secret)]) {
      throwsType(() => withOpenAPI(base, read)("GET /p", { Authorization: "Bearer s3cret" }), '"Authorization"');
    }
  },
);

openapi("Swagger 2.0: a security scheme of another type names 2.0's types", ({ withOpenAPI, endpoint }) => {
  const other = { ...SWAGGER, securityDefinitions: { key: { type: "token" } } };
  throwsType(
    () => withOpenAPI(endpoint, other)("GET /pets", KEYED),
    '"GET /pets": security scheme "key": `type` must be "apiKey", "http", "oauth2", "openIdConnect" or "mutualTLS", not "token"',
  );
});

openapi(
  "Swagger 2.0: other versions, and 2.0 that does not say so, are TypeErrors naming them",
  ({ withOpenAPI, reduceOpenAPI, endpoint }) => {
    const { swagger: _, ...unsaid } = SWAGGER;
    throwsType(() => withOpenAPI(endpoint, unsaid), 'has Swagger 2.0\'s `host` but no `swagger: "2.0"`');
    const legacy = { swaggerVersion: "1.2", apis: [] } as never;
    throwsType(() => reduceOpenAPI(legacy), 'is Swagger "1.2": only Swagger 2.0 and OpenAPI 3.x are read');
    throwsType(() => withOpenAPI(endpoint, { ...SWAGGER, swagger: "2" }), 'says `swagger: "2"`');
    // An unquoted `swagger: 2.0` in YAML is the number 2: read as 2.0.
    assert.is(
      withOpenAPI(endpoint, { ...SWAGGER, swagger: 2 })("GET /pets", KEYED).url,
      "https://api.example.com:8443/v2/pets",
    );
    throwsType(
      () => withOpenAPI(endpoint, { ...SWAGGER, openapi: "3.0.0" }),
      'says `swagger: "2.0"`',
      "without `openapi`",
    );
    const body = { paths: { "/x": { post: { parameters: [{ name: "b", in: "body" }] } } } };
    const call = () => withOpenAPI(endpoint, body)("POST /x", { baseUrl: "https://x" });
    throwsType(
      call,
      '"POST /x": parameter 0: `in` must be "path", "query", "querystring", "header" or "cookie", not "body", as Swagger 2.0',
    );
    const server = (fields: object) =>
      withOpenAPI(endpoint, { swagger: "2.0", ...fields, paths: { "/x": { get: {} } } })("GET /x");
    throwsType(() => server({ host: "evil.example/path" }), '`host`: "evil.example/path" is not a host name and port');
    for (const host of ["{tenant}.example", "a..b", ".", "[::1]"]) {
      throwsType(() => server({ host }), "is not a host name");
    }
    throwsType(() => server({ host: 42 }), "`host` must be a host name and port, not number");
    throwsType(() => server({ host: "x.example:65536" }), '`host` "x.example:65536" has a port over 65535');
    throwsType(() => server({ host: "x.example", basePath: "/v1?admin=1" }), '`basePath`: "/v1?admin=1" is not a path');
    throwsType(
      () => server({ host: "x.example", schemes: ["ws", "wss"] }),
      '`schemes` lists neither "https" nor "http"',
    );
  },
);

/** Parameters 3.0 cannot express, or 2.0 does not have, each with the TypeError's text. */
const PATH_2 = { name: "p", in: "path", required: true, type: "string" };
const UNSAYABLE: [parameters: object[], operation: object, message: string][] = [
  [
    [{ ...PATH_2, ...LIST, collectionFormat: "ssv" }],
    {},
    "`collectionFormat: ssv` has no 3.0 style in a path parameter",
  ],
  [
    [PATH_2, { name: "h", in: "header", ...LIST, collectionFormat: "multi" }],
    {},
    "`collectionFormat: multi` has no 3.0 style in a header parameter",
  ],
  [
    [PATH_2, { name: "q", in: "query", ...LIST, collectionFormat: "json" }],
    {},
    '`collectionFormat` "json" is not one of 2.0\'s',
  ],
  [
    [PATH_2, { name: "q", in: "query", type: "array", items: { ...LIST, collectionFormat: "pipes" } }],
    {},
    "3.0 has no style for a list in a list",
  ],
  // The inner list says no format: `csv`, not the outer `pipes`.
  [
    [PATH_2, { name: "q", in: "query", type: "array", collectionFormat: "pipes", items: LIST }],
    {},
    "3.0 has no style for a list in a list",
  ],
  [
    [PATH_2, { name: "q", in: "query", type: "array", items: { type: "file" } }],
    {},
    "`type: file` is for `in: formData` parameters alone",
  ],
  [[PATH_2, { name: "a", in: "body" }], { consumes: [5] }, '`consumes`: "5" is not a media type'],
  [[PATH_2, { name: "q", in: "query", type: "file" }], {}, "`type: file` is for `in: formData` parameters alone"],
  [[PATH_2, { name: "a", in: "body" }, { name: "b", in: "body" }], {}, "`in: body` beside another"],
  [[PATH_2, { name: "a", in: "body" }, { name: "f", in: "formData" }], {}, "3.0 has one request body"],
  [[PATH_2, { name: "a", in: "body" }], { consumes: "application/json" }, '"POST /x/{p}": `consumes` must be a list'],
];

openapi(
  "Swagger 2.0: what 3.0 cannot express is a TypeError naming the operation, on its first call",
  ({ withOpenAPI, endpoint }) => {
    for (const [parameters, operation, message] of UNSAYABLE) {
      const paths = { "/x/{p}": { post: { parameters, ...operation } } };
      const api = withOpenAPI(endpoint, { swagger: "2.0", host: "x.example", paths });
      throwsType(() => api("POST /x/{p}", { p: "v" }), '"POST /x/{p}"', message);
    }
  },
);

// --- What a peer's own tests found, and what a body's label must agree with -----------------------------------------

openapi(
  "allowEmptyValue: an empty query value is sent only where it is true; else left out, or refused when required",
  ({ withOpenAPI, base }) => {
    const query = (name: string, more: object = {}) => ({ name, in: "query", schema: { type: "string" }, ...more });
    const parameters = [query("q"), query("tag", { allowEmptyValue: true }), query("must", { required: true })];
    const api = withOpenAPI(base, { paths: { "/s": { get: { parameters } } } });
    assert.is(api("GET /s", { q: "", tag: "", must: "x" }).url, "https://api.example/s?tag=&must=x");
    throwsType(() => api("GET /s", { must: "" }), 'parameter "must" is required by "GET /s", and not empty');
    // A path value, a header's and a JSON text's are another matter: `allowEmptyValue` is the query's.
    const swagger = withOpenAPI(base, {
      swagger: "2.0",
      paths: { "/s": { get: { parameters: [{ name: "q", in: "query", type: "string" }] } } },
    });
    assert.is(swagger("GET /s", { q: "" }).url, "https://api.example/s");
  },
);

openapi(
  'a schema that lists "" as a value sends it, as allowEmptyValue does (Stripe unsets a field so)',
  ({ withOpenAPI, reduceOpenAPI, base }) => {
    const unset = { enum: [""], type: "string" };
    const list = { type: "array", items: { type: "object", properties: { coupon: { type: "string" } } } };
    const query = (name: string, schema: object, more: object = {}) => ({ name, in: "query", schema, ...more });
    const parameters = [
      query("discounts", { anyOf: [list, { $ref: "#/components/schemas/Unset" }] }, { style: "deepObject" }),
      query("note", { oneOf: [{ type: "string", const: "" }, { type: "integer" }] }),
      query("plain", { type: "string", enum: ["a", "b"] }),
    ];
    const description = { paths: { "/i": { get: { parameters } } }, components: { schemas: { Unset: unset } } };
    const url = "https://api.example/i?discounts=&note=";
    assert.is(withOpenAPI(base, description)("GET /i", { discounts: "", note: "", plain: "" }).url, url);
    assert.is(withOpenAPI(base, reduceOpenAPI(description))("GET /i", { discounts: "", note: "", plain: "" }).url, url);
    assert.is(
      withOpenAPI(base, description)("GET /i", { discounts: [{ coupon: "c" }] }).url,
      "https://api.example/i?discounts%5B0%5D%5Bcoupon%5D=c",
    );
    // Swagger 2.0: the parameter's own `enum`.
    const swagger = withOpenAPI(base, {
      swagger: "2.0",
      paths: { "/s": { get: { parameters: [{ name: "q", in: "query", type: "string", enum: ["", "x"] }] } } },
    });
    assert.is(swagger("GET /s", { q: "" }).url, "https://api.example/s?q=");
  },
);

openapi(
  "bytes in a multipart form are binary parts, as a Blob is; in a URL-encoded form they are refused",
  async ({ withOpenAPI, base }) => {
    const form = (type: string, encoding = {}) => ({ requestBody: { content: { [type]: { encoding } } } });
    const api = withOpenAPI(base, {
      paths: {
        "/parts": { post: form("multipart/form-data", { image: { contentType: "image/png" } }) },
        "/form": { post: form("application/x-www-form-urlencoded") },
        "/either": { post: { requestBody: { content: { "application/json": {}, "multipart/form-data": {} } } } },
      },
    });
    const bytes = new Uint8Array([255, 65, 0]);
    const body = api("POST /parts", { file: bytes, buffer: bytes.buffer, image: [bytes] }).body as FormData;
    for (const [name, type] of [
      ["file", "application/octet-stream"],
      ["buffer", "application/octet-stream"],
      ["image", "image/png"],
    ]) {
      const part = body.get(name!) as Blob;
      assert.instance(part, Blob, name);
      assert.is(part.type, type, name);
      assert.equal([...new Uint8Array(await part.arrayBuffer())], [255, 65, 0], name);
    }
    throwsType(() => api("POST /form", { file: bytes }), 'form field "file" is a file');
    // Bytes make a body multipart where it may be one, as a Blob does.
    assert.instance(api("POST /either", { name: "n", file: bytes }).body, FormData);
  },
);

openapi(
  "a body and its label agree: a whole form goes as the form the operation takes, a caller's form type writes the fields",
  ({ withOpenAPI, base }) => {
    const api = withOpenAPI(base, {
      paths: {
        "/urlencoded": { post: { requestBody: { content: { "application/x-www-form-urlencoded": {} } } } },
        "/multipart": { post: { requestBody: { content: { "multipart/form-data": {} } } } },
        "/both": {
          post: { requestBody: { content: { "application/x-www-form-urlencoded": {}, "multipart/form-data": {} } } },
        },
      },
    });
    const fields = new FormData();
    fields.append("a", "1");
    // A FormData for an operation that takes a URL-encoded form only: its text, URL-encoded, labelled as such.
    const converted = api("POST /urlencoded", { data: fields });
    assert.instance(converted.body, URLSearchParams);
    assert.equal(
      [String(converted.body), converted.headers["content-type"]],
      ["a=1", "application/x-www-form-urlencoded"],
    );
    const withFile = new FormData();
    withFile.append("f", new Blob(["x"]));
    throwsType(() => api("POST /urlencoded", { data: withFile }), 'form field "f" is a file');
    // A URLSearchParams for a multipart-only one: a FormData, which fetch labels.
    const parts = api("POST /multipart", { data: new URLSearchParams("a=1") });
    assert.instance(parts.body, FormData);
    assert.is(parts.headers["content-type"], undefined);
    // Where both are taken, each goes as itself.
    assert.is(api("POST /both", { data: fields }).body, fields);
    assert.is(api("POST /both", { data: fields }).headers["content-type"], undefined);
    // The caller's multipart label on fields without a file: a FormData, and the label is fetch's (with its boundary).
    const labelled = api("POST /both", { a: "1", headers: { "content-type": "multipart/form-data" } });
    assert.instance(labelled.body, FormData);
    assert.is(labelled.headers["content-type"], undefined);
    // The caller's text label on a JSON operation: a string given whole is sent as it is, not as JSON text.
    const json = withOpenAPI(base, {
      paths: { "/j": { put: { requestBody: { content: { "application/json": {} } } } } },
    });
    assert.is(json("PUT /j", { data: "a: 1", headers: { "content-type": "application/yaml" } }).body, "a: 1");
    assert.is(json("PUT /j", { data: "a: 1" }).body, '"a: 1"');
  },
);

openapi(
  "a request body's content key that is not a media type is left out where another remains, refused where none does",
  ({ withOpenAPI, base }) => {
    const body = (content: object) => ({ post: { requestBody: { content } } });
    const api = withOpenAPI(base, {
      paths: {
        "/a": body({ "form-data": {}, "application/json": {} }),
        "/b": body({ examples: {}, "": {}, "text/plain": {} }),
        "/c": body({ "form-data": {} }),
      },
    });
    assert.is(api("POST /a", { x: 1 }).headers["content-type"], "application/json; charset=utf-8");
    assert.is(api("POST /b", { data: "hi" }).headers["content-type"], "text/plain");
    throwsType(() => api("POST /c", { x: 1 }), '"POST /c": `requestBody`: `content`: "form-data" is not a media type');
  },
);

openapi(
  "credentials are held to their RFCs: a token68 bearer token, basic without control characters, no lone surrogate",
  ({ withOpenAPI, endpoint }) => {
    const api = withOpenAPI(endpoint, SECURED);
    for (const token of ["", " ", "a b", "a\tb", "t=x"]) {
      throwsType(() => api("GET /bearer", { "auth:bearer": token }), '"auth:bearer" must be');
      throwsType(() => api("GET /root", { "auth:oauth": token }), '"auth:oauth" must be');
    }
    assert.is(api("GET /bearer", { "auth:bearer": "a-._~+/9==" }).headers.authorization, "Bearer a-._~+/9==");
    for (const user of [
      { username: "a\u0001", password: "p" },
      { username: "a", password: "p\u007f" },
    ]) {
      throwsType(() => api("GET /basic", { "auth:basic": user }), '"auth:basic" must be { username, password }');
    }
    throwsType(() => api("GET /key", { "auth:key": "k\ud800" }), '"auth:key" holds a character no header holds');
    // An API key is any text a header holds: an empty one too (RFC 9110's field-value may be empty).
    assert.is(api("GET /key", { "auth:key": "" }).headers["x-api-key"], "");
    // Another auth-scheme's credential is its own syntax: text without control characters.
    assert.is(api("GET /digest", { "auth:digest": 'a="b c"' }).headers.authorization, 'Digest a="b c"');
  },
);

openapi(
  "an API key goes in no header that frames the request or is a proxy's, and under no empty name",
  ({ withOpenAPI, endpoint }) => {
    const keyed = (scheme: object) =>
      withOpenAPI(endpoint, {
        servers: [{ url: "https://api.example" }],
        components: { securitySchemes: { s: scheme } },
        paths: { "/a": needs(["s"]) },
      });
    for (const name of ["Proxy-Authorization", "Proxy-Connection", "Connection", "TE", "Upgrade", "Keep-Alive"]) {
      throwsType(
        () => keyed({ type: "apiKey", in: "header", name })("GET /a", { "auth:s": "k" } as never),
        `security scheme "s": ${JSON.stringify(name)} is no header name for a credential`,
      );
    }
    for (const place of ["query", "header", "cookie"]) {
      throwsType(
        () => keyed({ type: "apiKey", in: place, name: "" })("GET /a", { "auth:s": "k" } as never),
        `"" is no ${place} name for a credential`,
      );
    }
  },
);

openapi(
  "credentials a caller wires themselves: with no auth: key, a secured operation is built without credentials",
  ({ withOpenAPI, endpoint, base }) => {
    // A browser app whose session is a cookie, a server whose fetch wrapper adds the token: neither gives a key.
    const api = withOpenAPI(endpoint, SECURED);
    for (const path of ["/root", "/either", "/both", "/key", "/query", "/cookie", "/basic"]) {
      const { url, headers } = api(`GET ${path}` as never);
      assert.is(url, `https://api.example${path}`, path);
      assert.equal(Object.keys(headers), ["accept", "user-agent"], path);
    }
    // The same through every defaults() level that gives none, and through parse(merge()).
    assert.equal(api.defaults({ headers: { "x-b": "1" } })("GET /root").headers["x-b"], "1");
    assert.equal(api.parse(api.merge("GET /root" as never)).headers.authorization, undefined);
    // An API key also declared as a required parameter is then the caller's to give.
    throwsType(() => api("GET /declared", { q: "x" }), 'parameter "api key" is required by "GET /declared"');
    // A plain endpoint never sends an "auth:" key, however it gets one: a TypeError naming the key.
    const plain = base.defaults({ "auth:bearer": "s3cret" });
    for (const call of [
      () => plain("GET /user"),
      () => plain("POST /user"),
      () => base("GET /user", { "auth:bearer": "s3cret" }),
      () => endpoint.parse(api.defaults({ "auth:oauth": "s3cret" }).merge("GET /root" as never)),
    ]) {
      throwsType(call, 'parameter "auth:', "is withOpenAPI()'s");
    }
  },
);

// --- OpenAPI 3.2: QUERY, additional methods, querystring, cookie style, sequences, operationIds, location --------------

const V32 = (paths: object, extra: object = {}) => ({
  openapi: "3.2.0",
  info: { title: "3.2", version: "1" },
  servers: [{ url: "https://api.example" }],
  paths,
  ...extra,
});

openapi(
  "3.2: QUERY is a path item's `query`, with a body and query parameters; toFetch() sends it uppercase",
  ({ endpoint, withOpenAPI, toFetch }) => {
    const api = withOpenAPI(
      endpoint,
      V32({
        "/search": {
          query: {
            parameters: [{ name: "limit", in: "query" }],
            requestBody: { content: { "application/json": {} } },
            responses: { 200: { content: { "application/json": {} } } },
          },
        },
      }),
    );
    const built = api("QUERY /search", { limit: 5, q: "cats" });
    assert.equal([built.method, built.url, built.body], ["query", "https://api.example/search?limit=5", { q: "cats" }]);
    assert.is(built.headers["content-type"], "application/json; charset=utf-8");
    const [, init] = toFetch(built);
    assert.equal([init.method, init.body], ["QUERY", '{"q":"cats"}']);
    throwsType(() => api("GET /search"), 'route "GET /search" is not in the description');
  },
);

openapi(
  "3.2: `additionalOperations` keys are methods as sent; one not in uppercase, or a fixed field's, is refused",
  ({ endpoint, withOpenAPI, toFetch }) => {
    const api = withOpenAPI(
      endpoint,
      V32({
        "/x": {
          get: {},
          additionalOperations: { LINK: { parameters: [{ name: "rel", in: "header" }] }, Purge: {}, GET: {} },
        },
        "/y": { additionalOperations: { "COPY\r\nX-Evil: 1": {}, "MOVE IT": {} } },
      }),
    );
    const link = api("LINK /x", { rel: "next" });
    assert.equal([link.method, link.url, link.headers.rel], ["link", "https://api.example/x", "next"]);
    assert.is(toFetch(link)[1].method, "LINK");
    throwsType(() => api("PURGE /x"), '"PURGE /x": `additionalOperations`: "Purge" is no method in uppercase');
    throwsType(() => api("GET /x"), '"GET /x": `additionalOperations`: "GET" is the method of the `get` field');
    // A key that is no token is never a route's method: no call can name it.
    throwsType(() => api("COPY /y"), 'route "COPY /y" is not in the description');
    throwsType(() => api("COPY\r\nX-Evil: 1 /y" as never), "is not a token");
  },
);

openapi(
  "3.2: an `in: querystring` parameter is the whole query, as its media type writes it",
  ({ endpoint, withOpenAPI }) => {
    const querystring = (type: string, more: object = {}) => ({
      name: "q",
      in: "querystring",
      content: { [type]: more },
    });
    const on = (parameters: object[], path = "/foo") => withOpenAPI(endpoint, V32({ [path]: { get: { parameters } } }));
    const form = on([
      querystring("application/x-www-form-urlencoded", { encoding: { tags: { style: "form", explode: false } } }),
    ]);
    assert.is(form("GET /foo", { q: { foo: "a + b", bar: true } }).url, "https://api.example/foo?foo=a+%2B+b&bar=true");
    assert.is(form("GET /foo", { q: { tags: ["x", "y"] } }).url, "https://api.example/foo?tags=x%2Cy");
    assert.is(form("GET /foo", { q: "a=1&b=c d#e" }).url, "https://api.example/foo?a=1&b=c+d%23e");
    // A URL-encoded form's pairs may be followed by others: an undeclared "query:" key.
    assert.is(form("GET /foo", { q: { a: "1" }, "query:b": "2" }).url, "https://api.example/foo?a=1&b=2");
    const json = on([querystring("application/json")]);
    assert.is(
      json("GET /foo", { q: { numbers: [1, 2], flag: null } }).url,
      "https://api.example/foo?%7B%22numbers%22%3A%5B1%2C2%5D%2C%22flag%22%3Anull%7D",
    );
    throwsType(
      () => json("GET /foo", { q: { a: 1 }, "query:b": "2" }),
      '"GET /foo": its querystring is the whole query',
    );
    const text = on([querystring("application/jsonpath")]);
    assert.is(text("GET /foo", { q: "$.a.b[1:1]#?&" }).url, "https://api.example/foo?%24.a.b%5B1%3A1%5D%23%3F%26");
    assert.is(text("GET /foo").url, "https://api.example/foo");
    throwsType(
      () => on([querystring("application/json"), { name: "limit", in: "query" }])("GET /foo"),
      'querystring parameter "q" beside query "limit"',
    );
    throwsType(
      () => on([querystring("text/plain"), { ...querystring("text/plain"), name: "r" }])("GET /foo"),
      'beside querystring "r"',
    );
    throwsType(
      () => on([{ name: "q", in: "querystring" }])("GET /foo"),
      "a querystring parameter's `content` must name its media type",
    );
    throwsType(
      () => on([querystring("application/json")], "/foo?x=1")("GET /foo?x=1", { q: 1 }),
      "its querystring is the whole query",
    );
  },
);

openapi(
  "3.2: `style: cookie` writes pairs joined by `; `, unencoded, and refuses what would add a cookie",
  ({ endpoint, withOpenAPI }) => {
    const on = (explode?: boolean) =>
      withOpenAPI(
        endpoint,
        V32({ "/c": { get: { parameters: [{ name: "cookie", in: "cookie", style: "cookie", explode }] } } }),
      );
    // 3.2.0, Parameter Object Examples: the caller escapes the comma; `!` and the space are a cookie's to hold.
    assert.is(
      on()("GET /c", { cookie: { greeting: "Hello%2C world!", code: 42 } }).headers.cookie,
      "greeting=Hello%2C world!; code=42",
    );
    assert.is(on()("GET /c", { cookie: ["a", "b"] }).headers.cookie, "cookie=a; cookie=b");
    assert.is(on(false)("GET /c", { cookie: ["a", "b"] }).headers.cookie, "cookie=a,b");
    assert.is(on(false)("GET /c", { cookie: { R: 100, G: 200 } }).headers.cookie, "cookie=R,100,G,200");
    for (const value of [
      { a: "1; admin=1" },
      { a: "1\r\nX-Evil: 1" },
      { a: "\0" },
      { a: "€" },
      { "a b": "1" },
      { "a=b": "1" },
    ]) {
      throwsType(() => on()("GET /c", { cookie: value }), 'cookie parameter "cookie"', "holds what no cookie holds");
    }
  },
);

openapi(
  "3.2: a list goes as a sequential JSON media type writes it: JSON Lines, NDJSON, JSON Text Sequences",
  ({ endpoint, withOpenAPI }) => {
    const on = (type: string) =>
      withOpenAPI(endpoint, V32({ "/logs": { post: { requestBody: { content: { [type]: {} } } } } }));
    const logs = [{ level: 1 }, "a\nb", null];
    assert.is(on("application/jsonl")("POST /logs", { data: logs }).body, '{"level":1}\n"a\\nb"\nnull\n');
    assert.is(on("application/x-ndjson")("POST /logs", { data: logs }).body, '{"level":1}\n"a\\nb"\nnull\n');
    assert.is(
      on("application/json-seq")("POST /logs", { data: logs }).body,
      '\x1e{"level":1}\n\x1e"a\\nb"\n\x1enull\n',
    );
    assert.is(on("application/geo+json-seq")("POST /logs", { data: [1] }).body, "\x1e1\n");
    assert.is(on("application/jsonl")("POST /logs", { data: [1] }).headers["content-type"], "application/jsonl");
    assert.is(on("application/jsonl")("POST /logs", { data: "1\n2\n" }).body, "1\n2\n");
    throwsType(() => on("application/jsonl")("POST /logs", { level: 1 }), "is a sequence", "give it as a list");
    throwsType(() => on("application/jsonl")("POST /logs", { data: [1n] }), "has no JSON form");
  },
);

openapi("3.2: an operationId calls its operation, building what its route builds", ({ endpoint, withOpenAPI }) => {
  const description = V32(
    {
      "/pets/{id}": {
        parameters: [{ name: "id", in: "path", required: true }],
        get: { operationId: "getPet" },
        delete: { operationId: "__proto__" },
        additionalOperations: { LINK: { operationId: "constructor" } },
      },
      "/a": { get: { operationId: "twice" } },
      "/b": { get: { operationId: "twice" } },
      "/c": { get: { operationId: "/a" } },
      pets: { get: { operationId: "getPet2" } },
    },
    { webhooks: { hook: { post: { operationId: "hook" } } } },
  );
  const api = withOpenAPI(endpoint, description).defaults({ headers: { "x-a": "1" } });
  assert.equal(api("getPet", { id: 7 }), api("GET /pets/{id}", { id: 7 }));
  assert.equal(api("__proto__", { id: 7 }), api("DELETE /pets/{id}", { id: 7 }));
  assert.equal(api("constructor", { id: 7 }).method, "link");
  assert.equal(api.parse(api.merge("getPet", { id: 7 })), api("GET /pets/{id}", { id: 7 }));
  throwsType(() => api("twice"), 'operationId "twice" names 2 operations: "GET /a", "GET /b"');
  // A route that starts with `/`, or a path key, is a path: the id "/a" is not one.
  assert.is(api("/c" as never).url, "https://api.example/c");
  throwsType(() => api("hook"), 'route "GET hook" is not in the description');
  throwsType(() => api("getPat" as never), 'route "GET getPat" is not in the description');
});

openapi(
  "3.2: a relative server resolves against where the description came from, never above its origin",
  ({ endpoint, withOpenAPI }) => {
    const on = (url: string, location?: string, under = endpoint) =>
      withOpenAPI(
        under,
        V32({ "/pets": { get: {} } }, { servers: [{ url }] }),
        location === undefined ? undefined : { url: location },
      );
    // 3.2.0, "Examples of API Base URL Determination": `$self` is not the base of API URLs.
    assert.is(on(".", "https://device1.example.com")("GET /pets").url, "https://device1.example.com/pets");
    assert.is(on("./test", "https://device1.example.com")("GET /pets").url, "https://device1.example.com/test/pets");
    assert.is(
      on("../v2/", "https://api.example.com/docs/openapi.json")("GET /pets").url,
      "https://api.example.com/v2/pets",
    );
    assert.is(
      on("/api/v3", "https://api.example.com/docs/x.json?v=1")("GET /pets").url,
      "https://api.example.com/api/v3/pets",
    );
    assert.is(
      on("../../../../%2e%2e/up", "https://api.example.com/a/x.json")("GET /pets").url,
      "https://api.example.com/up/pets",
    );
    // A `baseUrl` you set replaces it, as it replaces any server of the description's own.
    assert.is(
      on(".", "https://device1.example.com", endpoint.defaults({ baseUrl: "https://staging.example" }))("GET /pets")
        .url,
      "https://staging.example/pets",
    );
    throwsType(() => on("/v1")("GET /pets"), "is relative: set `baseUrl`, or withOpenAPI()'s `url`");
    for (const location of [
      "/docs/openapi.json",
      "file:///etc/openapi.json",
      "https://",
      "https://a b.example/",
      42,
      "https://u@api.example/",
    ]) {
      throwsType(() => on(".", location as string), "withOpenAPI()'s option `url`");
    }
  },
);

openapi(
  "3.2: `$self` is this document's URI for its `$ref`s; a reference to another document is refused",
  ({ endpoint, withOpenAPI }) => {
    const on = (self: string, ref: string, location?: string) =>
      withOpenAPI(
        endpoint,
        V32(
          { "/pets": { get: { parameters: [{ $ref: ref }] } } },
          { $self: self, components: { parameters: { Q: { name: "q", in: "query" } } } },
        ),
        location === undefined ? undefined : { url: location },
      );
    const url = "https://api.example/pets?q=1";
    assert.is(
      on("https://example.com/api/openapi", "https://example.com/api/openapi#/components/parameters/Q")("GET /pets", {
        q: 1,
      }).url,
      url,
    );
    assert.is(
      on("https://example.com/api/openapi", "openapi#/components/parameters/Q")("GET /pets", { q: 1 }).url,
      url,
    );
    assert.is(
      on(
        "/api/openapi",
        "../api/openapi#/components/parameters/Q",
        "https://example.com/docs/x.json",
      )("GET /pets", { q: 1 }).url,
      url,
    );
    throwsType(
      () => on("https://example.com/api/openapi", "https://example.com/other#/components/parameters/Q")("GET /pets"),
      '$ref "https://example.com/other#/components/parameters/Q" names another document',
    );
  },
);

openapi(
  "3.2: reduceOpenAPI() keeps QUERY, additional methods, querystring, cookie style, ids, and 3.2 itself",
  ({ endpoint, withOpenAPI, reduceOpenAPI }) => {
    const description = V32({
      "/s": {
        query: { operationId: "search", requestBody: { content: { "application/json": {} } } },
        additionalOperations: { LINK: { operationId: "link" } },
        get: {
          parameters: [
            {
              name: "f",
              in: "querystring",
              content: { "application/x-www-form-urlencoded": { encoding: { t: { explode: false } } } },
            },
            { name: "c", in: "cookie", style: "cookie" },
          ],
        },
      },
      "/p/{id}": { get: { parameters: [{ name: "id", in: "path", required: true, style: "label" }] } },
    });
    const reduced = reduceOpenAPI(description) as any;
    assert.is(reduced.openapi, "3.2.0");
    assert.is(reduced.paths["/s"].additionalOperations.LINK.operationId, "link");
    const [whole, light] = [description, reduced].map((d) => withOpenAPI(endpoint, d));
    for (const [route, options] of [
      ["QUERY /s", { q: 1 }],
      ["search", { q: 1 }],
      ["LINK /s", {}],
      ["link", {}],
      ["GET /s", { f: { t: ["a", "b"], u: "x y" }, c: { a: "1", b: "2" } }],
      ["GET /p/{id}", { id: ["a", "b"] }],
    ] as const) {
      assert.equal(light(route, options), whole(route, options), route);
    }
    assert.is(whole("GET /p/{id}", { id: ["a", "b"] }).url, "https://api.example/p/.a,b");
  },
);

openapi.run();

// --- Differential: every GitHub REST route against @octokit/endpoint 11 --------------------

const differential = suite("octokit differential");

function valueFor(name: string, i: number): unknown {
  if (name.endsWith("_id") || name.endsWith("_number")) return 1000 + i;
  if (name === "path") return "docs/read me.md";
  if (name === "ref") return "heads/feature/x";
  if (name === "basehead") return "main...topic";
  return `${name}-${i} ü`;
}

differential("every route builds exactly as octokit 11 builds it", () => {
  let count = 0;
  for (const methods of Object.values<Record<string, any[]>>(Endpoints)) {
    for (const [route, defaults = {}] of Object.values(methods)) {
      const [method, url] = route.split(" ");
      const options: Record<string, unknown> = {
        ...defaults,
        headers: { authorization: "token abc", ...defaults.headers },
      };
      let i = 0;
      for (const [, expression] of url.matchAll(/\{([^}]+)\}/g)) {
        for (const name of expression.replace(/^[?+#./;&]/, "").split(",")) options[name] = valueFor(name, i++);
      }
      if (method === "GET" || method === "HEAD") Object.assign(options, { per_page: 100, page: 2, direction: "a b" });
      else Object.assign(options, { title: "t", labels: ["a", "b"], draft: false });
      if (url.includes("{origin}")) options.origin = "https://uploads.github.com";
      const ours = source.endpoint(route, options);
      assert.equal(JSON.parse(JSON.stringify(ours)), normalize(octokit(route, options)), route);
      count++;
    }
  }
  assert.ok(count > 900, `only ${count} routes`);
});

differential("search routes with q, and GET with arrays, match octokit", () => {
  for (const q of ["cat+language:js", "a b+c", "repo:octocat/hello+is:pr+", "+"]) {
    assert.equal(source.endpoint("GET /search/issues", { q }), normalize(octokit("GET /search/issues", { q })));
  }
  const options = { owner: "a", repo: "b", labels: ["bug", "ui"], state: "open" };
  assert.equal(
    source.endpoint("GET /repos/{owner}/{repo}/issues", options),
    normalize(octokit("GET /repos/{owner}/{repo}/issues", options)),
  );
});

if (inPart("builds")) differential.run();

// --- Hostile input: every parse and scan is linear -------------------------------------------

const hostile = suite("hostile input");
for (const [name, run] of Object.entries(hostileInputs(source))) {
  // Each takes 3–120 ms on a quiet machine (`npm run bench` prints the times, cold). The bound is far above
  // that and far below anything quadratic, which on a megabyte takes minutes; it holds to this thread's CPU time,
  // which `npm test`'s suites side by side do not stretch (by the clock, one has taken 5.3 s there).
  hostile(`~1 MB: ${name} returns or throws a TypeError in under 5 s of CPU`, () => {
    const { cpuMs, message } = timeHostile(run);
    if (message !== undefined) assert.ok(message.length < 400, "the message quotes the input cut short");
    assert.ok(cpuMs < 5000, `${cpuMs.toFixed(0)} ms of CPU`);
  });
}
hostile("~1 MB of parameters: every one of the 65,536 is in the query, in order", () => {
  const { url } = hostileInputs(source)["a megabyte of parameters"]!() as source.RequestOptions;
  const pairs = url.slice("https://api.github.com/x?".length).split("&");
  assert.is(url.slice(0, 30), "https://api.github.com/x?p0=0&");
  assert.is(pairs.length, 65536);
  assert.ok(pairs.every((pair, i) => pair === `p${i}=${i}`));
});
if (inPart("source")) hostile.run();

// --- Properties (fast-check) ------------------------------------------------------------------

const properties = suite("properties");
/** QUICK=1 (`npm run test:unit`): a quarter of the runs, for a quick answer; `npm test` runs them all. */
const { endpoint: ep } = source;

/** Any UTF-16 code units, lone surrogates included. */
const units = (maxLength = 12) =>
  fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength }).map((codes) => String.fromCharCode(...codes));
const tricky = fc.oneof(
  units(),
  fc.constantFrom(
    "",
    ".",
    "..",
    "%2e",
    "%2E%2e",
    "a/..",
    "{",
    "}",
    "{a}",
    ":a",
    "\r\n",
    "\0",
    "__proto__",
    "constructor",
  ),
);
const anyMethod = fc.oneof(fc.constantFrom("GET", "post", "Put", "PATCH", "DELETE", "HEAD", "OPTIONS"), units(6));
const anyTemplate = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "/",
        "/repos",
        "{owner}",
        "{/repo}",
        "{?q,page}",
        "{&x*}",
        "{+path}",
        "{#f}",
        "{.ext}",
        "{;m}",
        ":owner",
        "{a:3}",
        "https://x.example",
        "{",
        "}",
        "{!a}",
        "{a b}",
      ),
      units(4),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(""));
const anyValue = fc.oneof(
  tricky,
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(tricky, { maxLength: 3 }),
  fc.dictionary(tricky, tricky, { maxKeys: 3 }),
);
const anyOptions = fc.record(
  {
    owner: anyValue,
    repo: anyValue,
    q: anyValue,
    path: anyValue,
    data: anyValue,
    extra: anyValue,
    url: anyValue,
    "ids[]": anyValue,
    headers: fc.dictionary(tricky, fc.oneof(tricky, fc.integer()), { maxKeys: 3 }),
    mediaType: fc.record({ format: tricky, previews: fc.array(tricky, { maxLength: 2 }) }, { requiredKeys: [] }),
    baseUrl: fc.constantFrom("https://api.example", "https://ghe.example/api/v3/"),
    request: fc.dictionary(tricky, anyValue, { maxKeys: 2 }),
  },
  { requiredKeys: [] },
);

/** Run `fn`; a failure must be our own TypeError, never a RangeError, URIError or a crash from inside. */
function outcome(fn: () => unknown): { value: unknown } | { error: string } {
  try {
    return { value: fn() };
  } catch (error) {
    assert.instance(error, TypeError, String(error));
    assert.ok((error as Error).message.startsWith("endpoint-options: "), (error as Error).message);
    return { error: (error as Error).message };
  }
}

properties("any route, method and options: a result or our TypeError", () => {
  fc.assert(
    fc.property(anyMethod, anyTemplate, anyOptions, (m, t, o) => {
      outcome(() => ep(`${m} ${t}`, o));
      outcome(() => ep({ ...o, method: m, url: t }));
    }),
    { numRuns: runs(3000) },
  );
});

properties("endpoint(x) equals parse(merge(x)), or both throw", () => {
  const custom = ep.defaults({ per_page: 5, headers: { "x-d": "d" }, mediaType: { previews: ["p"] } });
  fc.assert(
    fc.property(anyMethod, anyTemplate, anyOptions, (m, t, o) => {
      for (const fn of [ep, custom]) {
        const direct = outcome(() => fn(`${m} ${t}`, o));
        const twoSteps = outcome(() => fn.parse(fn.merge(`${m} ${t}`, o)));
        assert.equal("error" in direct, "error" in twoSteps);
        if ("value" in direct && "value" in twoSteps) assert.equal(direct.value, twoSteps.value);
      }
    }),
    { numRuns: runs(2000) },
  );
});

properties("a path value stays in its segment and decodes back to itself", () => {
  const segment = fc.oneof(
    fc.stringMatching(/^[a-z]{1,5}$/).map((text) => ({ literal: text })),
    fc.constant({ literal: null }),
  );
  fc.assert(
    fc.property(
      fc.array(segment, { minLength: 1, maxLength: 5 }),
      fc.array(tricky, { minLength: 5, maxLength: 5 }),
      (segments, values) => {
        const params: Record<string, unknown> = {};
        segments.forEach((s, i) => {
          if (s.literal === null) params[`p${i}`] = values[i];
        });
        const url = segments.map((s, i) => s.literal ?? `{p${i}}`).join("/");
        const result = outcome(() => ep(`GET /${url}/end`, params));
        if ("error" in result) {
          assert.ok(/makes the path segment|lone surrogate/.test(result.error), result.error);
          return;
        }
        const path = new URL((result.value as { url: string }).url).pathname.split("/");
        assert.is(path.length, segments.length + 2, (result.value as { url: string }).url);
        segments.forEach((s, i) => {
          assert.is(decodeURIComponent(path[i + 1]!), s.literal ?? String(values[i]));
        });
        assert.is(path[path.length - 1], "end");
      },
    ),
    { numRuns: runs(3000) },
  );
});

properties(
  "a value is refused exactly when the URL parser would resolve a dot segment it helped make, under every operator",
  () => {
    // The oracle is the URL Standard's reference parser (whatwg-url: Node 20's own misses the trailing "." of
    // `/a/.,./x/.`), reading the expansion as parseTemplate writes it, without a guard. A path the parser rewrites
    // must be refused, naming a parameter; any other comes out as written. Literals hold no dots, so every dot
    // segment is a value's or its operator's.
    const piece = fc.constantFrom(
      ".",
      "..",
      "",
      "a",
      ".a",
      "a.",
      "...",
      "%2e",
      "%2E%2e",
      ".%2e",
      "a/..",
      "../a",
      "./",
      "/.",
      "a/./b",
    );
    const spec = fc.record({
      literal: fc.constantFrom("", "/", "x", "/x/", "x/"),
      operator: fc.constantFrom("", "+", "/", ".", ";"),
      values: fc.array(fc.oneof(piece, fc.array(piece, { minLength: 1, maxLength: 3 })), {
        minLength: 1,
        maxLength: 2,
      }),
      explode: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(spec, { minLength: 1, maxLength: 3 }), (specs) => {
        const variables: Record<string, unknown> = {};
        let count = 0;
        const path =
          "/a" +
          specs
            .map(({ literal, operator, values, explode }) => {
              const names = values.map((value) => {
                variables[`v${count}`] = value;
                return `v${count++}${explode ? "*" : ""}`;
              });
              return `${literal}{${operator}${names}}`;
            })
            .join("");
        let written = source.parseTemplate(path).expand(variables);
        if (written.length > 1 && written.endsWith("/")) written = written.slice(0, -1);
        const expected = "https://api.github.com" + written;
        const result = outcome(() => ep(`GET ${path}`, variables));
        if (new StandardURL(expected).pathname !== written) {
          assert.ok(
            "error" in result && /^endpoint-options: parameter "v\d+" makes the path segment /.test(result.error),
            `${path} ${JSON.stringify(variables)}: ${JSON.stringify(result)}`,
          );
        } else {
          assert.ok("value" in result, `${path} ${JSON.stringify(variables)}: ${JSON.stringify(result)}`);
          assert.is((result.value as { url: string }).url, expected);
        }
      }),
      { numRuns: runs(3000) },
    );
  },
);

properties(
  "long values (past the kilobyte where encoding sets its work aside) encode as the native encoders do",
  () => {
    // The native encoders are the oracle: encodeURIComponent for queries, with `+` kept for q; and for RFC 6570,
    // the same with !'()* escaped ({p}), or encodeURI with brackets and %XX triplets kept ({+p}).
    const char = fc.constantFrom(
      "a",
      "%",
      "+",
      "!",
      "*",
      "é",
      "€",
      "😀",
      "[",
      "]",
      "2",
      "e",
      "F",
      " ",
      "/",
      "?",
      "#",
      "&",
      "=",
      ":",
      "~",
    );
    const unreserved = (text: string) =>
      encodeURIComponent(text).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
    const reserved = (text: string) =>
      encodeURI(text).replace(/%25([\dA-Fa-f]{2})|%5B|%5D/g, (match, hex) => {
        if (hex) return "%" + hex;
        return match === "%5B" ? "[" : "]";
      });
    fc.assert(
      fc.property(
        fc.array(char, { minLength: 900, maxLength: 4000 }).map((chars) => chars.join("")),
        (text) => {
          const base = "https://api.github.com/x/";
          assert.is(ep("GET /x/{p}/y", { p: text }).url, base + unreserved(text) + "/y");
          // Without dots a {+p} value can still spell a `%2e` segment, which is refused; any other text must match.
          const reservedUrl = outcome(() => ep("GET /x/{+p}/y", { p: text.replace(/\./g, "") }).url);
          if ("error" in reservedUrl) assert.match(reservedUrl.error, /makes the path segment "%2e"/i);
          else assert.is(reservedUrl.value, base + reserved(text.replace(/\./g, "")) + "/y");
          assert.is(
            ep("GET /x", { v: text, q: text }).url,
            `https://api.github.com/x?v=${encodeURIComponent(text)}&q=${text.split("+").map(encodeURIComponent).join("+")}`,
          );
        },
      ),
      { numRuns: runs(200) },
    );
  },
);

properties("memory: 100,000 calls with distinct URLs grow the heap by well under 25 MB", () => {
  // 50,000 distinct routes and as many templates: six times what the two caches hold, and 70 MB were they
  // unbounded.
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const run = (from: number) => {
    for (let i = from; i < from + 25_000; i++) {
      ep(`GET /repos/{owner}/hello-${i}/issues/${i}`, { owner: "o", page: i });
      ep({ method: `M${i % 1000}`, url: `/x/${i}{?a}`, a: i });
    }
  };
  gc();
  const before = process.memoryUsage().heapUsed;
  run(0);
  run(25_000);
  gc();
  const grown = (process.memoryUsage().heapUsed - before) / 2 ** 20;
  assert.ok(grown < 25, `heap grew by ${grown.toFixed(1)} MB`);
  console.log(`    heap growth over 100,000 distinct-URL calls: ${grown.toFixed(2)} MB`);
});

if (inPart("builds")) properties.run();

// --- The shape of endpoint.ts, and the size budgets ------------------------------------------------------------------

const shape = suite("shape");

/** Every function of a file with its length in lines, comments counted and blank lines not (TypeScript's AST). */
function functionLengths(file: string): [name: string, line: number, lines: number][] {
  // Required here, not imported: the builds' half never loads TypeScript, and require() skips the lexing of its
  // 9 MB that an import of a CommonJS module costs.
  const ts: typeof TS = createRequire(import.meta.url)("typescript");
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n");
  const root = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: [string, number, number][] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = root.getLineAndCharacterOfPosition(node.getStart(root)).line;
      const end = root.getLineAndCharacterOfPosition(node.end).line;
      const length = lines.slice(start, end + 1).filter((line) => line.trim()).length;
      const name = node.name?.getText(root) ?? `the function at line ${start + 1}`;
      found.push([name, start + 1, length]);
    }
    ts.forEachChild(node, visit);
  };
  visit(root);
  return found;
}

// The linter counts code lines alone; a reader reads the comments too.
shape("endpoint.ts: no function is over 50 lines, comments included", () => {
  const lengths = functionLengths("endpoint.ts");
  assert.ok(lengths.length > 100, `${lengths.length} functions`);
  const long = lengths.filter(([, , length]) => length > 50);
  assert.equal(long, [], long.map(([name, line, length]) => `${name} (line ${line}): ${length} lines`).join(", "));
});

shape("endpoint.ts: the reading guide names every part, in order, and `endpoint` comes before the types", () => {
  const text = readFileSync("endpoint.ts", "utf8");
  const banners = [...text.matchAll(/^\/\/ (\d)\. /gm)].map((match) => Number(match[1]));
  assert.equal(banners, [1, 2, 3, 4, 5, 6, 7, 8]);
  const guide = text.slice(0, text.indexOf("@module"));
  for (const part of banners) assert.ok(guide.includes(`  ${part}. `), `the guide lists part ${part}`);
  assert.ok(text.indexOf("export const endpoint") < text.indexOf("// 7. "), "`endpoint` before the types");
  assert.ok(text.includes("\n// #region openapi\n") && text.includes("\n// #endregion\n"), "the OpenAPI region");
});

if (inPart("source")) shape.run();

/**
 * Fail on growth; the budgets only go down. The core's refusal of `"auth:"` keys (a credential never leaves a plain
 * endpoint, in a query or a body) cost 35 B of each, of which shorter internal field names paid 13 B: 5,260 and
 * 4,890 B before it (`endpoint` alone also moves by a few bytes with the OpenAPI region's text, from which esbuild
 * picks its short names). With `withOpenAPI`: 17,794 B before the region was rebuilt; the two cold attacks' faults
 * fixed, 18,941 B; OpenAPI 3.2 (QUERY and additional methods, querystring, the cookie style, sequences, operationIds,
 * the description's location and `$self`), the third attack's faults and the forms' speed back, 20,815 B.
 */
const SIZE_BUDGET = 5_282;
const ALONE_BUDGET = 4_928;
const OPENAPI_BUDGET = 20_930;
const size = suite("size");
size(`dist/endpoint.min.js is at most ${SIZE_BUDGET} B gzip`, () => {
  const { gzip } = measure(readFileSync("dist/endpoint.min.js"));
  assert.ok(gzip <= SIZE_BUDGET, `${gzip} B gzip is over the budget of ${SIZE_BUDGET} B`);
});
size(`\`endpoint\` alone, tree-shaken from dist/endpoint.mjs, is at most ${ALONE_BUDGET} B gzip`, async () => {
  const { gzip } = measure(await endpointAlone("./dist/endpoint.mjs"));
  assert.ok(gzip <= ALONE_BUDGET, `${gzip} B gzip is over the budget of ${ALONE_BUDGET} B`);
});
size(
  `\`endpoint\` and \`withOpenAPI\`, tree-shaken from dist/endpoint.mjs, are at most ${OPENAPI_BUDGET} B gzip`,
  async () => {
    const { gzip } = measure(await endpointAlone("./dist/endpoint.mjs", ", withOpenAPI"));
    assert.ok(gzip <= OPENAPI_BUDGET, `${gzip} B gzip is over the budget of ${OPENAPI_BUDGET} B`);
  },
);
// The README is the package's front page, read in one sitting; how things are checked is in CONTRIBUTING.md.
size("README.md is at most 40,000 B", () => {
  const bytes = readFileSync("README.md").length;
  assert.ok(bytes <= 40_000, `README.md is ${bytes} B`);
});
if (inPart("source")) size.run();
