// npm run size — bytes of the browser bundles, minified, gzip -9 and brotli, next to
// @octokit/endpoint (with its universal-user-agent dependency) bundled and measured the same way.

import { readFileSync } from "node:fs";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { build } from "esbuild";

/** Minified, gzip -9 and brotli (max quality) sizes of some code. */
export function measure(code) {
  const bytes = Buffer.from(code);
  return {
    minified: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** `endpoint` alone (or with `also`), as a bundler user who imports nothing else gets it: tree-shaken and minified by esbuild. */
export async function endpointAlone(from, also = "") {
  const result = await build({
    stdin: { contents: `export { endpoint${also} } from ${JSON.stringify(from)};`, resolveDir: process.cwd() },
    bundle: true,
    minify: true,
    format: "esm",
    target: "es2021",
    write: false,
  });
  return result.outputFiles[0].text;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = [
    [
      "endpoint-options: dist/endpoint.min.js (CDN bundle: endpoint, parseTemplate, toFetch)",
      measure(readFileSync("dist/endpoint.min.js")),
    ],
    [
      "endpoint-options: dist/endpoint.openapi.min.js (CDN module: every export, withOpenAPI among them)",
      measure(readFileSync("dist/endpoint.openapi.min.js")),
    ],
    ["endpoint-options: `endpoint` alone, from dist/endpoint.mjs", measure(await endpointAlone("./dist/endpoint.mjs"))],
    [
      "endpoint-options: `endpoint` and `withOpenAPI`, from dist/endpoint.mjs",
      measure(await endpointAlone("./dist/endpoint.mjs", ", withOpenAPI")),
    ],
    ["@octokit/endpoint 11 + universal-user-agent", measure(await endpointAlone("@octokit/endpoint"))],
  ];
  const ours = rows[0][1].gzip;
  console.log("| bundle | minified | gzip -9 | brotli | gzip × ours |");
  console.log("|---|---:|---:|---:|---:|");
  for (const [name, size] of rows) {
    console.log(
      `| ${name} | ${size.minified} B | ${size.gzip} B | ${size.brotli} B | ${(size.gzip / ours).toFixed(2)} |`,
    );
  }
}
