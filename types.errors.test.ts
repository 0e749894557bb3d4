// What a TypeScript user sees for a wrong call: the compilers' own diagnostics (TypeScript 5 and 7, `tsc --pretty
// false`). For GitHub's description through `OpenAPIEndpoint`, and through withOpenAPI the AI fixture's clashing body
// names. And at real size: Stripe's, Kubernetes' and Zoom's generated `paths` (fixtures/<name>.paths.d.ts), their
// everyday calls and one mistake of each kind (fixtures/typed-calls.mjs), through withOpenAPI and, beside it, through
// openapi-fetch's `createClient<paths>()`, whose texts are pinned here too. Each wrong call must give exactly one
// error, on the call, naming what is wrong; right calls none. And the README's lines that a `// error` comment
// follows, compiled with the rest: each must give one error, which says what the comment quotes.

import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { CHECK_OPTIONS, oursCall, peerCall, TYPED_APIS } from "./fixtures/typed-calls.mjs";

const root = dirname(fileURLToPath(import.meta.url));
const allCompilers = {
  "TypeScript 5": join(root, "node_modules", "typescript", "bin", "tsc"),
  "TypeScript 7": join(root, "node_modules", "typescript7", "bin", "tsc"),
};
/** QUICK=1 (`npm run test:unit`): TypeScript 7 alone, which checks in a tenth of 5's time; `npm test` runs both. */
const compilers: Partial<typeof allCompilers> = process.env.QUICK
  ? { "TypeScript 7": allCompilers["TypeScript 7"] }
  : allCompilers;

interface Expected {
  /** The call, alone on its line. */
  call: string;
  /** The error's code, by compiler where they differ. */
  code?: number | Record<keyof typeof allCompilers, number>;
  /** The text the error starts at (the options argument, or the property at fault). */
  at?: string;
  /**
   * The last line of the error's message chain: what is wrong. A "… is missing in type '…'" message is
   * compared up to where it goes on to print the whole options type; `…` stands for any text (a long type).
   */
  says?: string | Record<keyof typeof allCompilers, string>;
}

const header = `import type { paths } from "@octokit/openapi-types";
import type { paths as AI } from "${join(root, "fixtures", "ai.paths.ts")}";
import { endpoint, withOpenAPI, type OpenAPIEndpoint } from "${join(root, "endpoint.ts")}";
const github = endpoint as OpenAPIEndpoint<paths>;
const repo = github.defaults({ owner: "octocat", repo: "hello-world" });
const ai = withOpenAPI<AI>(endpoint, { paths: {} });
`;

