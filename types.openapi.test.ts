// Type tests of `OpenAPIEndpoint`, compiled (never run) in `npm test`, like types.test.ts: every line must
// compile, and every line after a `@ts-expect-error` must not. Two descriptions: GitHub's, as
// `@octokit/openapi-types` ships it, and fixtures/notes.openapi.json, turned into `paths` by openapi-typescript
// in the test (fixtures/notes.paths.ts), for shapes GitHub lacks. The integration test compiles this file
// again against the published declaration files and against a vendored `endpoint.ts`.
import type { paths as GitHub } from "@octokit/openapi-types";
import {
  type Endpoint,
  endpoint,
  type MergedOptions,
  type OpenAPIDescription,
  type OpenAPIEndpoint,
  type OpenAPIResponse,
  type OpenAPIRoute,
  type RequestOptions,
  withOpenAPI,
} from "./endpoint.ts";
import type { paths as AI } from "./fixtures/ai.paths.ts";
import type { paths as Files } from "./fixtures/files.paths.ts";
import type { paths as Notes } from "./fixtures/notes.paths.ts";
import type { operations as SwaggerOperations, paths as SwaggerPetstore } from "./fixtures/swagger-petstore.paths.ts";
import type { paths as Telecom } from "./fixtures/telecom.paths.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
// biome-ignore lint/suspicious/noConfusingVoidType: the return type names T, so that the call checks it; void returns nothing.
function expectType<T extends true>(): T | void {}

// --- GitHub ------------------------------------------------------------------------------------------

// The cast, as written in the README.
const github = endpoint as OpenAPIEndpoint<GitHub>;

// Routes: every operation, checked; an unknown literal route is a typo caught; a `string` route is loose.
github("GET /");
// @ts-expect-error no such route ("isues")
github("GET /repos/{owner}/{repo}/isues", { owner: "o", repo: "r" });
// @ts-expect-error no such method for the path
github("PUT /repos/{owner}/{repo}/issues", { owner: "o", repo: "r" });
// @ts-expect-error the method is uppercase, as in the description's routes
github("get /");
declare const route: string;
github(route, { anything: 1 });

// Path parameters are required.
github("GET /repos/{owner}/{repo}", { owner: "octocat", repo: "hello-world" });
// @ts-expect-error `owner` is missing
github("GET /repos/{owner}/{repo}", { repo: "hello-world" });
// @ts-expect-error the options themselves are missing
github("GET /repos/{owner}/{repo}");

// Query parameters keep their types.
github("GET /repos/{owner}/{repo}/issues", { owner: "o", repo: "r", per_page: 5, state: "open" });
// @ts-expect-error `per_page` is a number
github("GET /repos/{owner}/{repo}/issues", { owner: "o", repo: "r", per_page: "five" });
// @ts-expect-error `state` is one of "open", "closed", "all"
github("GET /repos/{owner}/{repo}/issues", { owner: "o", repo: "r", state: "shut" });

// JSON body properties sit at the top level, required as the description says.
const created = github("POST /repos/{owner}/{repo}/issues", {
  owner: "o",
  repo: "r",
  title: "Found a bug",
  labels: ["bug"],
});
// @ts-expect-error `title` is required
github("POST /repos/{owner}/{repo}/issues", { owner: "o", repo: "r", body: "no title" });
// @ts-expect-error `assignees` is a list of logins
github("POST /repos/{owner}/{repo}/issues", { owner: "o", repo: "r", title: "t", assignees: "octocat" });
// Or the whole body is `data`, with its type.
github("POST /repos/{owner}/{repo}/issues", { owner: "o", repo: "r", data: { title: "Found a bug" } });
// @ts-expect-error `data` is the body: it needs a title
github("POST /repos/{owner}/{repo}/issues", { owner: "o", repo: "r", data: { body: "no title" } });
// A body that is not JSON is `data`: text, or bytes.
github("POST /markdown/raw", { data: "# Hello" });
github("POST /repos/{owner}/{repo}/releases/{release_id}/assets", {
  baseUrl: "https://uploads.github.com",
  owner: "o",
  repo: "r",
  release_id: 1,
  name: "a.zip",
  data: new Uint8Array(4),
});
// A file or a stream as it is.
github("POST /repos/{owner}/{repo}/releases/{release_id}/assets", {
  owner: "o",
  repo: "r",
  release_id: 1,
  name: "a.zip",
  data: new Blob(["PK"]),
});

