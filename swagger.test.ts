// The Swagger 2.0 oracle. Every operation of real 2.0 descriptions (fixtures/swagger.mjs: Kubernetes', OpenShift's,
// AutoRest's 75 test descriptions, `@readme/oas-examples`' seven) is called twice with the same values, generated
// from swagger2openapi's 3.0 conversion of the description: once through `withOpenAPI` on the 2.0 file as published,
// once on the conversion. Where the two requests differ, the difference is put down to a class below, each judged
// the converter's error or ours with its reason; a difference no class explains fails the suite. The requests built
// from `reduceOpenAPI()` of the 2.0 file must equal those from the 2.0 file, without exception.
//
//   node --import tsx swagger.test.ts
import { test } from "uvu";
import * as assert from "uvu/assert";
import { endpoint, reduceOpenAPI, withOpenAPI } from "./endpoint.ts";
import { conversionOf, swaggerDescriptions } from "./fixtures/swagger.mjs";
import { petstoreCalls } from "./fixtures/swagger-calls.ts";
import { callsOf, credentialsFor, requestText } from "./fixtures/testkit.mjs";

type Node = Record<string, any>;
type Api = (route: string, options: Record<string, unknown>) => unknown;

/** One operation's call, as built from the 2.0 file, from the conversion and from the reduced 2.0 file. */
interface Compared {
  name: string;
  description: Node;
  route: string;
  operation: Node;
  ours: string;
  converted: string;
  reduced: string;
}

/**
 * Why a request from the 2.0 file may differ from the conversion's: each class's judge and reason, and the test of
 * a difference that puts it there. Every class names the 2.0 construct it is about, so that a difference of
 * another cause in the same operation is not excused by it.
 */
const CLASSES: { name: string; judge: "converter" | "ours"; why: string; holds: (call: Compared) => boolean }[] = [
  {
    name: "`collectionFormat: tsv`",
    judge: "converter",
    why: "2.0 says tab-separated values; the converter, which warns that 3.0 has no such style, sends one pair per item",
    holds: ({ ours, operation }) =>
      ours.includes("%09") && operation.parameters.some((parameter: Node) => parameter.collectionFormat === "tsv"),
  },
  {
    name: "a response without a `schema`, with `examples`",
    judge: "converter",
    why: "2.0: without a schema, no content is returned; the converter gives the response the examples' media types, so its `accept` names them rather than */*",
    holds: ({ ours, converted, operation }) =>
      accept(ours) === "*/*" &&
      accept(converted) !== "*/*" &&
      operation.successes.some((response: Node) => !response.schema && response.examples),
  },
  {
    name: "Azure's `x-ms-skip-url-encoding`",
    judge: "ours",
    why: "a vendor's extension, which the converter maps to `allowReserved`; the library reads the specification's fields, and percent-encodes the value's reserved characters, which servers decode to the same value",
    holds: ({ operation }) => operation.parameters.some((parameter: Node) => parameter["x-ms-skip-url-encoding"]),
  },
  {
    name: "Azure's `x-ms-parameterized-host`",
    judge: "converter",
    why: "the converter writes a server whose variables default to the text `none`, which no origin holds, so the conversion refuses every call; from the 2.0 file, which names no `host`, the call goes under the caller's `baseUrl`",
    holds: ({ description, converted }) =>
      Boolean(description["x-ms-parameterized-host"]) && /cannot stand in the origin/.test(converted),
  },
];

/** A node with its `$ref`s followed in `root`. */
function followRef(root: Node, node: Node): Node {
  let found = node;
  while (typeof found?.$ref === "string") {
    found = found.$ref
      .slice(2)
      .split("/")
      .reduce((at: Node, key: string) => at?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], root);
  }
  return found ?? {};
}

/** A 2.0 operation with its path's parameters and its own, and its success responses, `$ref`s followed. */
function operationAt(root: Node, route: string): Node {
  const [method, path] = [route.slice(0, route.indexOf(" ")).toLowerCase(), route.slice(route.indexOf(" ") + 1)];
  const item = followRef(root, root.paths[path]);
  const operation = followRef(root, item[method]);
  const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((node) => followRef(root, node));
  const successes = Object.entries<Node>(operation.responses ?? {})
    .filter(([status]) => /^2/.test(status))
    .map(([, response]) => followRef(root, response));
  return { ...operation, parameters, successes };
}

/** The `accept` of a request compared as text (see requestText()). */
const accept = (text: string) => (text.startsWith("[") ? JSON.parse(text)[0].headers.accept : undefined);