const cases: Expected[] = [
  // withOpenAPI: a body property named like a named option is "body:<name>", with its type.
  { call: `ai("POST /fine_tuning/jobs", { model: "m", training_file: "f", "body:method": { type: "dpo" } });` },
  {
    call: `ai("POST /fine_tuning/jobs", { model: "m", training_file: "f", "body:method": { type: "rlhf" } });`,
    code: 2322,
    at: 'type: "rlhf"',
    says: {
      "TypeScript 5": `Type '"rlhf"' is not assignable to type '"supervised" | "dpo"'.`,
      "TypeScript 7": `Type '"rlhf"' is not assignable to type '"dpo" | "supervised"'.`,
    },
  },
  // A misspelled body property, as a misspelled parameter: the compiler's "Did you mean".
  {
    call: `ai("POST /fine_tuning/jobs", { model: "m", training_fle: "f" });`,
    code: 2561,
    at: "training_fle:",
    says: "Object literal may only specify known properties, but 'training_fle' does not exist in type '…'. Did you mean to write 'training_file'?",
  },
  // A required body property is required; `url` beside a route is one (the route is the URL).
  {
    call: `ai("POST /webhooks/{webhook_id}", { webhook_id: "w", events: ["done"] });`,
    code: 2345,
    at: "{ webhook_id",
    says: `Property 'url' is missing in type '{ webhook_id: string; events: string[]; }'`,
  },
  // Right calls: no error.
  {
    call: `github("POST /repos/{owner}/{repo}/issues", { owner: "octocat", repo: "hello-world", title: "Found a bug", labels: ["bug"] });`,
  },
  { call: `repo("GET /repos/{owner}/{repo}/issues", { per_page: 5, state: "open" });` },
  {
    call: `github("GET /repos/{owner}/{repo}/contents/{path}", { owner: "vercel", repo: "next.js", path: "docs/README.md", ref: "v1.2.3" });`,
  },

  {
    call: `github("POST /repos/{owner}/{repo}/issues", { owner: "octocat", repo: "hello-world", title: "Found a bug", lables: ["bug"] });`,
    code: 2561,
    at: "lables:",
    says: "Object literal may only specify known properties, but 'lables' does not exist in type '…'. Did you mean to write 'labels'?",
  },
  // The whole body in `data`, and a property beside it, which would be lost: an error that names it.
  {
    call: `github("POST /repos/{owner}/{repo}/issues", { owner: "octocat", repo: "hello-world", data: { title: "Found a bug" }, labels: ["bug"] });`,
    code: 2345,
    at: "{ owner",
    says: "Type 'string[]' is not assignable to type 'undefined'.",
  },
  // A missing body property.
  {
    call: `github("POST /repos/{owner}/{repo}/issues", { owner: "octocat", repo: "hello-world", body: "It breaks." });`,
    code: 2345,
    at: "{ owner",
    says: "Property 'title' is missing in type '{ owner: string; repo: string; body: string; }'",
  },
  {
    call: `repo("POST /repos/{owner}/{repo}/issues", { body: "It breaks." });`,
    code: 2345,
    at: "{ body",
    says: "Property 'title' is missing in type '{ body: string; }'",
  },
  // A missing path parameter.
  {
    call: `github("GET /repos/{owner}/{repo}/issues", { owner: "octocat", state: "open" });`,
    code: 2345,
    at: "{ owner",
    says: `Property 'repo' is missing in type '{ owner: string; state: "open"; }'`,
  },
  {
    call: `repo("GET /repos/{owner}/{repo}/issues/{issue_number}", { owner: "someone-else" });`,
    code: 2345,
    at: "{ owner",
    says: "Property 'issue_number' is missing in type '{ owner: string; }'",
  },
  // A wrong enum value: on the property, with the compiler's "Did you mean".
  {
    call: `github("GET /repos/{owner}/{repo}/issues", { owner: "octocat", repo: "hello-world", state: "opened" });`,
    code: 2820,
    at: "state:",
    says: {
      "TypeScript 5": `Type '"opened"' is not assignable to type '"open" | "closed" | "all" | undefined'. Did you mean '"open"'?`,
      "TypeScript 7": `Type '"opened"' is not assignable to type '"all" | "closed" | "open" | undefined'. Did you mean '"open"'?`,
    },
  },
  {
    call: `repo("GET /repos/{owner}/{repo}/issues", { state: "opened" });`,
    code: 2820,
    at: "state:",
    says: {
      "TypeScript 5": `Type '"opened"' is not assignable to type '"open" | "closed" | "all" | undefined'. Did you mean '"open"'?`,
      "TypeScript 7": `Type '"opened"' is not assignable to type '"all" | "closed" | "open" | undefined'. Did you mean '"open"'?`,
    },
  },
  // A wrong type: on the property.
  {
    call: `github("GET /repos/{owner}/{repo}/issues", { owner: "octocat", repo: "hello-world", per_page: "5" });`,
    code: 2322,
    at: "per_page:",
    says: "Type 'string' is not assignable to type 'number'.",
  },
  {
    call: `repo("GET /repos/{owner}/{repo}/issues", { per_page: "5" });`,
    code: 2322,
    at: "per_page:",
    says: "Type 'string' is not assignable to type 'number'.",
  },
  // A body property of the wrong type: the chain names it.
  {
    call: `repo("POST /repos/{owner}/{repo}/issues", { title: "Found a bug", labels: "bug" });`,
    code: 2322,
    at: "labels:",
    says: "Type 'string' is not assignable to type '(string | { id?: number | undefined; name?: string | undefined; description?: string | null | undefined; color?: string | null | undefined; })[]'.",
  },
  // An unknown route: on the route itself, with or without options.
  {
    call: `github("GET /repos/{owner}/{repo}/isues", { owner: "octocat", repo: "hello-world" });`,
    code: 2345,
    at: `"GET`,
    says: `Argument of type '"GET /repos/{owner}/{repo}/isues"' is not assignable to parameter of type 'OpenAPIRoute<paths>'.`,
  },
  {
    call: `github("GET /repos/{owner}/{repo}/isues");`,
    code: 2345,
    at: `"GET`,
    says: `Argument of type '"GET /repos/{owner}/{repo}/isues"' is not assignable to parameter of type 'OpenAPIRoute<paths>'.`,
  },
  // Options left out where something in them is required.
  { call: `github("GET /repos/{owner}/{repo}");`, code: 2554, at: `github(`, says: "Expected 2 arguments, but got 1." },
];

