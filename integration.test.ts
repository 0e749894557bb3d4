// Every way in, tried the way its users meet it: the package as `npm pack` publishes it, installed into
// a fresh project (ESM, CommonJS, TypeScript consumers, publint, arethetypeswrong); the CDN bundles
// imported by URL from a page in headless Chromium; `endpoint.ts` vendored alone; Deno and Bun.
// The README's channel snippets are run as written (marked `<!-- run: name -->` there).

import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, extname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ACCEPT, TYPED_FIXTURES, UA } from "./fixtures/testkit.mjs";

const root = dirname(fileURLToPath(import.meta.url));
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const inCI = Boolean(process.env.CI) && process.env.CI !== "false";
const bin = (name: string) => join(root, "node_modules", ".bin", name);
/**
 * TypeScript 7's native compiler, run directly: its `bin/tsc` is a Node process that, before Node 22.15, stays
 * to wait on it (0.2 s of each run).
 */
const tsc7: string = (
  await import(pathToFileURL(join(root, "node_modules", "typescript7", "lib", "getExePath.js")).href)
).default();
/** TypeScript 5 runs in this process (see tsc5Project()); this names it where a compiler is chosen. */
const tsc5 = "TypeScript 5";
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** What fixtures/scenario.mjs must return in every channel and runtime. */
const EXPECTED = {
  get: {
    method: "get",
    url: "https://api.github.com/repos/octo%20cat/hello/issues?state=open&labels=bug%2Cui&per_page=2",
    headers: { accept: ACCEPT, "user-agent": UA },
  },
  post: {
    method: "post",
    url: "https://api.github.com/repos/octocat/hello/issues",
    headers: {
      accept: "application/vnd.github.v3+json",
      "user-agent": UA,
      "content-type": "application/json; charset=utf-8",
    },
    body: { title: "Bug", labels: ["bug"] },
  },
  defaults: {
    method: "get",
    url: "https://ghe.example.com/api/v3/orgs/acme/repos?type=private",
    headers: { accept: ACCEPT, "user-agent": UA, authorization: "token secret" },
  },
  upload: {
    method: "post",
    url: "https://uploads.github.com/repos/o/r/releases/1/assets?name=a%20b.zip&label=%C3%BC",
    headers: { accept: ACCEPT, "user-agent": UA, "content-type": "application/zip" },
    body: "bytes",
  },
  diff: {
    method: "get",
    url: "https://api.github.com/repos/o/r/pulls/7",
    headers: { accept: "application/vnd.github.v3.diff", "user-agent": UA },
  },
  template: "/search?q=a%20b&page=2#x/y",
  badHeader: 'TypeError: endpoint-options: header "bad header" is not a token',
};

// ---------------------------------------------------------------------------------------------------
// Helpers

interface Output {
  stdout: string;
  stderr: string;
}

/** Run a program; on failure, throw with everything it printed so the test report explains itself. */
function sh(file: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Output> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { cwd, env: { ...process.env, NO_COLOR: "1", ...env }, timeout: 180_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`${file} ${args.join(" ")} (in ${cwd}) failed: ${error.message}\n${stdout}\n${stderr}`));
        } else resolve({ stdout, stderr });
      },
    );
  });
}
const node = (args: string[], cwd: string) => sh(process.execPath, args, cwd);

// INTEGRATION_GROUP: which groups to run (comma-separated; default all, in order): `pack` (the set-up
// below), `npm`, `cdn`, `vendored`, `clients`, `deno`, `bun`. The groups need nothing of each other but the
// installed package, so `npm test` packs once and runs the rest side by side in INTEGRATION_WORK, a folder it
// made and removes; without it this process makes its own and removes it when its last group is done.
const groups = (process.env.INTEGRATION_GROUP ?? "pack,npm,cdn,vendored,clients,deno,bun").split(",");
/** TypeScript 5, loaded only by the groups that compile with it: loading it is a second of each process's start. */
const ts5: typeof import("typescript") =
  groups.includes("npm") || groups.includes("vendored") ? (await import("typescript")).default : (undefined as never);
/** Source files TypeScript 5 has parsed in this process, by path, modification time and parse options. */
const parsed = new Map<string, import("typescript").SourceFile>();

/**
 * `tsc -p project` with TypeScript 5, in this process: every file (the lib files, GitHub's 10 MB of types) is
 * parsed once for all the compiles of a run, which would otherwise each start a compiler and parse them anew.
 * Rejects with the compiler's messages.
 */
async function tsc5Project(project: string, cwd: string, noEmit = false): Promise<void> {
  const configPath = join(cwd, project, project.endsWith(".json") ? "" : "tsconfig.json");
  const { config, error } = ts5.readConfigFile(configPath, ts5.sys.readFile);
  const { options, fileNames, errors } = ts5.parseJsonConfigFileContent(config, ts5.sys, cwd, undefined, configPath);
  if (noEmit) options.noEmit = true;
  const host = ts5.createCompilerHost(options);
  const read = host.getSourceFile;
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const key = JSON.stringify([fileName, existsSync(fileName) && statSync(fileName).mtimeMs, languageVersion]);
    let file = parsed.get(key);
    if (!file) {
      file = read(fileName, languageVersion, ...rest);
      if (file) parsed.set(key, file);
    }
    return file;
  };
  const program = ts5.createProgram({ rootNames: fileNames, options, host });
  const emitted = program.emit();
  const diagnostics = [
    ...(error ? [error] : []),
    ...errors,
    ...ts5.getPreEmitDiagnostics(program),
    ...emitted.diagnostics,
  ];
  if (diagnostics.length) {
    throw new Error(
      `TypeScript 5 on ${configPath}:\n` +
        ts5.formatDiagnostics(diagnostics, {
          getCanonicalFileName: (name) => name,
          getCurrentDirectory: () => cwd,
          getNewLine: () => "\n",
        }),
    );
  }
}

/** One compiler on a project: TypeScript 7's command line, or TypeScript 5 in this process. */
const compile = (tsc: string, project: string, cwd: string, noEmit = false) =>
  tsc === tsc5 ? tsc5Project(project, cwd, noEmit) : sh(tsc, ["-p", project, ...(noEmit ? ["--noEmit"] : [])], cwd);

/**
 * A runtime or browser that is not installed: a failure in CI (where .ci/run installs everything),
 * a loud skip on a developer's machine.
 */
function present(what: string, path: string): boolean {
  if (existsSync(path)) return true;
  if (inCI) throw new Error(`${what} is missing at ${path}; CI must install it (see .ci/run)`);
  console.warn(`\n  !!! SKIPPED: ${what} is not installed at ${path}; CI runs this test. !!!\n`);
  return false;
}

/** The README's code blocks marked `<!-- run: name -->`, by name. */
function readmeSnippets(): Map<string, string> {
  const lines = readFileSync(join(root, "README.md"), "utf8").split("\n");
  const snippets = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line.startsWith("<!-- run: ")) continue;
    const name = line.slice("<!-- run: ".length, -" -->".length);
    if (!lines[i + 1]!.startsWith("```")) throw new Error(`README: no code block after ${line}`);
    const end = lines.indexOf("```", i + 2);
    snippets.set(name, lines.slice(i + 2, end).join("\n") + "\n");
    i = end;
  }
  return snippets;
}

