// Builds dist/ from endpoint.ts: ESM, CommonJS, two minified ESM bundles for browsers and CDNs (without and with
// `withOpenAPI`), and the declaration files for both module systems. Each file is written whole and then renamed
// into place, so that a test reading dist/ while another checkout's `npm test` rebuilds it never sees half a file.

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";

mkdirSync("dist", { recursive: true });
const write = (file, contents) => {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
};

// Internal record fields (compiled templates and operations, per-defaults() state) get short names in every
// build, as preact does: callers never see them, and their long names cost about 90 B of the gzipped bundle.
// Only names that no caller's object and no OpenAPI description uses are listed: esbuild renames every property
// of that name in the file, and a caller's `name` or a description's `parameters` must stay as they are. A name
// added here by mistake breaks the builds' tests, which run every unit test against them.
const INTERNAL_FIELDS = new RegExp(
  `^(${[
    // Template, an expression's operator, Variable
    ["parts", "taken", "relative", "rooted", "mayHoldQuery", "first", "separator", "named", "ifEmpty", "keep"],
    ["inPath", "prefix", "skip", "varname", "exploded", "varspecs"],
    // State, ParsedRoute
    ["merged", "presetHeaders", "bodyHeaders", "params", "verb", "base", "lower", "template"],
    // The OpenAPI region's records: Plan, Param, BodyPlan, Server, ServerVariable, Scheme, Security, Call,
    // Credentials, Prepared, Api, Context
    ["route", "form", "server", "variable", "key", "state", "description", "answers", "reserved", "shape", "date"],
    ["segment", "types", "fields", "part", "fallback", "choices", "pieces", "absolute", "refs", "plans", "own"],
    ["plan", "prepared", "pairs", "whole", "guard", "trailing", "usual", "formType", "multipart", "file", "query"],
    ["asObject", "field", "schemes", "places", "fills", "credentials", "auths", "alternatives", "given", "loose"],
    ["empty", "list", "object", "shapes", "swagger", "schemeOf", "securityOf", "names", "parser", "error", "context"],
  ]
    .flat()
    .join("|")})$`,
);
const common = {
  entryPoints: ["endpoint.ts"],
  bundle: true,
  target: "es2021",
  mangleProps: INTERNAL_FIELDS,
  logLevel: "warning",
  write: false,
};
const CDN_EXPORTS = 'export { endpoint, parseTemplate, toFetch } from "./endpoint.ts";';

/** endpoint.ts without its `#region openapi` … `#endregion`. */
function withoutOpenAPI({ path }) {
  const source = readFileSync(path, "utf8");
  const start = source.indexOf("\n// #region openapi\n");
  const end = source.indexOf("\n// #endregion\n", start);
  if (start < 0 || end < 0) throw new Error("endpoint.ts: no `// #region openapi` … `// #endregion`");
  return { contents: source.slice(0, start) + source.slice(end + "\n// #endregion\n".length), loader: "ts" };
}

// The CDN bundle is what most pages need: `withOpenAPI` (the `#region openapi` of endpoint.ts) is left to
// dist/endpoint.openapi.min.js, below, until it fits the bundle's budget. Its source is left out before minifying,
// not only shaken out after: esbuild picks short names by the letters of the whole file.
const cdn = await build({
  ...common,
  // Its exports are these three; the named options' list and the types are for module users.
  entryPoints: undefined,
  stdin: { contents: CDN_EXPORTS, resolveDir: ".", loader: "ts" },
  format: "esm",
  minify: true,
  outfile: "dist/endpoint.min.js",
  mangleCache: {},
  plugins: [
    { name: "without-openapi", setup: (esbuild) => esbuild.onLoad({ filter: /endpoint\.ts$/ }, withoutOpenAPI) },
  ],
});
// The module builds give the bundle's fields the bundle's short names (the OpenAPI region's own get the next
// ones): esbuild names fields by how often the whole file uses them, so the region would otherwise move the bytes
// of `endpoint` alone, which a bundler shakes out of these builds.
const modules = { ...common, mangleCache: cdn.mangleCache };
const builds = [
  cdn,
  ...(await Promise.all([
    build({ ...modules, format: "esm", outfile: "dist/endpoint.mjs" }),
    build({ ...modules, format: "cjs", platform: "node", outfile: "dist/endpoint.cjs" }),
    // The CDN module for pages that use `withOpenAPI`: every runtime export of endpoint.ts, minified.
    build({ ...modules, format: "esm", minify: true, outfile: "dist/endpoint.openapi.min.js" }),
  ])),
];
for (const { outputFiles } of builds) for (const { path, contents } of outputFiles) write(path, contents);

// One declaration file serves both: the CommonJS build has the same named exports.
const types = mkdtempSync(join(tmpdir(), "endpoint-options-types-"));
execFileSync(process.execPath, ["node_modules/typescript7/bin/tsc", "-p", "tsconfig.build.json", "--outDir", types], {
  stdio: "inherit",
});
const declarations = readFileSync(join(types, "endpoint.d.ts"));
write("dist/endpoint.d.mts", declarations);
write("dist/endpoint.d.cts", declarations);
rmSync(types, { recursive: true });