// --- At real size: Stripe, Kubernetes and Zoom, beside openapi-fetch ---------------------------------------------

type Kind = keyof (typeof TYPED_APIS)[number]["mistakes"];

/** Each mistake's error through withOpenAPI (`ours`) and through openapi-fetch 0.17 (`peer`). */
const MISTAKES: Record<string, Record<Kind, { ours: Omit<Expected, "call">; peer: Omit<Expected, "call"> }>> = {
  stripe: {
    name: {
      ours: {
        code: 2561,
        at: "limt:",
        says: "Object literal may only specify known properties, but 'limt' does not exist in type '{ created?: …'. Did you mean to write 'limit'?",
      },
      peer: {
        code: 2561,
        at: "limt:",
        says: "Object literal may only specify known properties, but 'limt' does not exist in type '{ created?: …'. Did you mean to write 'limit'?",
      },
    },
    type: {
      ours: { code: 2322, at: "limit:", says: "Type 'string' is not assignable to type 'number'." },
      peer: { code: 2322, at: "limit:", says: "Type 'string' is not assignable to type 'number'." },
    },
    missing: {
      ours: { code: 2345, at: "{ amount", says: "Property 'currency' is missing in type '{ amount: number; }'" },
      peer: { code: 2322, at: "body:", says: "Property 'currency' is missing in type '{ amount: number; }'" },
    },
    route: {
      ours: {
        code: 2345,
        at: '"GET',
        says: `Argument of type '"GET /v1/customer"' is not assignable to parameter of type 'OpenAPIRoute<paths>'.`,
      },
      peer: {
        code: 2345,
        at: '"/v1',
        says: `Argument of type '"/v1/customer"' is not assignable to parameter of type 'PathsWithMethod<paths, "get">'.`,
      },
    },
  },
  kubernetes: {
    name: {
      ours: {
        code: 2561,
        at: "labelSelecter:",
        says: "Object literal may only specify known properties, but 'labelSelecter' does not exist in type '{ …'. Did you mean to write 'labelSelector'?",
      },
      peer: {
        code: 2561,
        at: "labelSelecter:",
        says: "Object literal may only specify known properties, but 'labelSelecter' does not exist in type '{ …'. Did you mean to write 'labelSelector'?",
      },
    },
    type: {
      ours: { code: 2322, at: "limit:", says: "Type 'string' is not assignable to type 'number'." },
      peer: { code: 2322, at: "limit:", says: "Type 'string' is not assignable to type 'number'." },
    },
    missing: {
      ours: { code: 2345, at: "{ name", says: "Property 'namespace' is missing in type '{ name: string; }'" },
      peer: { code: 2741, at: "path:", says: "Property 'namespace' is missing in type '{ name: string; }'" },
    },
    route: {
      ours: {
        code: 2345,
        at: '"GET',
        says: `Argument of type '"GET /api/v1/namespace/{namespace}/pods"' is not assignable to parameter of type 'OpenAPIRoute<paths>'.`,
      },
      // openapi-fetch gives up on the route: the error is on the call, and does not name the fault.
      peer: { code: 2589, at: "kubernetes.GET", says: "Type instantiation is excessively deep and possibly infinite." },
    },
  },
  zoom: {
    name: {
      ours: {
        code: 2561,
        at: "page_sise:",
        says: "Object literal may only specify known properties, but 'page_sise' does not exist in type '{ …'. Did you mean to write 'page_size'?",
      },
      peer: {
        code: 2561,
        at: "page_sise:",
        says: "Object literal may only specify known properties, but 'page_sise' does not exist in type '{ …'. Did you mean to write 'page_size'?",
      },
    },
    type: {
      ours: { code: 2322, at: "page_size:", says: "Type 'string' is not assignable to type 'number'." },
      peer: { code: 2322, at: "page_size:", says: "Type 'string' is not assignable to type 'number'." },
    },
    missing: {
      ours: { code: 2345, at: "{ type", says: `Property 'to' is missing in type '{ type: "live"; from: string; }'` },
      peer: { code: 2741, at: "query:", says: `Property 'to' is missing in type '{ type: "live"; from: string; }'` },
    },
    route: {
      ours: {
        code: 2345,
        at: '"GET',
        says: `Argument of type '"GET /user/{userId}"' is not assignable to parameter of type 'OpenAPIRoute<paths>'.`,
      },
      peer: {
        code: 2345,
        at: '"/user',
        says: `Argument of type '"/user/{userId}"' is not assignable to parameter of type 'PathsWithMethod<paths, "get">'.`,
      },
    },
  },
};

