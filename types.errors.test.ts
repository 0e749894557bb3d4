// What a TypeScript user sees for a wrong call through `OpenAPIEndpoint`: the compilers' own diagnostics
// (TypeScript 5 and 7, `tsc --pretty false`), for GitHub's description and, through withOpenAPI, the AI
// fixture's clashing body names. Each wrong call must give exactly one error, on the options argument or on
// the wrong property, naming what is wrong; right calls none.

import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";

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
   * compared up to where it goes on to print the whole options type.
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
    code: 2345,
    at: "{ model",
    says: {
      "TypeScript 5": `Type '"rlhf"' is not assignable to type '"supervised" | "dpo"'.`,
      "TypeScript 7": `Type '"rlhf"' is not assignable to type '"dpo" | "supervised"'.`,
    },
  },
  // A required body property that clashes is required as "body:<name>".
  {
    call: `ai("POST /webhooks/{webhook_id}", { webhook_id: "w", events: ["done"] });`,
    code: 2345,
    at: "{ webhook_id",
    says: `Property '"body:url"' is missing in type '{ webhook_id: string; events: string[]; }'`,
  },
  // Right calls: no error.
  {
    call: `github("POST /repos/{owner}/{repo}/issues", { owner: "octocat", repo: "hello-world", title: "Found a bug", labels: ["bug"] });`,
  },
  { call: `repo("GET /repos/{owner}/{repo}/issues", { per_page: 5, state: "open" });` },
  {
    call: `github("GET /repos/{owner}/{repo}/contents/{path}", { owner: "vercel", repo: "next.js", path: "docs/README.md", ref: "v1.2.3" });`,
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
    code: { "TypeScript 5": 2345, "TypeScript 7": 2741 },
    at: "{ owner",
    says: `Property 'repo' is missing in type '{ owner: string; state: "open"; }'`,
  },
  {
    call: `repo("GET /repos/{owner}/{repo}/issues/{issue_number}", { state: "open" });`,
    code: { "TypeScript 5": 2345, "TypeScript 7": 2741 },
    at: "{ state",
    says: "Property 'issue_number' is missing in type '{ state: string; }'",
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
    code: 2345,
    at: "{ title",
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

// Inside the repository, so that GitHub's types are found in its node_modules.
mkdirSync(join(root, "node_modules", ".cache"), { recursive: true });
const dir = mkdtempSync(join(root, "node_modules", ".cache", "errors-"));
const source = header + cases.map((c) => c.call).join("\n") + "\n";
const firstLine = header.split("\n").length;
writeFileSync(join(dir, "calls.ts"), source);
const compilerOptions = {
  strict: true,
  noEmit: true,
  target: "es2022",
  module: "nodenext",
  moduleResolution: "nodenext",
  types: [],
  skipLibCheck: true,
  allowImportingTsExtensions: true,
};
writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["calls.ts"] }));

const outputs = Object.fromEntries(
  await Promise.all(
    Object.entries(compilers).map(
      ([name, tsc]) =>
        new Promise<[string, string]>((resolve) =>
          execFile(process.execPath, [tsc, "-p", dir, "--pretty", "false"], { cwd: root }, (_, stdout) =>
            resolve([name, stdout]),
          ),
        ),
    ),
  ),
);
rmSync(dir, { recursive: true, force: true });

const test = suite("OpenAPIEndpoint: the compiler's errors for wrong calls");
for (const [name, output] of Object.entries(outputs) as [keyof typeof allCompilers, string][]) {
  const diagnostics = parse(output);
  test(`${name}: no error outside the calls`, () => {
    assert.equal(
      diagnostics.filter((d) => d.line < firstLine),
      [],
    );
  });
  cases.forEach((expected, i) => {
    const line = firstLine + i;
    test(`${name}: ${expected.says ? "one error" : "no error"} for ${expected.call}`, () => {
      const found = diagnostics.filter((d) => d.line === line);
      if (!expected.says) return assert.equal(found, []);
      assert.is(found.length, 1, `one error, not ${JSON.stringify(found, null, 2)}`);
      const [diagnostic] = found as [Diagnostic];
      assert.is(diagnostic.code, typeof expected.code === "number" ? expected.code : expected.code![name]);
      assert.is(diagnostic.column, expected.call.indexOf(expected.at!) + 1);
      const last = diagnostic.chain.at(-1)!;
      const says = typeof expected.says === "string" ? expected.says : expected.says[name];
      assert.is(/ is missing in type /.test(says) ? last.slice(0, last.indexOf(" but required in type ")) : last, says);
    });
  });
}
test.run();