// The named options sit beside the parameters.
github("GET /repos/{owner}/{repo}", {
  owner: "o",
  repo: "r",
  headers: { authorization: "token x" },
  mediaType: { format: "raw" },
  request: { signal: undefined },
  baseUrl: "https://github.example/api/v3",
});
// @ts-expect-error `headers` keep their type
github("GET /repos/{owner}/{repo}", { owner: "o", repo: "r", headers: "authorization: token x" });

// The result's method is the route's, lowercase.
expectType<Equal<typeof created.method, "post">>();
const deleted = github("DELETE /repos/{owner}/{repo}", { owner: "o", repo: "r" });
expectType<Equal<typeof deleted.method, "delete">>();
expectType<Equal<(typeof created.headers)["accept"], string>>();

// defaults() returns a typed endpoint: what it sets is optional in every call through it, at every level.
const octocat = github.defaults({ owner: "octocat", headers: { authorization: "token x" } });
octocat("GET /repos/{owner}/{repo}", { repo: "hello-world" });
octocat("GET /repos/{owner}/{repo}", { owner: "someone-else", repo: "hello-world" });
// @ts-expect-error `repo` is still required
octocat("GET /repos/{owner}/{repo}", {});
// @ts-expect-error and still a typed endpoint: no such route
octocat("GET /repos/{owner}/{repo}/isues", { repo: "r" });
const hello = octocat.defaults({ repo: "hello-world" });
hello("GET /repos/{owner}/{repo}");
hello("POST /repos/{owner}/{repo}/issues", { title: "t" });
// @ts-expect-error `title` is not a default: still required
hello("POST /repos/{owner}/{repo}/issues", {});
// @ts-expect-error `issue_number` is still required
hello("GET /repos/{owner}/{repo}/issues/{issue_number}");
const patched = hello("PATCH /repos/{owner}/{repo}", { description: "Hello" });
expectType<Equal<typeof patched.method, "patch">>();

// The options form is loose, as with the untyped endpoint; its method is any string.
const byOptions = github({ method: "POST", url: "/markdown", text: "# Hi" });
expectType<Equal<typeof byOptions.method, string>>();
// @ts-expect-error `url` is a string
github({ url: 1 });
// A `string` route's method is any string.
expectType<Equal<ReturnType<typeof github<string>>["method"], string>>();

// DEFAULTS, merge() and parse() are the untyped endpoint's.
expectType<Equal<typeof hello.DEFAULTS, MergedOptions>>();
const parsed = hello.parse(hello.merge("GET /repos/{owner}/{repo}", { per_page: 1 }));
expectType<Equal<typeof parsed, RequestOptions>>();

// --- A description of one's own, through openapi-typescript --------------------------------------------

const notes = endpoint.defaults({ baseUrl: "https://notes.example" }) as OpenAPIEndpoint<Notes>;

// The routes, exactly: the methods each path item has, none of its `put?: never` nor its `parameters`.
expectType<
  Equal<
    OpenAPIRoute<Notes>,
    | "POST /notes"
    | "GET /notes/{id}"
    | "DELETE /notes/{id}"
    | "PATCH /notes/{id}"
    | "GET /notes/{id}/text"
    | "PUT /notes/{id}/text"
    | "POST /notes/{id}/attachment"
    | "POST /notes/bulk"
    | "GET /search"
  >
>();
// A path item written by hand: an optional operation is a route, one that is only `undefined` is none.
type HandWritten = {
  "/a": { get?: { responses: {} }; put?: undefined; parameters: { query?: never } };
  "/b": { delete: { responses: {} } };
};
expectType<Equal<OpenAPIRoute<HandWritten>, "GET /a" | "DELETE /b">>();

// A required query parameter, and an optional one with its type.
notes("GET /notes/{id}", { id: 1, fields: "title" });
notes("GET /notes/{id}", { id: 1, fields: "title", limit: 10 });
// @ts-expect-error `fields` is a required query parameter
notes("GET /notes/{id}", { id: 1 });
// @ts-expect-error `limit` is an integer
notes("GET /notes/{id}", { id: 1, fields: "title", limit: "ten" });
// @ts-expect-error `q` is required, and so are the options
notes("GET /search");
notes("GET /search", { q: "milk" });