/**
 * Everyday calls openapi-fetch refuses although they are right, by where the error starts: Kubernetes' patches, whose
 * `Record<string, never>` body it types as `undefined`. Through withOpenAPI they check clean.
 */
const PEER_REFUSES: Record<string, Record<string, string>> = {
  kubernetes: {
    "spec: { replicas: 3": "Type '{ replicas: number; }' is not assignable to type 'undefined'.",
    "{ op": "Type '{ op: string; path: string; value: number; }' is not assignable to type 'undefined'.",
    'data: { mode: "slow"': "Type '{ mode: string; }' is not assignable to type 'undefined'.",
  },
};

const paths = (name: string) => join(root, "fixtures", `${name}.paths.js`);
const directoryHeader = TYPED_APIS.map(
  ({ name }) =>
    `import type { paths as ${name}Paths } from "${paths(name)}";\nconst ${name} = withOpenAPI<${name}Paths>(endpoint, { paths: {} });\n`,
).join("");
const peerHeader = `import createClient from "openapi-fetch";\n${TYPED_APIS.map(
  ({ name }) =>
    `import type { paths as ${name}Paths } from "${paths(name)}";\nconst ${name} = createClient<${name}Paths>();\n`,
).join("")}`;

const peerCases: Expected[] = [];
for (const { name, calls, mistakes } of TYPED_APIS) {
  for (const call of calls) {
    cases.push({ call: oursCall(name, call) });
    const text = peerCall(name, call);
    const refused = Object.entries(PEER_REFUSES[name] ?? {}).find(([at]) => text.includes(at));
    peerCases.push(refused ? { call: text, code: 2322, at: refused[0], says: refused[1] } : { call: text });
  }
  for (const [kind, call] of Object.entries(mistakes) as [Kind, (typeof calls)[number]][]) {
    cases.push({ call: oursCall(name, call), ...MISTAKES[name]![kind].ours });
    peerCases.push({ call: peerCall(name, call), ...MISTAKES[name]![kind].peer });
  }
}

// --- The README's `// error` comments ---------------------------------------------------------------------------

/** A line of the README's code that a `// error` comment says is wrong. */
interface Claim {
  /** The README's line, compiled as it is (its trailing comment too). */
  call: string;
  /** The code of `// error TS<code>`, when the comment names one. */
  code?: number;
  /** Where the error starts: the text of `on \`<text>\``, or a `//   ~~~` line under the call. */
  column?: number;
  /** What the message says, quoted from the comment: a part of it, in which `…` stands for any text. */
  says: string;
}