/** A snippet's promised output: the text after `// → `, each line of it that has one. */
function promised(snippet: string): string {
  const lines = snippet
    .split("\n")
    .map((line) => line.trimStart())
    .filter((line) => line.startsWith("// → "))
    .map((line) => line.slice("// → ".length));
  if (!lines.length) throw new Error("snippet has no `// → ` line");
  return lines.join("\n");
}

/**
 * The fixtures whose `paths` openapi-typescript generates (`npm run paths`) for types.openapi.test.ts: the 2.0
 * petstore's through swagger2openapi.
 */
const PATHS = [...TYPED_FIXTURES, "swagger-petstore"];

/** Those paths files, by the name they have beside the type tests. */
const pathsFiles = () =>
  Object.fromEntries(
    PATHS.map((name) => [`${name}.paths.ts`, readFileSync(join(root, "fixtures", `${name}.paths.ts`), "utf8")]),
  );

/** types.openapi.test.ts importing `library`, and the generated paths from beside it. */
function openapiTypeTests(library: string): string {
  let text = readFileSync(join(root, "types.openapi.test.ts"), "utf8");
  assert.ok(text.includes('from "./endpoint.ts"'));
  for (const name of PATHS) {
    assert.ok(text.includes(`from "./fixtures/${name}.paths.ts"`));
    text = text.replace(`from "./fixtures/${name}.paths.ts"`, `from "./${name}.paths.ts"`);
  }
  return text.replace('from "./endpoint.ts"', `from "${library}"`);
}

/**
 * Declaration files that are not ours (TypeScript's libs, @types, GitHub's 10 MB of types) are not checked
 * where a test compiles our source, or calls into declaration files the consumers test checks: checking them
 * was most of each compile's time and tests nothing of ours. What our code does with them is still checked.
 */
const notOurs = { skipLibCheck: true };

/** Compiler options for those tests outside the repository: GitHub's types are found in its node_modules. */
const openapiCompilerOptions = {
  ...notOurs,
  strict: true,
  noEmit: true,
  target: "es2022",
  types: [],
  allowImportingTsExtensions: true,
  paths: { "@octokit/openapi-types": [join(root, "node_modules", "@octokit", "openapi-types", "types.d.ts")] },
};

/**
 * What the editor tests open: each file's text, by name, beside the vendored endpoint.ts. One language service
 * serves them all, as an editor's does a project: GitHub's types are read and checked once.
 */
const EDITOR_FILES = {
  "routes.ts":
    'import type { paths } from "@octokit/openapi-types";\nimport { endpoint, type OpenAPIEndpoint } from "./endpoint.ts";\n(endpoint as OpenAPIEndpoint<paths>)("");\n',
  "hover.ts":
    'import type { paths } from "@octokit/openapi-types";\nimport { endpoint, type OpenAPIEndpoint } from "./endpoint.ts";\nconst github = (endpoint as OpenAPIEndpoint<paths>).defaults({ owner: "octocat" });\ngithub("POST /repos/{owner}/{repo}/issues", { repo: "hello-world", title: "Found a bug" });\n',
  "literal.ts":
    'import { endpoint } from "./endpoint.ts";\nendpoint("GET /repos/{owner}/{repo}/issues/{issue_number}", { re });\n',
};
let languageService: import("typescript").LanguageService | undefined;
let editorDir = "";

/** TypeScript 5's language service over EDITOR_FILES, as an editor runs it; made on first use. */
function editor(): import("typescript").LanguageService {
  if (languageService) return languageService;
  const ts = ts5;
  editorDir = vendorInto("editor", EDITOR_FILES);
  const options = {
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    types: [],
    paths: openapiCompilerOptions.paths,
  };
  languageService = ts.createLanguageService({
    getCompilationSettings: () => options,
    getScriptFileNames: () => Object.keys(EDITOR_FILES).map((file) => join(editorDir, file)),
    getScriptVersion: () => "1",
    getScriptSnapshot: (file) =>
      existsSync(file) ? ts.ScriptSnapshot.fromString(readFileSync(file, "utf8")) : undefined,
    getCurrentDirectory: () => editorDir,
    getDefaultLibFileName: (settings) => ts.getDefaultLibFilePath(settings),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
  });
  return languageService;
}

/** What an editor offers in `file` of EDITOR_FILES at the end of the first `before` in it. */
function completions(file: keyof typeof EDITOR_FILES, before: string): string[] {
  const at = EDITOR_FILES[file].indexOf(before) + before.length;
  return (
    editor()
      .getCompletionsAtPosition(join(editorDir, file), at, {})
      ?.entries.map((entry) => entry.name) ?? []
  );
}

/** What an editor shows on hovering inside the first `text` in `file` of EDITOR_FILES, as text. */
function hover(file: keyof typeof EDITOR_FILES, text: string): string {
  const at = EDITOR_FILES[file].indexOf(text) + 1;
  return ts5.displayPartsToString(editor().getQuickInfoAtPosition(join(editorDir, file), at)?.displayParts ?? []);
}