// A required JSON body: its required properties are required.
notes("POST /notes", { title: "Milk", tags: ["shopping"] });
// @ts-expect-error `title` is required
notes("POST /notes", { tags: ["shopping"] });
// @ts-expect-error `tags` is a list of strings
notes("POST /notes", { title: "Milk", tags: "shopping" });

// An optional JSON body may be left out whole; the properties still have their types.
notes("PATCH /notes/{id}", { id: 1 });
notes("PATCH /notes/{id}", { id: 1, done: true });
// @ts-expect-error `done` is a boolean
notes("PATCH /notes/{id}", { id: 1, done: "yes" });
// @ts-expect-error `id` is still required
notes("PATCH /notes/{id}", { title: "Milk" });

// A JSON list body is `data`.
notes("POST /notes/bulk", { data: [{ title: "Milk" }, { title: "Eggs" }] });
// @ts-expect-error the body is required
notes("POST /notes/bulk", {});
// @ts-expect-error each item needs a title
notes("POST /notes/bulk", { data: [{}] });

// Bodies that are not JSON are `data`, required when the description says so.
notes("PUT /notes/{id}/text", { id: 1, data: "Milk, eggs" });
notes("POST /notes/{id}/attachment", { id: 1, data: new Uint8Array([1, 2, 3]) });
// @ts-expect-error the text body is required
notes("PUT /notes/{id}/text", { id: 1 });
// @ts-expect-error a text body is a string
notes("PUT /notes/{id}/text", { id: 1, data: 42 });
// @ts-expect-error no body is described for this DELETE: no `data`
notes("DELETE /notes/{id}", { id: 1, data: "x" });

// @ts-expect-error GitHub's routes are not the notes API's
notes("GET /repos/{owner}/{repo}", { owner: "o", repo: "r" });
const removed = notes("DELETE /notes/{id}", { id: 1 });
expectType<Equal<typeof removed.method, "delete">>();
const forNote = notes.defaults({ id: 7 });
forNote("PUT /notes/{id}/text", { data: "Bread" });
forNote("DELETE /notes/{id}");

// --- Typed responses ------------------------------------------------------------------------------------

// The JSON body of the first success status with JSON content.
type Repository = OpenAPIResponse<GitHub, "GET /repos/{owner}/{repo}">;
expectType<Equal<Repository["full_name"], string>>();
expectType<
  Equal<
    OpenAPIResponse<GitHub, "GET /repos/{owner}/{repo}/issues">,
    GitHub["/repos/{owner}/{repo}/issues"]["get"]["responses"][200]["content"]["application/json"]
  >
>();
expectType<Equal<OpenAPIResponse<GitHub, "POST /repos/{owner}/{repo}/issues">["number"], number>>();
// No content (204): undefined. Not JSON (text): unknown.
expectType<Equal<OpenAPIResponse<GitHub, "DELETE /repos/{owner}/{repo}">, undefined>>();
expectType<Equal<OpenAPIResponse<GitHub, "GET /zen">, unknown>>();
// @ts-expect-error only the description's routes
export type NoRoute = OpenAPIResponse<GitHub, "GET /repos/{owner}/{repo}/isues">;

type Note = { id: number; title: string; done: boolean };
expectType<Equal<OpenAPIResponse<Notes, "GET /notes/{id}">, Note>>();
// 201, and not the 422 error body.
expectType<Equal<OpenAPIResponse<Notes, "POST /notes">, Note>>();
// `application/json; charset=utf-8` is JSON too.
expectType<Equal<OpenAPIResponse<Notes, "GET /search">, Note[]>>();
// 202 has no content, 207 has JSON: the JSON one.
expectType<Equal<OpenAPIResponse<Notes, "POST /notes/bulk">, Note[]>>();
expectType<Equal<OpenAPIResponse<Notes, "DELETE /notes/{id}">, undefined>>();
expectType<Equal<OpenAPIResponse<Notes, "GET /notes/{id}/text">, unknown>>();

// --- withOpenAPI: the same types, with header and cookie parameters beside the others ---------------