const CLAIM = /^error(?: TS(\d+))?(?: on `([^`]+)`)?: (.+)$/;

/** A claim from the text of its comment after `//`, on `call`. */
function claim(call: string, text: string, squiggle: number | undefined): Claim {
  const [, code, on, says] = CLAIM.exec(text) ?? [];
  if (!says) throw new Error(`README: "// ${text}" is not "// error[ TS<code>][ on \`<text>\`]: <what it says>"`);
  if (on !== undefined && !call.includes(on)) throw new Error(`README: no \`${on}\` in ${call}`);
  const column = on === undefined ? squiggle : call.indexOf(on) + 1;
  return { call, says, ...(code !== undefined && { code: +code }), ...(column !== undefined && { column }) };
}

/**
 * Every line of the README's code blocks that a `// error` comment follows, at its end or on the comment lines
 * below it (after any `~~~` line under it); the comment goes on over the indented `//` lines after it.
 */
function readmeClaims(): Claim[] {
  const claims: Claim[] = [];
  let inCode = false;
  let call = "";
  let squiggle: number | undefined;
  let open: Claim | undefined;
  for (const line of readFileSync(join(root, "README.md"), "utf8").split("\n")) {
    if (line.startsWith("```")) inCode = !inCode;
    if (line.startsWith("```") || !inCode) continue;
    const comment = /^\s*\/\/(.*)$/.exec(line)?.[1];
    let found: Claim | undefined;
    if (comment === undefined) {
      [call, squiggle, open] = [line, undefined, undefined];
      const at = line.indexOf("// error");
      if (at >= 0) found = claim(line, line.slice(at + 3), undefined);
    } else if (/^\s*~+$/.test(comment)) squiggle = line.indexOf("~") + 1;
    else if (/^\s*error\b/.test(comment)) found = claim(call, comment.trim(), squiggle);
    else if (open && /^\s{2,}\S/.test(comment)) open.says += ` ${comment.trim()}`;
    else open = undefined;
    if (found) {
      open = found;
      claims.push(found);
    }
  }
  return claims;
}

/** Whether a message holds `says`, in which `…` stands for any text. */
function holds(message: string, says: string): boolean {
  let at = 0;
  for (const piece of says.split("…")) {
    const found = message.indexOf(piece, at);
    if (found < 0) return false;
    at = found + piece.length;
  }
  return true;
}

const claims = readmeClaims();

interface Diagnostic {
  line: number;
  column: number;
  code: number;
  chain: string[];
}

/** `tsc --pretty false` output: `file(line,column): error TScode: message`, the chain indented below. */
function parse(output: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const text of output.split("\n")) {
    const head = /^[^(]+\((\d+),(\d+)\): error TS(\d+): (.*)$/.exec(text);
    if (head) diagnostics.push({ line: +head[1]!, column: +head[2]!, code: +head[3]!, chain: [head[4]!] });
    else if (text.trim()) diagnostics.at(-1)?.chain.push(text.trim());
  }
  return diagnostics;
}

/** Whether a message is the expected one: `…` stands for any text, a "missing" one is compared up to its type. */
function matches(last: string, says: string): boolean {
  const text = / is missing in type /.test(says) ? last.slice(0, last.indexOf(" but required in type ")) : last;
  const [first, ...rest] = says.split("…");
  if (!rest.length) return text === says;
  let at = first!.length;
  if (!text.startsWith(first!)) return false;
  for (const [i, piece] of rest.entries()) {
    const found = i === rest.length - 1 ? text.length - piece.length : text.indexOf(piece, at);
    if (found < at || text.slice(found, found + piece.length) !== piece) return false;
    at = found + piece.length;
  }
  return true;
}

// Inside the repository, so that GitHub's types and openapi-fetch are found in its node_modules.
mkdirSync(join(root, "node_modules", ".cache"), { recursive: true });
const dir = mkdtempSync(join(root, "node_modules", ".cache", "errors-"));
const compilerOptions = { ...CHECK_OPTIONS, allowImportingTsExtensions: true };
// The README's lines go after our calls: they use its `endpoint` and `github`, which the header defines as it does.
// ERRORS=ours or peer: one file of the two. npm test and its quick loop check ours; openapi-fetch's pins the peer's
// texts, which no line of the library moves (they change with the pinned packages alone), so .ci/run checks it
// in a step of its own, ERRORS=peer.
const only = process.env.ERRORS;
const files = {
  ...(only !== "peer" && { "withOpenAPI and OpenAPIEndpoint": { header: header + directoryHeader, cases, claims } }),
  ...(only !== "ours" && { "openapi-fetch": { header: peerHeader, cases: peerCases, claims: [] as Claim[] } }),
};
for (const [file, { header: head, cases: list, claims: more }] of Object.entries(files)) {
  const name = file === "openapi-fetch" ? "peer" : "ours";
  writeFileSync(join(dir, `${name}.ts`), head + [...list, ...more].map((c) => c.call).join("\n") + "\n");
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ compilerOptions, files: [`${name}.ts`] }));
}