/** A new folder under the work folder holding the published endpoint.ts, as a vendoring user copies it, and `files`. */
function vendorInto(name: string, files: Record<string, string> = {}): string {
  const dir = join(work, name);
  mkdirSync(dir);
  cpSync(join(installed, "endpoint.ts"), join(dir, "endpoint.ts"));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

/** A runner module that prints scenario(library) as JSON. */
function scenarioRunner(dir: string, file: string, library: string): string {
  const scenario = join(dir, "scenario.mjs");
  cpSync(join(root, "fixtures", "scenario.mjs"), scenario);
  const path = join(dir, file);
  writeFileSync(
    path,
    `import * as library from ${JSON.stringify(library)};\n` +
      `import scenario from "./scenario.mjs";\n` +
      `console.log(JSON.stringify(scenario(library)));\n`,
  );
  return path;
}

// ---------------------------------------------------------------------------------------------------
// Set-up: pack, then install the tarball into a fresh project, as a user's `npm install` would.

// INTEGRATION_WORK: see INTEGRATION_GROUP above.
const ownWork = !process.env.INTEGRATION_WORK;
const work = process.env.INTEGRATION_WORK ?? mkdtempSync(join(tmpdir(), "endpoint-options-"));
const app = join(work, "app");
const installed = join(app, "node_modules", "endpoint-options");
const tarball = join(work, `endpoint-options-${version}.tgz`);
const snippets = readmeSnippets();
let browser: import("playwright-core").Browser | undefined;

/** The browser, started once per process, for the CDN page and the Chromium client. */
async function chromium(): Promise<import("playwright-core").Browser> {
  const { chromium: launcher } = await import("playwright-core");
  browser ??= await launcher.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  return browser;
}

/** Run `group`'s suite when it is selected; after the last one, close the browser and remove the work folder. */
function runGroup(group: string, tests: ReturnType<typeof suite>): void {
  if (!groups.includes(group)) return;
  if (group === groups.at(-1)) {
    tests.after(async () => {
      await browser?.close();
      if (ownWork) rmSync(work, { recursive: true, force: true });
    });
  }
  tests.run();
}

const pack = suite("npm pack");

// The set-up is a test of its own: a throw in a uvu hook would not fail the run.
pack("npm pack, then npm install of the tarball into a fresh project, offline", async () => {
  // The `prepare` script (the build) is not run again: `npm install` ran it, and `npm test` builds first.
  // Run here, it would rewrite dist/ while other suites read it.
  const packed = await sh("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], root);
  const json = packed.stdout.slice(packed.stdout.indexOf("[\n"));
  assert.is(join(work, JSON.parse(json)[0].filename), tarball);
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  // --offline: a package with no dependencies installs without the registry.
  await sh("npm", ["install", "--offline", "--no-audit", "--no-fund", tarball], app);
  assert.ok(existsSync(join(installed, "package.json")));
});
runGroup("pack", pack);

const npm = suite("npm install");

npm("the tarball holds the builds, types, source, README and LICENSE, and nothing else", () => {
  const files = (dir: string, prefix = ""): string[] =>
    readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(dir, prefix + entry.name + "/") : [prefix + entry.name],
    );
  assert.equal(files(installed).sort(), [
    "LICENSE",
    "README.md",
    "dist/endpoint.cjs",
    "dist/endpoint.d.cts",
    "dist/endpoint.d.mts",
    "dist/endpoint.min.js",
    "dist/endpoint.mjs",
    "dist/endpoint.openapi.min.js",
    "endpoint.ts",
    "package.json",
  ]);
});

npm("zero runtime dependencies: none declared, none installed, none imported by the builds", () => {
  const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
  for (const field of ["dependencies", "optionalDependencies", "peerDependencies", "bundleDependencies"]) {
    assert.is(manifest[field], undefined, field);
  }
  assert.equal(
    readdirSync(join(app, "node_modules")).filter((name) => name !== ".package-lock.json"),
    ["endpoint-options"],
  );
  for (const build of ["endpoint.mjs", "endpoint.cjs", "endpoint.min.js", "endpoint.openapi.min.js"]) {
    const code = readFileSync(join(installed, "dist", build), "utf8");
    // esbuild puts a bundle's remaining imports at the start of a line; there must be none.
    const imports = code.split("\n").filter((line) => line.startsWith("import ") || line.startsWith("import{"));
    assert.equal(imports, [], `${build} imports a module`);
    assert.not.ok(code.includes("require(") || code.includes("import("), `${build} loads a module`);
  }
});

npm("import and require both work and build identical requests", async () => {
  const viaImport = scenarioRunner(app, "via-import.mjs", "endpoint-options");
  const viaRequire = join(app, "via-require.cjs");
  writeFileSync(
    viaRequire,
    `const library = require("endpoint-options");\n` +
      `import("./scenario.mjs").then(({ default: scenario }) => console.log(JSON.stringify(scenario(library))));\n`,
  );
  const [esm, cjs] = await Promise.all([node([viaImport], app), node([viaRequire], app)]);
  assert.equal(JSON.parse(esm.stdout), EXPECTED);
  assert.equal(JSON.parse(cjs.stdout), EXPECTED);
});

npm("the README's import and require snippets print what they promise", async () => {
  const esm = snippets.get("npm-import")!;
  const cjs = snippets.get("npm-require")!;
  assert.ok(esm.includes('from "endpoint-options"') && cjs.includes('require("endpoint-options")'));
  writeFileSync(join(app, "readme-import.mjs"), esm);
  writeFileSync(join(app, "readme-require.cjs"), cjs);
  const [a, b] = await Promise.all([node(["readme-import.mjs"], app), node(["readme-require.cjs"], app)]);
  assert.is(a.stdout.trim(), promised(esm));
  assert.is(b.stdout.trim(), promised(cjs));
});

npm("the README's examples (`<!-- run: example-… -->`) print what they promise", async () => {
  const examples = [...snippets].filter(([name]) => name.startsWith("example-"));
  assert.ok(examples.length >= 2, "the README has its examples");
  for (const [name, snippet] of examples) {
    writeFileSync(join(app, `readme-${name}.mjs`), snippet);
    const { stdout } = await node([`readme-${name}.mjs`], app);
    assert.is(stdout.trim(), promised(snippet), name);
  }
});

// A consumer whose every line must type-check, and whose @ts-expect-error lines must not: were the
// types missing or `any`, the strict build or the unused @ts-expect-error would fail.
const consumerBody = `
const request = endpoint("POST /repos/{owner}/{repo}/issues", { owner: "o", repo: "r", title: "t" });
const method: string = request.method;
const url: string = request.url;
const accept: string | number | undefined = request.headers["accept"];
const merged = endpoint.merge("GET /users/{username}", { username: "octocat" });
const baseUrl: string = merged.baseUrl;
const enterprise = endpoint.defaults({ baseUrl: "https://ghe.example.com/api/v3" });
const expanded: string = parseTemplate("/search{?q}").expand({ q: "x" });
// @ts-expect-error a url is a string, not a number
const wrong: number = request.url;
// @ts-expect-error headers take strings and numbers
endpoint("GET /", { headers: { "x-flag": true } });
const sent: Promise<Response> = fetch(...toFetch(request));
const built: Request = new Request(...toFetch(request));
const [fetchUrl, init] = toFetch(request);
const upper: string = init.method;
const headerValue: string | undefined = init.headers["accept"];
export const used = [method, url, accept, baseUrl, enterprise, expanded, wrong, sent, built, fetchUrl, upper, headerValue];
`;

/** The consumers, ESM and CommonJS, and the route-aware type tests against the declaration files, in the app. */
function writeConsumers(): void {
  writeFileSync(
    join(app, "consumer.ts"),
    `import { endpoint, parseTemplate, toFetch } from "endpoint-options";\n${consumerBody}`,
  );
  writeFileSync(
    join(app, "consumer.cts"),
    `import library = require("endpoint-options");\nconst { endpoint, parseTemplate, toFetch } = library;\n${consumerBody}`,
  );
  const typeTests = readFileSync(join(root, "types.test.ts"), "utf8");
  assert.ok(typeTests.includes('from "./endpoint.ts"'));
  writeFileSync(join(app, "types.test.ts"), typeTests.replace('from "./endpoint.ts"', 'from "endpoint-options"'));
}

/** Compiler options of a consumer under `--strict`: our declaration files are checked, TypeScript's libs are not. */
const consumerOptions = (module: string, moduleResolution: string) => ({
  strict: true,
  noEmit: true,
  target: "es2022",
  module,
  moduleResolution,
  types: [],
  skipDefaultLibCheck: true,
});

npm("TypeScript consumers compile under --strict with every module resolution of TypeScript 7", async () => {
  writeConsumers();
  const configs: Array<[string, string, string[]]> = [
    ["nodenext", "nodenext", ["consumer.ts", "consumer.cts", "types.test.ts"]],
    ["node16", "node16", ["consumer.ts", "consumer.cts", "types.test.ts"]],
    ["esnext", "bundler", ["consumer.ts", "types.test.ts"]],
  ];
  const builds = configs.map(([module, moduleResolution, files]) => {
    const tsconfig = `tsconfig.ts7.${moduleResolution}.json`;
    writeFileSync(
      join(app, tsconfig),
      JSON.stringify({ compilerOptions: consumerOptions(module, moduleResolution), files }),
    );
    return compile(tsc7, tsconfig, app);
  });
  await Promise.all(builds); // each rejects with the compiler's messages
});

/** OpenAPIEndpoint's type tests against the declaration files, and the paths they read, in the app. */
function writeOpenapiTypeTests(): void {
  writeFileSync(join(app, "types.openapi.test.ts"), openapiTypeTests("endpoint-options"));
  for (const [file, text] of Object.entries(pathsFiles())) writeFileSync(join(app, file), text);
}

npm("OpenAPIEndpoint's type tests pass against the declaration files (TypeScript 7)", async () => {
  writeOpenapiTypeTests();
  const compilerOptions = { ...openapiCompilerOptions, module: "nodenext", moduleResolution: "nodenext" };
  writeFileSync(
    join(app, "tsconfig.openapi.json"),
    JSON.stringify({ compilerOptions, files: ["types.openapi.test.ts"] }),
  );
  await compile(tsc7, "tsconfig.openapi.json", app);
});

npm(
  "the README's typed fetch recipe compiles (TypeScript 7) and prints what it promises, sent to a local server",
  async () => {
    const snippet = snippets.get("typed-fetch")!;
    writeTypedFetch();
    const compilerOptions = {
      ...openapiCompilerOptions,
      allowImportingTsExtensions: false,
      noEmit: false,
      module: "nodenext",
      moduleResolution: "nodenext",
      outDir: "typed-fetch",
    };
    writeFileSync(
      join(app, "tsconfig.typed-fetch.json"),
      JSON.stringify({ compilerOptions, files: ["typed-fetch.ts"] }),
    );
    await compile(tsc7, "tsconfig.typed-fetch.json", app);
    const { stdout, seen } = await sendToLocal(
      "typed-fetch/typed-fetch.js",
      "https://api.github.com",
      (request) => `${request.method} ${request.url} ${request.headers.accept}`,
      { full_name: "octocat/hello-world", private: false },
    );
    assert.is(stdout.trim(), promised(snippet));
    assert.equal(seen, ["GET /repos/octocat/hello-world application/vnd.github.v3+json"]);
  },
);

/** The README's typed fetch recipe, in the app. */
const writeTypedFetch = () => writeFileSync(join(app, "typed-fetch.ts"), snippets.get("typed-fetch")!);

/** The README's petstore example, its paths and its description, in the app. */
function writePetstore(): void {
  writeFileSync(join(app, "petstore-example.ts"), snippets.get("petstore")!);
  // Named as the README names it: a file of its own, beside the example's (`petstore.d.ts` beside `petstore.ts`
  // would be the script's own declarations: TS2459).
  writeFileSync(join(app, "petstore-paths.d.ts"), readFileSync(join(root, "fixtures", "petstore.paths.ts"), "utf8"));
  cpSync(
    join(root, "node_modules", "@readme", "oas-examples", "3.0", "json", "petstore.json"),
    join(app, "petstore.json"),
  );
}

/**
 * Run `script` (compiled, in the app) with its `fetch` sent to a server on loopback instead of `apiOrigin`, a
 * stand-in for the real API that answers `answer` as JSON. Returns what it printed and, for each request the
 * server saw, `summarize(request)`.
 */
async function sendToLocal(
  script: string,
  apiOrigin: string,
  summarize: (request: IncomingMessage) => string,
  answer: unknown,
) {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(summarize(request));
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const local = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  writeFileSync(
    join(app, "local.mjs"),
    `const send = globalThis.fetch;\nglobalThis.fetch = (url, init) => send(url.replace(${JSON.stringify(apiOrigin)}, ${JSON.stringify(local)}), init);\n`,
  );
  try {
    const { stdout } = await node(["--import", "./local.mjs", script], app);
    return { stdout, seen };
  } finally {
    server.close();
  }
}

npm(
  "the README's petstore example compiles (TypeScript 7) and prints what it promises, sent to a local server",
  async () => {
    const snippet = snippets.get("petstore")!;
    writePetstore();
    const compilerOptions = {
      ...notOurs,
      strict: true,
      target: "es2022",
      types: ["node"],
      typeRoots: [join(root, "node_modules", "@types")],
      module: "nodenext",
      moduleResolution: "nodenext",
      outDir: "petstore-out",
    };
    writeFileSync(
      join(app, "tsconfig.petstore.json"),
      JSON.stringify({ compilerOptions, files: ["petstore-example.ts"] }),
    );
    await compile(tsc7, "tsconfig.petstore.json", app);
    // Nothing configured: the host is the description's server.
    const { stdout, seen } = await sendToLocal(
      "petstore-out/petstore-example.js",
      "http://petstore.swagger.io",
      (request) =>
        `${request.method} ${request.url} api_key=${request.headers.api_key} ${request.headers.authorization}`,
      {},
    );
    assert.is(stdout.trim(), promised(snippet));
    assert.equal(seen, ["DELETE /v2/pet/10 api_key=special-key Bearer t0k3n"]);
  },
);

// TypeScript 7 checks each of them above, and every module resolution; TypeScript 5, on which most users still
// are, proves them together: one program, which reads GitHub's types and the lib files once.
npm(
  "TypeScript 5 compiles the consumers, both type tests, toFetch()'s types and the README's typed recipes as one --strict program, and the consumers with node10 (which 7 removed)",
  async () => {
    writeConsumers();
    writeOpenapiTypeTests();
    writeTypedFetch();
    writePetstore();
    // toFetch()'s result with fetch and new Request under DOM and @types/node together, the richest environment.
    const fetchTypes = readFileSync(join(root, "fixtures", "fetch-types.ts"), "utf8");
    assert.ok(fetchTypes.includes('from "./endpoint.ts"'));
    writeFileSync(join(app, "fetch-types.ts"), fetchTypes.replace('from "./endpoint.ts"', 'from "endpoint-options"'));
    const compilerOptions = {
      ...openapiCompilerOptions,
      module: "nodenext",
      moduleResolution: "nodenext",
      types: ["node"],
      typeRoots: [join(root, "node_modules", "@types")],
    };
    const files = ["consumer.ts", "consumer.cts", "types.test.ts", "types.openapi.test.ts", "typed-fetch.ts"];
    writeFileSync(
      join(app, "tsconfig.ts5.json"),
      JSON.stringify({ compilerOptions, files: [...files, "fetch-types.ts", "petstore-example.ts"] }),
    );
    // With no @types, and our declaration file itself checked (skipLibCheck is off; the .d.mts is the same text),
    // as a consumer on node10 reads it.
    const node10 = consumerOptions("commonjs", "node10");
    writeFileSync(
      join(app, "tsconfig.ts5.node10.json"),
      JSON.stringify({ compilerOptions: node10, files: ["consumer.ts", "types.test.ts"] }),
    );
    await compile(tsc5, "tsconfig.ts5.json", app);
    await compile(tsc5, "tsconfig.ts5.node10.json", app);
  },
);

npm(
  "the types the README names are the declaration files' public exports; what they are built from is exported too",
  () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const sentence = readme.slice(
      readme.indexOf("`EndpointOptions`, `MergedOptions`"),
      readme.indexOf("## TypeScript"),
    );
    const named = [...sentence.matchAll(/`(\w+)`/g)].map((match) => match[1]!).sort();
    const declarations = readFileSync(join(installed, "dist", "endpoint.d.mts"), "utf8");
    // `export type X`, `export interface X`, and the names of an `export type { A, B }` list.
    const listed = [...declarations.matchAll(/^export type \{([^}]*)\}/gm)].flatMap((match) =>
      match[1]!
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean),
    );
    // The public types are exported where they are declared; the `export type { … }` list holds what they are
    // built from, which the README mentions as a whole (the API docs document each).
    const exported = [...declarations.matchAll(/^export (?:type|interface) (\w+)/gm)].map((match) => match[1]!).sort();
    assert.equal(named, exported);
    assert.ok(listed.length > 20, `${listed.length} building blocks exported`);
    assert.ok(sentence.includes("What they are built from is exported too"));
  },
);

