// Type tests at real size: Stripe's, Kubernetes' and Zoom's `paths`, and Spotify's, ElevenLabs' and Jira's for
// shapes those lack, as openapi-typescript 7 generates them from the public API directory (`npm test` and `npm run
// paths` write fixtures/<name>.paths.d.ts). Compiled, never run, like types.openapi.test.ts: every line must
// compile, and every line after a `@ts-expect-error` must not. Each accepted call is one the runtime builds as
// the description says (directory.test.ts runs the everyday ones), each refused one it refuses or would get wrong.
import { endpoint, type OpenAPIDescription, type OpenAPIEndpoint, withOpenAPI } from "./endpoint.ts";
import type { paths as ElevenLabs } from "./fixtures/elevenlabs.paths.d.ts";
import type { paths as Jira } from "./fixtures/jira.paths.d.ts";
import type { paths as Kubernetes } from "./fixtures/kubernetes.paths.d.ts";
import type { paths as Spotify } from "./fixtures/spotify.paths.d.ts";
import type { paths as Stripe } from "./fixtures/stripe.paths.d.ts";
import type { paths as Zoom } from "./fixtures/zoom.paths.d.ts";

declare const description: OpenAPIDescription;

// --- Stripe: every GET and DELETE declares an empty form (`Record<string, never>`) ------------------------------

const stripe = withOpenAPI<Stripe>(endpoint, description);

// The empty form changes no other option's type.
stripe("GET /v1/customers", { limit: 3 });
stripe("GET /v1/charges", { customer: "cus_1", limit: 5, created: { gte: 1700000000 } });
stripe("DELETE /v1/customers/{customer}", { customer: "cus_1" });
// @ts-expect-error `limit` is a number, still
stripe("GET /v1/customers", { limit: "3" });
// @ts-expect-error a misspelled parameter is an error ("Did you mean to write 'limit'?")
stripe("GET /v1/customers", { limt: 3 });
// @ts-expect-error a GET sends no body: no `data`
stripe("GET /v1/customers", { data: "limit=3" });
// @ts-expect-error nor a body property
stripe("GET /v1/customers", { "body:limit": 3 });

// Form fields beside the parameters, their nested values typed.
stripe("POST /v1/checkout/sessions", {
  mode: "payment",
  success_url: "https://example.com/done",
  line_items: [{ price: "price_1", quantity: 2 }],
  metadata: { order_id: "6735" },
  expand: ["line_items"],
});
// @ts-expect-error `metadata` holds strings
stripe("POST /v1/checkout/sessions", { success_url: "u", metadata: { order_id: 6735 } });
// @ts-expect-error a line item's `quantity` is a number
stripe("POST /v1/checkout/sessions", { success_url: "u", line_items: [{ price: "price_1", quantity: "2" }] });
// @ts-expect-error `mode` is one of three
stripe("POST /v1/checkout/sessions", { success_url: "u", mode: "refund" });
// @ts-expect-error `currency` is required
stripe("POST /v1/payment_intents", { amount: 2000 });
// A URL-encoded form holds no file.
// @ts-expect-error a Blob in a URL-encoded form is a TypeError
stripe("POST /v1/customers", { description: new Blob(["x"]) });
// A multipart form's text fields may be files.
stripe("POST /v1/files", { file: new Blob(["%PDF"]), purpose: "dispute_evidence" });
// @ts-expect-error `purpose` is required
stripe("POST /v1/files", { file: new Blob(["%PDF"]) });
// The whole form in `data`, as a form or as its fields.
stripe("POST /v1/customers", { data: new URLSearchParams({ email: "jenny@example.com" }) });
stripe("POST /v1/customers", { data: "email=jenny%40example.com" });
stripe("POST /v1/customers", { data: { email: "jenny@example.com", metadata: { order_id: "6735" } } });
// @ts-expect-error the fields in `data` keep their types
stripe("POST /v1/customers", { data: { email: 1 } });

// Fields or the whole form, not both: a field beside a whole form would be lost.
// @ts-expect-error `description` beside a whole form
stripe("POST /v1/customers", { data: new URLSearchParams({ email: "jenny@example.com" }), description: "Regular" });
// @ts-expect-error and no "body:" key beside it either
stripe("POST /v1/customers", { data: "email=jenny%40example.com", "body:description": "Regular" });
// An optional parameter may be `undefined` (absent), under `exactOptionalPropertyTypes` too.
declare const maybe: number | undefined;
stripe("GET /v1/customers", { limit: maybe });
stripe("POST /v1/customers", { email: maybe === undefined ? undefined : "jenny@example.com" });