/**
 * Every compiler on our file, TypeScript 7 on openapi-fetch's (whose texts for these mistakes are the same with 5,
 * which takes 10 s over it; `PEER_TS5=1` checks that), at once: `[compiler, file, output]`.
 */
const outputs = await Promise.all(
  Object.entries(compilers).flatMap(([compiler, tsc]) =>
    Object.keys(files)
      .filter((file) => file !== "openapi-fetch" || compiler === "TypeScript 7" || process.env.PEER_TS5)
      .map(
        (file) =>
          new Promise<[keyof typeof allCompilers, string, string]>((resolve) =>
            execFile(
              process.execPath,
              [tsc, "-p", join(dir, `${file === "openapi-fetch" ? "peer" : "ours"}.json`), "--pretty", "false"],
              { cwd: root, maxBuffer: 1 << 24 },
              (_, stdout) => resolve([compiler as keyof typeof allCompilers, file, stdout]),
            ),
          ),
      ),
  ),
);
if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
else console.log(dir);

const test = suite("the compilers' errors for wrong calls");

test("the README's `// error` lines are found, and call what the header defines as the README does", () => {
  assert.ok(claims.length >= 5, `${claims.length} claims`);
  const readme = readFileSync(join(root, "README.md"), "utf8");
  assert.ok(readme.includes('import type { paths } from "@octokit/openapi-types";'));
  assert.ok(readme.includes("const github = endpoint as OpenAPIEndpoint<paths>;"));
  for (const { call } of claims) assert.ok(/^(endpoint|github)\(/.test(call), call);
});

for (const [compiler, file, output] of outputs) {
  const { header: head, cases: list, claims: more } = files[file as keyof typeof files];
  const firstLine = head.split("\n").length;
  const diagnostics = parse(output);
  test(`${compiler}, ${file}: no error outside the calls`, () => {
    assert.equal(
      diagnostics.filter((d) => d.line < firstLine),
      [],
    );
  });
  list.forEach((expected, i) => {
    const line = firstLine + i;
    test(`${compiler}, ${file}: ${expected.says ? "one error" : "no error"} for ${expected.call}`, () => {
      const found = diagnostics.filter((d) => d.line === line);
      if (!expected.says) return assert.equal(found, []);
      assert.is(found.length, 1, `one error, not ${JSON.stringify(found, null, 2)}`);
      const [diagnostic] = found as [Diagnostic];
      assert.is(diagnostic.code, typeof expected.code === "number" ? expected.code : expected.code![compiler]);
      assert.is(diagnostic.column, expected.call.indexOf(expected.at!) + 1);
      const says = typeof expected.says === "string" ? expected.says : expected.says[compiler];
      assert.ok(matches(diagnostic.chain.at(-1)!, says), `${diagnostic.chain.at(-1)}\n  is not\n${says}`);
    });
  });
  more.forEach((expected, i) => {
    const line = firstLine + list.length + i;
    test(`${compiler}: the README's "${expected.says}" for ${expected.call.split(" //")[0]}`, () => {
      const found = diagnostics.filter((d) => d.line === line);
      assert.is(found.length, 1, `one error, not ${JSON.stringify(found, null, 2)}`);
      const [diagnostic] = found as [Diagnostic];
      if (expected.code) assert.is(diagnostic.code, expected.code);
      if (expected.column) assert.is(diagnostic.column, expected.column);
      const message = diagnostic.chain.join(" ");
      assert.ok(holds(message, expected.says), `${message}\n  does not say\n${expected.says}`);
    });
  });
}
test.run();