declare const notesDescription: OpenAPIDescription;
const located = withOpenAPI<Notes>(endpoint.defaults({ baseUrl: "https://notes.example" }), notesDescription);
located("GET /notes/{id}", { id: 1, fields: "title", "x-api-version": 2, session: "s" });
// @ts-expect-error the description requires the `x-api-version` header
located("GET /notes/{id}", { id: 1, fields: "title" });
// @ts-expect-error `x-api-version` is an integer
located("GET /notes/{id}", { id: 1, fields: "title", "x-api-version": "2" });
// The plain cast sends parameters by name, GitHub's way: the header is not one of its options.
notes("GET /notes/{id}", { id: 1, fields: "title" });
const locatedResult = located.defaults({ "x-api-version": 2 })("DELETE /notes/{id}", { id: 1 });
expectType<Equal<typeof locatedResult.method, "delete">>();
// Without a `paths` type, withOpenAPI gives the untyped endpoint.
const untyped = withOpenAPI(endpoint, notesDescription);
untyped("GET /anything", { any: 1 });
expectType<Equal<typeof untyped, Endpoint>>();

// --- withOpenAPI on production-shaped descriptions: clashing names, forms, odd path keys ----------------

declare const aiDescription: OpenAPIDescription;
const ai = withOpenAPI<AI>(endpoint, aiDescription);
// A body property named like a named option is `"body:<name>"`, with its type; required stays required. `url`
// beside a route is a parameter or body property: the route is the URL.
ai("POST /fine_tuning/jobs", { model: "m", training_file: "f", "body:method": { type: "dpo" } });
// @ts-expect-error `method` is an object here, `type` one of two
ai("POST /fine_tuning/jobs", { model: "m", training_file: "f", "body:method": { type: "rlhf" } });
ai("POST /webhooks/{webhook_id}", {
  webhook_id: "w",
  url: "https://hooks.example",
  "body:headers": { a: "1" },
  "body:data": {},
});
// @ts-expect-error the body's `url` is required
ai("POST /webhooks/{webhook_id}", { webhook_id: "w", events: ["done"] });
// @ts-expect-error `body:headers` is a map of strings
ai("POST /webhooks/{webhook_id}", { webhook_id: "w", url: "u", "body:headers": { a: 1 } });
// A form's fields sit beside the parameters; a file is a Blob; `data` is a field.
ai("POST /uploads/{upload_id}/parts", { upload_id: "u", data: new Blob(["part"]) });
ai("POST /files", { file: new Blob(["{}"]), purpose: "batch" });
// @ts-expect-error `purpose` is required, and one of three
ai("POST /files", { file: new Blob(["{}"]), purpose: "training" });
ai("POST /oauth/token", { grant_type: "client_credentials", client_id: "c", scope: ["a", "b"] });
// A path key with a literal query is a route of its own.
ai("GET /responses/{response_id}?beta=true", { response_id: "r", starting_after: 2 });
// @ts-expect-error `starting_after` is an integer
ai("GET /responses/{response_id}?beta=true", { response_id: "r", starting_after: "2" });

declare const telecomDescription: OpenAPIDescription;
const telecom = withOpenAPI<Telecom>(endpoint, telecomDescription);
// Query names with `<` and `>`; a form field named like a path parameter is `"body:<name>"`.
telecom("GET /2010-04-01/Accounts/{AccountSid}/Calls.json", {
  AccountSid: "AC1",
  "StartTime<": "2026-11-01",
  "StartTime>": "2026-10-01",
});
telecom("POST /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers/{Sid}.json", {
  AccountSid: "AC1",
  Sid: "PN1",
  "body:AccountSid": "AC2",
});
telecom("POST /2010-04-01/Accounts/{AccountSid}/Messages.json", {
  AccountSid: "AC1",
  To: "+1",
  MediaUrl: ["https://a.example/1.png"],
});
// @ts-expect-error the form's `To` is required
telecom("POST /2010-04-01/Accounts/{AccountSid}/Messages.json", { AccountSid: "AC1", Body: "Hi" });

declare const filesDescription: OpenAPIDescription;
const files = withOpenAPI<Files>(endpoint, filesDescription);
// Path keys told apart by a #fragment; JSON Patch as `data`, a list.
files("GET /files/{file_id}#get_shared_link", { file_id: "1", fields: "shared_link" });
// @ts-expect-error `fields` is required here
files("GET /files/{file_id}#get_shared_link", { file_id: "1" });
files("PUT /files/{file_id}/metadata/{scope}/{template_key}", {
  file_id: "1",
  scope: "global",
  template_key: "t",
  data: [{ op: "add", path: "/a", value: "b" }],
});
files("PUT /files/{file_id}/metadata/{scope}/{template_key}", {
  file_id: "1",
  scope: "global",
  template_key: "t",
  // @ts-expect-error a JSON Patch operation is add, replace, remove or test
  data: [{ op: "move", path: "/a" }],
});
files("PATCH /users/{user_id}", { user_id: "1", job_title: null });