// `url` beside a route is a parameter or a form field: the route is the URL.
stripe("GET /v1/products", { url: "https://shop.example/t-shirt" });
stripe("POST /v1/webhook_endpoints", { url: "https://hooks.example", enabled_events: ["charge.succeeded"] });
// @ts-expect-error the form's `url` is required
stripe("POST /v1/webhook_endpoints", { enabled_events: ["charge.succeeded"] });

// What the description does not declare: "query:<name>" and "body:<name>", typed as parameters and as anything.
stripe("GET /v1/customers", { "query:include[]": "total_count" });
stripe("POST /v1/customers", { email: "jenny@example.com", "body:preferred_locales": ["de"] });
// @ts-expect-error a header goes in `headers`
stripe("GET /v1/customers", { "header:stripe-version": "2026-11-25" });
// The named options beside them.
stripe("GET /v1/customers", { headers: { authorization: "Bearer sk_test" }, baseUrl: "https://stripe.example" });
// defaults(): what they set is optional in every call through them; server variables may be set there.
const customer = stripe.defaults({ customer: "cus_1", "server:region": "eu" });
customer("GET /v1/customers/{customer}");
customer("POST /v1/customers/{customer}", { description: "Regular", "server:region": "us" });

// Credentials by the description's scheme names, given once or per call: HTTP basic's a user and password, the
// others text.
const authorized = stripe.defaults({ "auth:basicAuth": { username: "sk_test_4eC39Hq", password: "" } });
authorized("GET /v1/customers");
stripe("GET /v1/customers", { "auth:bearerAuth": "sk_test_4eC39Hq" });
// @ts-expect-error a credential is text, or a user name and password
stripe("GET /v1/customers", { "auth:bearerAuth": 42 });
// @ts-expect-error basic's password is given, even when empty
stripe.defaults({ "auth:basicAuth": { username: "sk_test_4eC39Hq" } });

// --- Kubernetes: every PATCH's body is `Patch`, `Record<string, never>` -------------------------------------------

const kubernetes = withOpenAPI<Kubernetes>(endpoint, description);

// A merge patch (an object) or a JSON Patch (a list) in `data`; the path parameters keep their types.
kubernetes("PATCH /apis/apps/v1/namespaces/{namespace}/deployments/{name}", {
  namespace: "default",
  name: "web",
  data: { spec: { replicas: 3 } },
});
kubernetes("PATCH /apis/apps/v1/namespaces/{namespace}/deployments/{name}", {
  namespace: "default",
  name: "web",
  fieldManager: "deploy-bot",
  data: [{ op: "replace", path: "/spec/replicas", value: 2 }],
});
// Left out, the body is `{}`.
kubernetes("PATCH /apis/apps/v1/namespaces/{namespace}/deployments/{name}", { namespace: "default", name: "web" });
// @ts-expect-error `namespace` is a string
kubernetes("PATCH /apis/apps/v1/namespaces/{namespace}/deployments/{name}", { namespace: 1, name: "web" });
// @ts-expect-error `name` is required
kubernetes("PATCH /apis/apps/v1/namespaces/{namespace}/deployments/{name}", { namespace: "default" });
// @ts-expect-error a body that names no property is `data`
kubernetes("PATCH /apis/apps/v1/namespaces/{namespace}/deployments/{name}", { namespace: "d", name: "w", spec: {} });
// @ts-expect-error a patch is an object or a list
kubernetes("PATCH /apis/apps/v1/namespaces/{namespace}/deployments/{name}", { namespace: "d", name: "w", data: "{}" });

