// Builds dist/ from endpoint.ts: ESM, CommonJS, a minified ESM bundle for browsers and CDNs,
// and the declaration files for both module systems. Each file is written whole and then renamed into
// place, so that a test reading dist/ while another checkout's `npm test` rebuilds it never sees half a file.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

mkdirSync("dist", { recursive: true });
const write = (file, contents) => {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
};

// Internal record fields (compiled templates, per-defaults() state) get short names in every build, as
// preact does: they are never seen by callers, and their long names were 85 B of the gzipped bundle.
const INTERNAL_FIELDS =
  /^(parts|names|name|relative|rooted|mayHoldQuery|first|separator|named|ifEmpty|keep|variables|inPath|prefix|explode|skip|merged|bodyHeaders|params|presetHeaders|verb|base|templates|fast|form|label|answers|server|variable|route)$/;
const common = {
  entryPoints: ["endpoint.ts"],
  bundle: true,
  target: "es2021",
  mangleProps: INTERNAL_FIELDS,
  logLevel: "warning",
  write: false,
};
const builds = await Promise.all([
  build({ ...common, format: "esm", outfile: "dist/endpoint.mjs" }),
  build({ ...common, format: "cjs", platform: "node", outfile: "dist/endpoint.cjs" }),
  // The CDN bundle is what most pages need: `withOpenAPI` (section 5 of endpoint.ts) is left to the ESM build,
  // which CDNs serve too, until it fits the bundle's budget. Its source is left out before minifying, not
  // only shaken out after: esbuild picks short names by the letters of the whole file.
  build({
    ...common,
    format: "esm",
    minify: true,
    outfile: "dist/endpoint.min.js",
    plugins: [
      {
        name: "without-section-5",
        setup: (build) =>
          build.onLoad({ filter: /endpoint\.ts$/ }, ({ path }) => {
            const source = readFileSync(path, "utf8");
            const at = source.indexOf("// 5. Requests as an OpenAPI description says");
            if (at < 0) throw new Error("endpoint.ts: section 5 not found");
            return { contents: source.slice(0, source.lastIndexOf("\n// ----", at)), loader: "ts" };
          }),
      },
    ],
  }),
]);
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