npm("publint --strict finds nothing", async () => {
  const { stdout } = await sh(bin("publint"), ["run", "--strict", tarball], work);
  assert.ok(stdout.includes("All good!"), stdout);
});

npm("arethetypeswrong finds no problem in any resolution mode", async () => {
  // --pack makes attw run `npm pack` itself; this is the tarball that command produces.
  const { stdout } = await sh(bin("attw"), ["--format", "json", tarball], work);
  const report = JSON.parse(stdout);
  assert.equal(report.analysis.problems, []);
  const kinds = Object.keys(report.analysis.entrypoints["."].resolutions).sort();
  assert.equal(kinds, ["bundler", "node10", "node16-cjs", "node16-esm"]);
});

runGroup("npm", npm);

// ---------------------------------------------------------------------------------------------------
// CDN: a page served from 127.0.0.1 imports dist/endpoint.min.js (and dist/endpoint.openapi.min.js) by URL in
// headless Chromium.

const cdn = suite("CDN in Chromium");
let server: Server | undefined;
let origin = "";
/** Test pages by path. */
const pages = new Map<string, string>();
// A throw in a hook does not fail a uvu run, so the tests themselves report a missing Chromium.
cdn.before(async () => {
  if (!existsSync(chromiumPath)) return;
  const types: Record<string, string> = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".html": "text/html",
    ".json": "application/json",
  };
  server = createServer((request, response) => {
    const path = new URL(request.url!, "http://x").pathname;
    // Test pages by name; anything else from the installed package folder, as a CDN serves it.
    const body = pages.get(path) ?? (path.includes("..") ? undefined : readIfFile(join(installed, path)));
    if (body === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": types[extname(path)] ?? "text/plain" }).end(body);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const bundle = `${origin}/dist/endpoint.min.js`;
  const snippet = snippets.get("cdn")!;
  assert.ok(snippet.includes("https://cdn.jsdelivr.net/npm/endpoint-options@1/dist/endpoint.min.js"));
  assert.ok(snippet.includes("https://unpkg.com/endpoint-options@1/dist/endpoint.min.js"));
  const head = '<!doctype html>\n<link rel="icon" href="data:,">\n'; // no favicon request
  pages.set(
    "/readme.html",
    head + snippet.replaceAll("https://cdn.jsdelivr.net/npm/endpoint-options@1/dist/endpoint.min.js", bundle),
  );
  pages.set("/scenario.mjs", readFileSync(join(root, "fixtures", "scenario.mjs"), "utf8"));
  pages.set(
    "/scenario.html",
    `${head}<script type="module">\n` +
      `import * as library from "${bundle}";\nimport scenario from "/scenario.mjs";\n` +
      `window.result = JSON.stringify(scenario(library));\n</script>\n`,
  );
  await chromium();
});

cdn.after(() => void server?.close());

function readIfFile(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Open a page; collect its console lines, errors and every URL it requested. */
async function visit(path: string) {
  const page = await browser!.newPage();
  const log: string[] = [];
  const errors: string[] = [];
  const requested: string[] = [];
  page.on("console", (message) => log.push(message.text()));
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("requestfailed", (request) => errors.push(`${request.url()} failed`));
  page.on("request", (request) => void (request.url().startsWith("http") && requested.push(request.url())));
  await page.goto(origin + path, { waitUntil: "load" });
  return { page, log, errors, requested };
}

cdn("the README's CDN snippet, pointed at the local copy, prints what it promises", async () => {
  if (!present("Chromium", chromiumPath)) return;
  const { page, log, errors, requested } = await visit("/readme.html");
  await page.waitForFunction(() => document.readyState === "complete");
  await page.close();
  assert.equal(errors, []);
  assert.equal(log, [promised(snippets.get("cdn")!)]);
  assert.equal(requested, [`${origin}/readme.html`, `${origin}/dist/endpoint.min.js`]);
});

cdn("the minified bundle builds every scenario request exactly", async () => {
  if (!present("Chromium", chromiumPath)) return;
  const { page, errors } = await visit("/scenario.html");
  const result = await page.waitForFunction(() => (window as unknown as { result?: string }).result);
  const json = (await result.jsonValue()) as string;
  await page.close();
  assert.equal(errors, []);
  assert.equal(JSON.parse(json), EXPECTED);
});

cdn("dist/endpoint.openapi.min.js, loaded the same way, has every export and builds through withOpenAPI", async () => {
  if (!present("Chromium", chromiumPath)) return;
  const module = `${origin}/dist/endpoint.openapi.min.js`;
  // A tiny description: a path parameter, and a list in the query, which OpenAPI's default style repeats.
  const description = {
    servers: [{ url: "https://pets.example/v1" }],
    paths: {
      "/pets/{petId}": {
        get: {
          parameters: [
            { name: "petId", in: "path", required: true, schema: { type: "string" } },
            { name: "tags", in: "query", schema: { type: "array", items: { type: "string" } } },
          ],
        },
      },
    },
  };
  pages.set(
    "/openapi.html",
    `<!doctype html>\n<link rel="icon" href="data:,">\n<script type="module">\n` +
      `import * as library from "${module}";\nimport scenario from "/scenario.mjs";\n` +
      `const pets = library.withOpenAPI(library.endpoint, ${JSON.stringify(description)});\n` +
      `console.log(Object.keys(library).sort().join());\n` +
      `console.log(pets("GET /pets/{petId}", { petId: "a b", tags: ["x", "y"] }).url);\n` +
      `window.result = JSON.stringify(scenario(library));\n</script>\n`,
  );
  const { page, log, errors, requested } = await visit("/openapi.html");
  const result = await page.waitForFunction(() => (window as unknown as { result?: string }).result);
  const json = (await result.jsonValue()) as string;
  await page.close();
  assert.equal(errors, []);
  // Every runtime export of endpoint.ts, as the ESM build has them.
  const exports = Object.keys(await import(join(installed, "dist", "endpoint.mjs"))).sort();
  assert.equal(log, [exports.join(), "https://pets.example/v1/pets/a%20b?tags=x&tags=y"]);
  assert.equal(JSON.parse(json), EXPECTED);
  assert.equal(requested.sort(), [module, `${origin}/openapi.html`, `${origin}/scenario.mjs`]);
});

cdn(
  "the README's browser recipe: a build step reduces the description, and the page builds from it what Node builds from the whole one",
  async () => {
    if (!present("Chromium", chromiumPath)) return;
    // The build step, in a folder of the app that has the package installed.
    const dir = join(app, "browser-recipe");
    mkdirSync(join(dir, "src"), { recursive: true });
    const whole = join(root, "node_modules", "@readme", "oas-examples", "3.0", "json", "petstore.json");
    cpSync(whole, join(dir, "openapi.json"));
    writeFileSync(join(dir, "reduce-openapi.mjs"), snippets.get("reduce")!);
    await node(["reduce-openapi.mjs"], dir);
    const reduced = readFileSync(join(dir, "src", "api.json"), "utf8");
    assert.ok(reduced.length * 4 < statSync(whole).size, `${reduced.length} B reduced`);
    // The app, as the README writes it, with the package's ESM build behind an import map.
    const recipe = snippets.get("browser-app")!;
    pages.set("/recipe/api.json", reduced);
    pages.set("/recipe/pets.js", recipe);
    const importMap = JSON.stringify({ imports: { "endpoint-options": "/dist/endpoint.mjs" } });
    pages.set(
      "/recipe/index.html",
      `<!doctype html>\n<link rel="icon" href="data:,">\n<script type="importmap">${importMap}</script>\n<script type="module" src="/recipe/pets.js"></script>\n`,
    );
    const { page, log, errors, requested } = await visit("/recipe/index.html");
    await page.waitForFunction(() => document.readyState === "complete");
    await page.close();
    assert.equal(errors, []);
    assert.equal(log, [promised(recipe)]);
    assert.equal(requested.sort(), [
      `${origin}/dist/endpoint.mjs`,
      `${origin}/recipe/api.json`,
      `${origin}/recipe/index.html`,
      `${origin}/recipe/pets.js`,
    ]);
    // Node, from the whole description, builds the same.
    const { endpoint, withOpenAPI } = await import(join(installed, "dist", "endpoint.mjs"));
    assert.is(
      withOpenAPI(endpoint, JSON.parse(readFileSync(whole, "utf8"))).defaults({ "auth:petstore_auth": "t0k3n" })(
        "GET /pet/findByStatus",
        { status: ["sold"] },
      ).url,
      promised(recipe),
    );
  },
);

runGroup("cdn", cdn);

// ---------------------------------------------------------------------------------------------------
// Vendored: endpoint.ts copied alone into an empty folder.

const vendored = suite("vendored endpoint.ts");

vendored("endpoint.ts imports nothing: no import, export-from, require or import()", () => {
  const source = readFileSync(join(installed, "endpoint.ts"), "utf8");
  const loads = source
    .split("\n")
    .filter(
      (line) => /^\s*import\s/.test(line) || /^\s*export\s.*\sfrom\s/.test(line) || /\brequire\(|\bimport\(/.test(line),
    );
  assert.equal(loads, []);
});

vendored(
  "compiles alone under tsc --strict with no @types, with and without DOM (TypeScript 7), and runs",
  async () => {
    const vendor = vendorInto("vendored");
    const builds = [undefined, ["es2022"]].map(async (lib) => {
      const out = `out-ts7${lib ? "-nodom" : ""}`;
      const compilerOptions = {
        strict: true,
        types: [],
        target: "es2022",
        module: "esnext",
        moduleResolution: "bundler",
        outDir: out,
        skipDefaultLibCheck: true,
        ...(lib && { lib }),
      };
      writeFileSync(join(vendor, `tsconfig.${out}.json`), JSON.stringify({ compilerOptions, files: ["endpoint.ts"] }));
      await compile(tsc7, `tsconfig.${out}.json`, vendor);
      return out;
    });
    for (const out of await Promise.all(builds)) await runsTheScenario(join(vendor, out));
  },
);

/** The scenario, run on the vendored file as compiled into `out`, builds the expected requests. */
async function runsTheScenario(out: string): Promise<void> {
  writeFileSync(join(out, "package.json"), '{ "type": "module" }');
  const runner = scenarioRunner(out, "run.mjs", "./endpoint.js");
  assert.equal(JSON.parse((await node([runner], out)).stdout), EXPECTED, out);
}

// TypeScript 7 checks the type tests against the same endpoint.ts in npm test's type step; TypeScript 5 checks them
// here together, in one program that reads GitHub's types once, and toFetch()'s types in the npm group's.
vendored(
  "TypeScript 5 compiles the vendored file with both type tests as one --strict program with no @types, and its JavaScript runs",
  async () => {
    const dir = vendorInto("vendored-ts5", {
      "types.test.ts": readFileSync(join(root, "types.test.ts"), "utf8"),
      "types.openapi.test.ts": openapiTypeTests("./endpoint.ts"),
      ...pathsFiles(),
    });
    const compilerOptions = {
      ...openapiCompilerOptions,
      noEmit: false,
      allowImportingTsExtensions: false,
      // As a vendoring user's build does: `./endpoint.ts` imported by its name, emitted as `./endpoint.js`.
      rewriteRelativeImportExtensions: true,
      module: "esnext",
      moduleResolution: "bundler",
      lib: ["es2022", "dom"],
      types: [],
      outDir: "out-ts5",
    };
    const files = ["endpoint.ts", "types.test.ts", "types.openapi.test.ts"];
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files }));
    await compile(tsc5, ".", dir);
    await runsTheScenario(join(dir, "out-ts5"));
  },
);

vendored("editors complete every route of an OpenAPI description (TypeScript 5's language service)", () => {
  // Inside the empty route string.
  const completed = completions("routes.ts", '("').sort();
  // The oracle: every `"/path": {` of the generated file and each `method: operations[...]` under it.
  const routes: string[] = [];
  let path = "";
  for (const line of readFileSync(join(root, "node_modules", "@octokit", "openapi-types", "types.d.ts"), "utf8").split(
    "\n",
  )) {
    if (line === "}") break; // the end of `paths`
    if (line.startsWith('  "/') && line.endsWith('": {')) path = line.slice(3, -4);
    else if (path && /^ {4}(get|put|post|delete|options|head|patch|trace): operations\[/.test(line)) {
      routes.push(`${line.trim().split(":")[0]!.toUpperCase()} ${path}`);
    }
  }
  assert.ok(routes.length > 1000, `${routes.length} routes read`);
  assert.equal(completed, routes.sort());
});

vendored(
  "editors show an OpenAPI call's options by their property names, not as a type expression (TypeScript 5's language service)",
  () => {
    const shown = hover("hover.ts", 'github("POST');
    // The signature of the call, its options spelled out: the path parameter still required, the body's
    // properties, then the named options by their interface's name.
    for (const property of [
      'route: "POST /repos/{owner}/{repo}/issues"',
      "repo: ",
      "title: string | number;",
      "labels?: ",
      "} & CallOptions)",
    ]) {
      assert.ok(shown.includes(property), `${property} in:\n${shown}`);
    }
    assert.not.ok(/Omit<|Pick<|Defaulted<|Flatten<|OperationOptions<|BodyOptions</.test(shown), shown);
  },
);

vendored(
  "toFetch()'s result type-checks with fetch and new Request under DOM, @types/node and @types/bun (TypeScript 7; 5 in the npm group)",
  async () => {
    const dir = vendorInto("vendored-fetch-types", {
      "fetch-types.ts": readFileSync(join(root, "fixtures", "fetch-types.ts"), "utf8"),
    });
    const environments: Array<[string, string[], string[]]> = [
      ["dom", ["es2022", "dom"], []],
      ["node", ["es2022"], ["node"]],
      ["bun", ["es2022"], ["bun"]],
      ["node-dom", ["es2022", "dom"], ["node"]],
    ];
    const builds = [];
    for (const [environment, lib, types] of environments) {
      const compilerOptions = {
        ...notOurs,
        strict: true,
        noEmit: true,
        lib,
        types,
        typeRoots: [join(root, "node_modules", "@types")],
        target: "es2022",
        module: "esnext",
        moduleResolution: "bundler",
        allowImportingTsExtensions: true,
      };
      writeFileSync(
        join(dir, `tsconfig.${environment}.json`),
        JSON.stringify({ compilerOptions, files: ["fetch-types.ts"] }),
      );
      builds.push(compile(tsc7, `tsconfig.${environment}.json`, dir));
    }
    await Promise.all(builds);
  },
);

vendored(
  "editors complete a literal route's placeholders and the named options inside its object literal (TypeScript 5 language service)",
  () => {
    const names = completions("literal.ts", "{ re");
    for (const name of ["owner", "repo", "issue_number", "headers", "mediaType", "baseUrl", "data", "request"]) {
      assert.ok(names.includes(name), `${name} in ${names.join(", ")}`);
    }
  },
);

vendored("the README's vendored snippet prints what it promises, compiled by tsc and run by Node", async () => {
  const dir = vendorInto("vendored-tsc", {
    "main.ts": snippets.get("vendored")!,
    "package.json": '{ "type": "module" }',
  });
  const compilerOptions = {
    ...notOurs,
    strict: true,
    types: [],
    target: "es2022",
    module: "nodenext",
    rewriteRelativeImportExtensions: true,
    outDir: "out",
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["main.ts"] }));
  await sh(tsc7, ["-p", "."], dir);
  assert.is((await node(["out/main.js"], dir)).stdout.trim(), promised(snippets.get("vendored")!));
});

runGroup("vendored", vendored);

// ---------------------------------------------------------------------------------------------------
// Real clients: fixtures/requests.mjs sent with each README recipe to a recording server on loopback.

const clients = suite("real clients, end to end");
const recorded: Record<string, string | undefined>[] = [];
let api: Server | undefined;
let apiPort = 0;

interface Sent {
  method: string;
  path: string;
  contentType?: string;
  contentLength?: string;
  body?: string;
}
const utf8 = (text: string) => Buffer.from(text).toString("hex");
const json = "application/json; charset=utf-8";
const SENT: Sent[] = [
  { method: "GET", path: "/api/repos/octocat/hello-world/issues?state=open&labels=bug%2Cui" },
  { method: "HEAD", path: "/api/repos/octocat/hello-world" },
  {
    method: "POST",
    path: "/api/repos/octocat/hello-world/issues",
    contentType: json,
    body: utf8('{"title":"Found a bug","labels":["bug"]}'),
  },
  {
    method: "PATCH",
    path: "/api/repos/octocat/hello-world/issues/1",
    contentType: json,
    body: utf8('{"state":"closed"}'),
  },
  { method: "PUT", path: "/api/user/starred/octocat/hello-world", contentLength: "0" },
  { method: "DELETE", path: "/api/repos/octocat/hello-world/issues/comments/42" },
  {
    method: "POST",
    path: "/api/markdown/raw",
    contentType: "text/plain; charset=utf-8",
    body: utf8("Hello **world** ü"),
  },
  {
    method: "POST",
    path: "/api/repos/octocat/hello-world/releases/7/assets?name=notes%20v1.bin&label=Notes",
    contentType: "application/octet-stream",
    body: "000102feff",
  },
];

/** Request by request, so a failure shows the one request that differs. */
function assertSent(actual: Record<string, string | undefined>[], expected: ReturnType<typeof expectedSent>) {
  for (let i = 0; i < Math.max(actual.length, expected.length); i++) {
    assert.equal(actual[i], expected[i], `request ${i + 1} (${expected[i]?.method ?? "unexpected"})`);
  }
}

/** What the server must have seen, request by request, with this client's user-agent. */
function expectedSent(agent: string) {
  return SENT.map(({ method, path, contentType, contentLength, body = "" }) => ({
    method,
    path,
    accept: "application/vnd.github.v3+json",
    "user-agent": agent,
    authorization: "token secret-token",
    "content-type": contentType,
    "content-length": contentLength ?? (body ? String(body.length / 2) : undefined),
    body,
  }));
}

// The server answers the API under /api (with CORS, for the page on another origin) and serves the
// page, its modules and the installed package's files to Chromium.
clients.before(async () => {
  const files: Record<string, () => string | Buffer> = {
    "/page.html": () =>
      '<!doctype html>\n<link rel="icon" href="data:,">\n<script type="module" src="/page.mjs"></script>\n',
    "/page.mjs": () =>
      `import { endpoint } from "/dist/endpoint.min.js";\nimport { requests } from "/requests.mjs";\nimport { send } from "/send-fetch.mjs";\n` +
      `for (const options of requests(endpoint, "http://127.0.0.1:${apiPort}/api")) await (await send(options)).arrayBuffer();\n` +
      `window.done = navigator.userAgent;\n`,
    "/requests.mjs": () => readFileSync(join(root, "fixtures", "requests.mjs")),
    "/send-fetch.mjs": () => snippets.get("send-fetch")!.replace('"endpoint-options"', '"/dist/endpoint.min.js"'),
  };
  api = createServer((request, response) => {
    const path = request.url!;
    const cors = { "access-control-allow-origin": "*" };
    if (!path.startsWith("/api/")) {
      const body = files[path]?.() ?? readIfFile(join(installed, path.includes("..") ? "-" : path));
      if (body === undefined) return void response.writeHead(404, cors).end();
      return void response
        .writeHead(200, { ...cors, "content-type": extname(path) === ".html" ? "text/html" : "text/javascript" })
        .end(body);
    }
    if (request.method === "OPTIONS") {
      return void response
        .writeHead(204, {
          ...cors,
          "access-control-allow-methods": "GET, HEAD, POST, PUT, PATCH, DELETE",
          "access-control-allow-headers": request.headers["access-control-request-headers"] ?? "",
        })
        .end();
    }
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const header = (name: string) => request.headers[name] as string | undefined;
      recorded.push({
        method: request.method,
        path,
        accept: header("accept"),
        "user-agent": header("user-agent"),
        authorization: header("authorization"),
        "content-type": header("content-type"),
        "content-length": header("content-length"),
        body: Buffer.concat(chunks).toString("hex"),
      });
      response.writeHead(200, { ...cors, "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => api!.listen(0, "127.0.0.1", resolve));
  apiPort = (api.address() as AddressInfo).port;
});

clients.after(() => void api?.close());

/**
 * Send every request with the README recipe `name`, run in Node from a project that has the installed
 * package and the clients (linked from this repository's devDependencies).
 */
async function sendWithRecipe(name: string) {
  const project = join(work, "clients");
  if (!existsSync(project)) {
    mkdirSync(join(project, "node_modules"), { recursive: true });
    writeFileSync(join(project, "package.json"), '{ "type": "module" }');
    symlinkSync(installed, join(project, "node_modules", "endpoint-options"));
    for (const client of ["axios", "got"]) {
      symlinkSync(join(root, "node_modules", client), join(project, "node_modules", client));
    }
  }
  const file = join(project, `${name}.mjs`);
  writeFileSync(file, snippets.get(name)!);
  const { send } = await import(file);
  const { endpoint } = await import(join(installed, "dist", "endpoint.mjs"));
  const { requests } = await import(join(root, "fixtures", "requests.mjs"));
  recorded.length = 0;
  for (const options of requests(endpoint, `http://127.0.0.1:${apiPort}/api`)) {
    const response = await send(options);
    if (typeof response.arrayBuffer === "function") {
      await response.arrayBuffer();
    } // fetch
    else if (typeof response.resume === "function") response.resume(); // node:http
  }
  return recorded.slice();
}

for (const [client, recipe] of [
  ["Node's fetch", "send-fetch"],
  ["axios", "send-axios"],
  ["got", "send-got"],
  ["node:http", "send-http"],
]) {
  clients(`${client}: every request arrives with the right method, path, query, headers and body`, async () => {
    assertSent(await sendWithRecipe(recipe!), expectedSent(UA));
  });
}

clients("Chromium's fetch, from a page on another origin: the same, but for the browser's own user-agent", async () => {
  if (!present("Chromium", chromiumPath)) return;
  recorded.length = 0;
  const page = await (await chromium()).newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => void (message.type() === "error" && errors.push(message.text())));
  await page.goto(`http://localhost:${apiPort}/page.html`);
  const done = await page.waitForFunction(() => (window as unknown as { done?: string }).done);
  const browserAgent = (await done.jsonValue()) as string;
  await page.close();
  assert.equal(errors, []);
  assert.ok(browserAgent.includes("Chrome/"), browserAgent);
  assertSent(recorded, expectedSent(browserAgent));
});

runGroup("clients", clients);

// ---------------------------------------------------------------------------------------------------
// Deno and Bun, from their npm packages.

const deno = suite("Deno");
const denoBin = bin("deno");
const denoEnv = { DENO_NO_UPDATE_CHECK: "1", DENO_DIR: join(work, "deno-cache") };
const runDeno = (args: string[], cwd: string) => sh(denoBin, args, cwd, denoEnv);

deno("the installed ESM build builds every scenario request exactly", async () => {
  if (!present("Deno", denoBin)) return;
  const runner = scenarioRunner(join(work, "deno"), "run.mjs", join(installed, "dist", "endpoint.mjs"));
  assert.equal(JSON.parse((await runDeno(["run", runner], app)).stdout), EXPECTED);
});

deno("the README's import snippet, from the installed package, prints what it promises", async () => {
  if (!present("Deno", denoBin)) return;
  writeFileSync(join(app, "readme-deno.mjs"), snippets.get("npm-import")!);
  assert.is((await runDeno(["run", "readme-deno.mjs"], app)).stdout.trim(), promised(snippets.get("npm-import")!));
});

deno("the vendored endpoint.ts runs as is, type-checks, and its README snippet prints what it promises", async () => {
  if (!present("Deno", denoBin)) return;
  const dir = vendorInto("deno-vendored", { "main.ts": snippets.get("vendored")! });
  const runner = scenarioRunner(dir, "run.mjs", "./endpoint.ts");
  writeFileSync(join(dir, "fetch-types.ts"), readFileSync(join(root, "fixtures", "fetch-types.ts"), "utf8"));
  await runDeno(["check", "endpoint.ts", "main.ts", "fetch-types.ts"], dir);
  assert.equal(JSON.parse((await runDeno(["run", runner], dir)).stdout), EXPECTED);
  assert.is((await runDeno(["run", "main.ts"], dir)).stdout.trim(), promised(snippets.get("vendored")!));
});

deno(
  "JSR: jsr.json names endpoint.ts and package.json's version, and `deno publish --dry-run` passes without --allow-slow-types",
  async () => {
    if (!present("Deno", denoBin)) return;
    const jsr = JSON.parse(readFileSync(join(root, "jsr.json"), "utf8"));
    assert.is(jsr.version, version);
    assert.is(jsr.exports, "./endpoint.ts");
    // The package as JSR would take it: only the files jsr.json includes, outside any git checkout.
    const dir = join(work, "jsr");
    mkdirSync(dir);
    for (const file of jsr.publish.include) cpSync(join(root, file), join(dir, file));
    // JSR's own checks: the files, the slow types. Deno's type check of this endpoint.ts is the vendored test's
    // `deno check`, of the same file; publish would check it again, apart (4 s of CPU).
    assert.equal(readFileSync(join(dir, "endpoint.ts")), readFileSync(join(installed, "endpoint.ts")));
    const { stdout, stderr } = await runDeno(["publish", "--dry-run", "--no-check"], dir);
    const output = stdout + stderr;
    assert.ok(output.includes("Dry run complete"), output);
    assert.ok(!/slow type|warning/i.test(output.replace("Checking for slow types in the public API...", "")), output);
    // The README's JSR snippet, its jsr: import resolved (by an import map, offline) to what would be published.
    const snippet = snippets.get("jsr")!;
    assert.ok(snippet.includes(`from "jsr:${jsr.name}"`), "the README imports jsr:" + jsr.name);
    writeFileSync(join(dir, "main.ts"), snippet);
    writeFileSync(
      join(dir, "import-map.json"),
      JSON.stringify({ imports: { [`jsr:${jsr.name}`]: `./${jsr.exports.slice(2)}` } }),
    );
    assert.is(
      (await runDeno(["run", "--import-map", "import-map.json", "main.ts"], dir)).stdout.trim(),
      promised(snippet),
    );
  },
);

runGroup("deno", deno);

const bun = suite("Bun");
const bunBin = bin("bun");

bun("the installed ESM build builds every scenario request exactly", async () => {
  if (!present("Bun", bunBin)) return;
  const runner = scenarioRunner(join(work, "bun"), "run.mjs", join(installed, "dist", "endpoint.mjs"));
  assert.equal(JSON.parse((await sh(bunBin, [runner], app)).stdout), EXPECTED);
});

bun("the README's import and require snippets, from the installed package, print what they promise", async () => {
  if (!present("Bun", bunBin)) return;
  writeFileSync(join(app, "readme-bun.mjs"), snippets.get("npm-import")!);
  writeFileSync(join(app, "readme-bun.cjs"), snippets.get("npm-require")!);
  assert.is((await sh(bunBin, ["readme-bun.mjs"], app)).stdout.trim(), promised(snippets.get("npm-import")!));
  assert.is((await sh(bunBin, ["readme-bun.cjs"], app)).stdout.trim(), promised(snippets.get("npm-require")!));
});

bun("the vendored endpoint.ts and its README snippet run as is", async () => {
  if (!present("Bun", bunBin)) return;
  const dir = vendorInto("bun-vendored", { "main.ts": snippets.get("vendored")! });
  const runner = scenarioRunner(dir, "run.mjs", "./endpoint.ts");
  assert.equal(JSON.parse((await sh(bunBin, [runner], dir)).stdout), EXPECTED);
  assert.is((await sh(bunBin, ["main.ts"], dir)).stdout.trim(), promised(snippets.get("vendored")!));
});

runGroup("bun", bun);