// --- Header parameters a description may not set --------------------------------------------------------------

/** An operation declaring credentials, a media type and the request's framing as header parameters. */
interface Framed {
  "/me": {
    get: {
      parameters: {
        header: { Authorization: string; Host?: string; "Content-Length"?: number; "X-Trace"?: string };
      };
      responses: { 200: { content: { "application/json": { id: number } } } };
    };
  };
}
declare const framedDescription: OpenAPIDescription;
const framed = withOpenAPI<Framed>(endpoint, framedDescription);
framed("GET /me", { "X-Trace": "t", headers: { authorization: "Bearer t" } });
// @ts-expect-error credentials go in `headers`: the runtime refuses them as a parameter
framed("GET /me", { Authorization: "Bearer t" });
// @ts-expect-error the request's target is the caller's: `Host` is not a parameter
framed("GET /me", { Host: "evil.example" });
// @ts-expect-error nor is its framing
framed("GET /me", { "Content-Length": 1 });

// --- Swagger 2.0: `paths` from a conversion run once at build time --------------------------------------------------

// withOpenAPI reads the 2.0 file; the types come from swagger2openapi's 3.0 conversion of it (the README's two
// commands). fixtures/swagger-calls.ts holds typed calls of each kind, which swagger.test.ts runs on both.
declare const swagger2: OpenAPIDescription;
const petstore2 = withOpenAPI<SwaggerPetstore>(endpoint, swagger2);
petstore2("POST /pet/{petId}", { petId: 10, name: "Rex", status: "sold", "auth:petstore_auth": "t" });
petstore2("POST /pet/{petId}/uploadImage", { petId: 10, file: new Blob(["png"]), "auth:petstore_auth": "t" });
// @ts-expect-error a form field the operation lacks ("nmae")
petstore2("POST /pet/{petId}", { petId: 10, nmae: "Rex", "auth:petstore_auth": "t" });
// @ts-expect-error petId is a number (`type: integer` in the 2.0 file)
petstore2("GET /pet/{petId}", { petId: "ten", "auth:api_key": "k" });
// @ts-expect-error the route's operation is POST, not PUT
petstore2("PUT /pet/{petId}", { petId: 10 });
// @ts-expect-error `status` takes the 2.0 file's enum
petstore2("GET /pet/findByStatus", { status: ["adopted"] });

// --- operationIds: `withOpenAPI<paths, operations>` types a call by id as its route's call ------------------------------

const byId = withOpenAPI<SwaggerPetstore, SwaggerOperations>(endpoint, swagger2);
byId("getPetById", { petId: 10, "auth:api_key": "k" });
byId("updatePetWithForm", { petId: 10, name: "Rex" });
byId.defaults({ "auth:api_key": "k" })("getPetById", { petId: 10 });
// @ts-expect-error petId is a number, as through the route
byId("getPetById", { petId: "ten" });
// @ts-expect-error a name the operation lacks ("petID")
byId("getPetById", { petID: 10 });
// @ts-expect-error no such operationId ("getPetByID")
byId("getPetByID", { petId: 10 });
// @ts-expect-error an id's operation without a request body takes no body properties
byId("getPetById", { petId: 10, data: {} });
// The route forms keep their checks.
byId("GET /pet/{petId}", { petId: 10 });
// @ts-expect-error the route's operation is POST, not PUT
byId("PUT /pet/{petId}", { petId: 10 });

// A description without operationIds (openapi-typescript writes `Record<string, never>`) still catches a typo.
const noIds = withOpenAPI<Telecom, Record<string, never>>(endpoint, telecomDescription);
// @ts-expect-error no such route
noIds("GET /nowhere");

// 3.2's QUERY and `additionalOperations`, which openapi-typescript leaves out of `paths`: taken loosely on a path it has.
byId("QUERY /pet/{petId}", { petId: 10, anything: true });
byId("LINK /pet/{petId}", { petId: 10 });
// @ts-expect-error a path the description lacks is still an error
byId("QUERY /pets", {});
// A querystring parameter is typed loosely too, by its escape.
byId("GET /pet/findByStatus", { status: ["sold"], "querystring:filter": { a: 1 } });