// A `*/*` body: its properties beside the parameters, sent as JSON.
kubernetes("POST /api/v1/namespaces/{namespace}/pods", {
  namespace: "default",
  metadata: { name: "web-0" },
  spec: { containers: [{ name: "web", image: "nginx:1.27" }] },
});
// @ts-expect-error a container needs a name
kubernetes("POST /api/v1/namespaces/{namespace}/pods", { namespace: "d", spec: { containers: [{ image: "nginx" }] } });
// @ts-expect-error `labelSelecter` is not a parameter ("Did you mean to write 'labelSelector'?")
kubernetes("GET /api/v1/namespaces/{namespace}/pods", { namespace: "default", labelSelecter: "app=web" });
// A body property named like a named option, or like a parameter, is "body:<name>".
kubernetes("POST /api/v1/namespaces/{namespace}/configmaps", {
  namespace: "default",
  metadata: { name: "settings" },
  "body:data": { mode: "fast" },
});
kubernetes("DELETE /api/v1/namespaces/{namespace}/pods/{name}", {
  namespace: "default",
  name: "web-0",
  gracePeriodSeconds: 0,
  "body:gracePeriodSeconds": 0,
  "body:preconditions": { uid: "u1" },
});
// @ts-expect-error the whole body in `data`, and a property beside it, which would be lost
kubernetes("POST /api/v1/namespaces/{namespace}/pods", {
  namespace: "d",
  data: { kind: "Pod" },
  metadata: { name: "x" },
});
// A name in the path and the query: one key fills both, typed as the path's; "query:<name>" sets the query's alone.
kubernetes("GET /api/v1/namespaces/{namespace}/pods/{name}/proxy/{path}", {
  namespace: "d",
  name: "web-0",
  path: "healthz",
});
kubernetes("GET /api/v1/namespaces/{namespace}/pods/{name}/proxy/{path}", {
  namespace: "d",
  name: "web-0",
  path: "healthz",
  "query:path": "/ready",
});
// @ts-expect-error the body's `data` holds strings
kubernetes("POST /api/v1/namespaces/{namespace}/configmaps", { namespace: "default", "body:data": { mode: 1 } });

// --- Zoom: JSON and multipart listed, JSON first --------------------------------------------------------------

const zoom = withOpenAPI<Zoom>(endpoint, description);
zoom("POST /users/{userId}/meetings", {
  userId: "me",
  topic: "Planning",
  type: 2,
  settings: { join_before_host: true },
});
zoom("GET /metrics/meetings", { type: "live", from: "2026-11-01", to: "2026-11-25" });
// @ts-expect-error `to` is required
zoom("GET /metrics/meetings", { type: "live", from: "2026-11-01" });
// @ts-expect-error `page_sise` is not a parameter ("Did you mean to write 'page_size'?")
zoom("GET /users", { page_sise: 30 });

// --- Shapes the three lack: an open object body, a list of files, `*∕*` beside a form ----------------------------

// Spotify: the body's `additionalProperties` do not open the call to any name; `ids` in the query and the body.
const spotify = withOpenAPI<Spotify>(endpoint, description);
spotify("PUT /me/albums", { ids: "4iV5W9uYEdYUVa79Axb7Rh" });
spotify("PUT /me/albums", { ids: "4iV5W9uYEdYUVa79Axb7Rh", "body:ids": ["1301WleyT98MSxVHPZCA6M"], "body:extra": 1 });
// @ts-expect-error the query's `ids` is required
spotify("PUT /me/albums", {});
// @ts-expect-error a name the description lacks, although the body takes more properties: "body:<name>" sends it
spotify("PUT /me/albums", { ids: "4iV5W9uYEdYUVa79Axb7Rh", extra: 1 });

// ElevenLabs: a multipart list of files.
const elevenlabs = withOpenAPI<ElevenLabs>(endpoint, description);
elevenlabs("POST /v1/voices/add", { name: "Narrator", files: [new Blob(["RIFF"]), new Blob(["RIFF"])] });
// @ts-expect-error `files` is a list
elevenlabs("POST /v1/voices/add", { name: "Narrator", files: new Blob(["RIFF"]) });

// Jira: `*∕*` beside a multipart form is a form, whose schema (a list) has no fields: the whole form in `data`.
const jira = withOpenAPI<Jira>(endpoint, description);
const columns = new FormData();
columns.append("columns", "summary");
jira("PUT /rest/api/3/filter/{id}/columns", { id: 10000, data: columns });
// @ts-expect-error the runtime takes a form, not a list
jira("PUT /rest/api/3/filter/{id}/columns", { id: 10000, data: ["summary", "status"] });
// @ts-expect-error an open body with named properties still needs the path parameter
jira("POST /rest/api/3/field/{fieldKey}/option", { value: "Blue" });

// --- The plain cast: path and query parameters by name, no escapes -----------------------------------------------

const plain = endpoint as OpenAPIEndpoint<Stripe>;
plain("GET /v1/customers", { limit: 3 });
// @ts-expect-error misspelled here too
plain("GET /v1/customers", { limt: 3 });
// @ts-expect-error the escapes are withOpenAPI's
plain("GET /v1/customers", { "query:include[]": "total_count" });
// A parameter the description does not declare, typed: `paths` widened where it is declared.
type StripeNext = Stripe & {
  "/v1/customers": { get: { parameters: { query?: { include?: ("total_count" | "test_clock")[] } } } };
};
const next = endpoint as OpenAPIEndpoint<StripeNext>;
next("GET /v1/customers", { limit: 3, include: ["total_count"] });
// @ts-expect-error and typed as declared
next("GET /v1/customers", { include: ["everything"] });