/** A request as text to compare (see requestText()), or the TypeError's message. */
function built(api: Api, route: string, options: Record<string, unknown>): string {
  try {
    return requestText(api(route, options));
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return `TypeError: ${error.message}`;
  }
}

const corpus = await swaggerDescriptions();
const refusedByConverter: string[] = [];
const compared: Compared[] = [];

/** Every operation of one 2.0 description in two variants of values, each built three ways. */
async function compareOne(name: string, published: Node): Promise<void> {
  let converted: Node;
  try {
    converted = await conversionOf(published);
  } catch {
    refusedByConverter.push(name);
    return;
  }
  // A description without `host` is relative (Kubernetes' API server serves its own): the caller names the server.
  const defaults = { ...(published.host ? {} : { baseUrl: "https://api.example.com" }), ...credentialsFor(converted) };
  const base = endpoint.defaults(defaults as never);
  const [ours, theirs, reduced] = [published, converted, reduceOpenAPI(published)].map(
    (read) => withOpenAPI(base, read as never) as unknown as Api,
  );
  for (const variant of [0, 1]) {
    for (const [route, options] of callsOf(converted, { variant, all: variant === 0, valid: true })) {
      compared.push({
        name,
        description: published,
        route,
        operation: operationAt(published, route),
        ours: built(ours!, route, options),
        converted: built(theirs!, route, options),
        reduced: built(reduced!, route, options),
      });
    }
  }
}

for (const [name, published] of corpus) await compareOne(name, published);

test("the corpus: real 2.0 descriptions, each read", () => {
  const operations = new Set(compared.map(({ name, route }) => `${name} ${route}`)).size;
  console.log(
    `\n    ${corpus.length} Swagger 2.0 descriptions, ${operations} operations, ${compared.length} calls; the converter refused ${refusedByConverter.length}: ${refusedByConverter.join(", ")}`,
  );
  assert.ok(corpus.length >= 80, `${corpus.length} descriptions`);
  assert.ok(operations >= 3000, `${operations} operations`);
});

test("every call builds the same request from the 2.0 file and from its conversion, or differs for a class judged below", () => {
  const counts = new Map<string, number>();
  const unexplained: string[] = [];
  let same = 0;
  for (const call of compared) {
    if (call.ours === call.converted) {
      same++;
      continue;
    }
    const found = CLASSES.find((one) => one.holds(call));
    if (found) counts.set(found.name, (counts.get(found.name) ?? 0) + 1);
    else {
      unexplained.push(`${call.name} ${call.route}\n      2.0:       ${call.ours}\n      converted: ${call.converted}`);
    }
  }
  console.log(`\n    ${same} of ${compared.length} calls built alike; the others, by class:\n`);
  console.log("    | class | calls | judged | why |\n    |---|---:|---|---|");
  for (const { name, judge, why } of CLASSES) {
    console.log(
      `    | ${name} | ${counts.get(name) ?? 0} | ${judge === "ours" ? "ours" : "the converter's"} | ${why} |`,
    );
  }
  assert.equal(unexplained, [], "differences no class explains");
  assert.ok(same / compared.length > 0.99, `only ${same} of ${compared.length} alike`);
});

test("reduceOpenAPI() of a 2.0 description builds every request as the 2.0 file does", () => {
  const differ = compared.filter((call) => call.reduced !== call.ours).map((call) => `${call.name} ${call.route}`);
  const first = compared.find((call) => call.reduced !== call.ours);
  assert.equal(differ.slice(0, 5), [], first && `${first.ours}\n${first.reduced}`);
});

test("no call from a 2.0 file is refused where its conversion builds one, but for a class above", () => {
  const refused = compared.filter(
    (call) => call.ours.startsWith("TypeError") && !call.converted.startsWith("TypeError"),
  );
  assert.equal(
    refused.map((call) => `${call.name} ${call.route}: ${call.ours}`),
    [],
  );
});

test("calls typed through `paths` from the conversion build the same requests from the 2.0 file", async () => {
  const [, petstore] = corpus.find(([name]) => name === "@readme/oas-examples/petstore.json")!;
  const openapi = await conversionOf(petstore);
  const [ours, theirs] = [petstore, openapi].map((read) => petstoreCalls(withOpenAPI(endpoint, read)).map(requestText));
  assert.equal(ours, theirs);
  assert.is(ours!.length, 8);
  assert.ok(ours![3]!.includes('"file","blob of 3"'), ours![3]);
});

test.run();
