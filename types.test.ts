// Type tests, compiled (never run) by `tsc --noEmit --strict` in `npm test`: every line must compile, and
// every line after a `@ts-expect-error` must not. The integration test compiles this file again against
// the published declaration files and against a vendored `endpoint.ts`.
import {
  type Endpoint,
  type EndpointHeaders,
  endpoint,
  type FetchInit,
  type MergedOptions,
  type RequestOptions,
  toFetch,
} from "./endpoint.ts";

/** True only when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
// biome-ignore lint/suspicious/noConfusingVoidType: the return type names T, so that the call checks it; void returns nothing.
function expectType<T extends true>(): T | void {}

// --- {name} and :name are required ------------------------------------------------------------------

const issues = endpoint("GET /repos/{owner}/{repo}/issues", { owner: "octocat", repo: "hello-world", state: "open" });
// @ts-expect-error `owner` is missing: this would be the URL /repos//hello-world/issues
endpoint("GET /repos/{owner}/{repo}/issues", { repo: "hello-world" });
// @ts-expect-error the options themselves are missing
endpoint("GET /repos/{owner}/{repo}");
// @ts-expect-error a required placeholder cannot be undefined
endpoint("GET /users/{username}", { username: undefined });
// @ts-expect-error nor null
endpoint("GET /users/{username}", { username: null });
endpoint("GET /orgs/:org/repos", { org: "octokit", type: "private" });
// @ts-expect-error `:org` is required too
endpoint("GET /orgs/:org/repos", { type: "private" });
endpoint("DELETE /repos/{owner}/{repo}/git/refs/{ref}", { owner: "o", repo: "r", ref: 1, extra: [1, 2] });
// Names with `-`, prefix modifiers and a list of simple variables.
// @ts-expect-error `enterprise-team` is required
endpoint("GET /enterprises/{enterprise}/teams/{enterprise-team}", { enterprise: "e" });
endpoint("GET /x/{a:3}/{b*}/{c,d}", { a: "abc", b: ["x"], c: 1, d: 2 });
// @ts-expect-error `d` of `{c,d}` is required
endpoint("GET /x/{c,d}", { c: 1 });
// A port or the scheme's colon is not a placeholder.
endpoint("GET http://localhost:8080/health");

// --- every other expression is optional ----------------------------------------------------------------

endpoint("GET /users{/id}{?fields,sort}{&page}{#section}{+path}{.format}{;matrix}");
endpoint("GET /users{/id}{?fields,sort}{&page}{#section}{+path}{.format}{;matrix}", {
  id: 1,
  fields: ["a"],
  page: null,
});
endpoint("POST https://uploads.github.com/repos/{owner}/{repo}/releases/{release_id}/assets{?name,label}", {
  owner: "o",
  repo: "r",
  release_id: 1,
  data: "bytes",
});
// @ts-expect-error optional, but still a parameter value: not a symbol
endpoint("GET /users{?fields}", { fields: Symbol("x") });

// --- defaults() make the placeholders they set optional, through a cascade ----------------------------

const forOctocat = endpoint.defaults({ owner: "octocat", headers: { authorization: "token x" } });
forOctocat("GET /repos/{owner}/{repo}", { repo: "hello-world" });
forOctocat("GET /repos/{owner}/{repo}", { owner: "someone-else", repo: "hello-world" });
// @ts-expect-error `repo` is still required
forOctocat("GET /repos/{owner}/{repo}", {});
const forHello = forOctocat.defaults({ repo: "hello-world" });
forHello("GET /repos/{owner}/{repo}");
forHello("GET /repos/{owner}/{repo}/issues/{issue_number}", { issue_number: 1 });
// @ts-expect-error two levels down, `issue_number` is still required
forHello("GET /repos/{owner}/{repo}/issues/{issue_number}");
const posting = forHello.defaults({ method: "POST" });
expectType<Equal<ReturnType<typeof posting<"/repos/{owner}/{repo}/forks">>["method"], "post">>();

// --- options typed by an interface -----------------------------------------------------------------------

// An interface has no index signature; typed code passes options this way, and it must compile.
interface NewIssue {
  owner: string;
  repo: string;
  title: string;
  labels?: string[];
}
declare const newIssue: NewIssue;
endpoint("POST /repos/{owner}/{repo}/issues", newIssue);
endpoint.merge("POST /repos/{owner}/{repo}/issues", newIssue);
endpoint({ method: "POST", url: "/repos/{owner}/{repo}/issues", ...newIssue });
endpoint.defaults(newIssue)("POST /repos/{owner}/{repo}/issues");
interface IssueRef {
  owner: string;
  repo: string;
  issue_number?: number;
}
declare const issueRef: IssueRef;
// @ts-expect-error a placeholder the interface has only as optional is still missing
endpoint("GET /repos/{owner}/{repo}/issues/{issue_number}", issueRef);
// @ts-expect-error and one it lacks altogether
endpoint("GET /repos/{owner}/{repo}/pulls/{pull_number}", issueRef);
interface WrongMethod {
  owner: string;
  method: number;
}
declare const wrongMethod: WrongMethod;
// @ts-expect-error a named option in an interface keeps its type
endpoint("GET /users/{owner}", wrongMethod);

// --- the result -----------------------------------------------------------------------------------------

expectType<Equal<typeof issues.method, "get">>();
expectType<Equal<typeof issues.url, string>>();
expectType<Equal<typeof issues.headers, EndpointHeaders>>();
// accept and user-agent are always in the result, as strings; any other header is a string or a number.
const userAgent: string = issues.headers["user-agent"];
const acceptHeader: string = issues.headers.accept;
expectType<Equal<(typeof issues.headers)["x-other"], string | number>>();
// @ts-expect-error another header may be a number
const otherHeader: string = issues.headers["x-other"];
const fromOptionsHeaders: string = endpoint({ url: "/x" }).headers["user-agent"];
// @ts-expect-error so accept and user-agent are strings in the options too
endpoint("GET /user", { headers: { accept: 1 } });
const created = endpoint("POST /repos/{owner}/{repo}/issues", { owner: "o", repo: "r", title: "t" });
expectType<Equal<typeof created.method, "post">>();
expectType<Equal<(typeof created)["body"], unknown>>();
expectType<Equal<ReturnType<typeof endpoint<"patch /x">>["method"], "patch">>();
expectType<Equal<ReturnType<typeof endpoint<"https://example.com/x">>["method"], "get">>();
const asRequest: RequestOptions = issues;

// --- named options keep their shapes ------------------------------------------------------------------

endpoint("GET /user", {
  headers: { authorization: "token x", "x-count": 1 },
  mediaType: { format: "raw", previews: ["mercy"] },
});
endpoint("GET /user", { baseUrl: "https://ghe.example.com/api/v3", request: { timeout: 1 } });
// @ts-expect-error header values are strings or numbers
endpoint("GET /user", { headers: { "x-flag": true } });
// @ts-expect-error mediaType.format is a string
endpoint("GET /user", { mediaType: { format: 1 } });
// @ts-expect-error mediaType.previews is a string array
endpoint("GET /user", { mediaType: { previews: "mercy" } });
// @ts-expect-error request is an object
endpoint("GET /user", { request: "fast" });
// @ts-expect-error baseUrl is a string
endpoint("GET /user", { baseUrl: new URL("https://x.test") });
// @ts-expect-error `{headers}` is a named option, not a placeholder, so it keeps its own shape
endpoint("GET /x/{headers}", { headers: "h" });

// --- loose where the route is not known ----------------------------------------------------------------

declare const someRoute: string;
const loose = endpoint(someRoute);
expectType<Equal<typeof loose.method, string>>();
endpoint(someRoute, { anything: 1 });
const fromOptions = endpoint({ method: "POST", url: "/repos/{owner}/{repo}/issues" });
expectType<Equal<typeof fromOptions.method, string>>();
const merged = endpoint.merge("GET /repos/{owner}/{repo}", { owner: "o" });
expectType<Equal<typeof merged, MergedOptions>>();
const loosened: Endpoint = endpoint.defaults({ baseUrl: "https://x.test" });
// @ts-expect-error a defaults() result without the type of its defaults still needs every placeholder
loosened("GET /users/{username}");

// --- toFetch takes any result ----------------------------------------------------------------------------

const [url, init] = toFetch(created);
expectType<Equal<typeof init.method, string>>();
// init.headers is a plain record of strings, to spread and add to.
expectType<Equal<typeof init.headers, Record<string, string>>>();
const withId: Record<string, string> = { ...init.headers, "x-request-id": "1" };
const retried: FetchInit = { ...init, headers: withId };
// @ts-expect-error a header of init is a string, not a number
init.headers["x-count"] = 1;

export const used = [asRequest, url, init, userAgent, acceptHeader, otherHeader, fromOptionsHeaders, retried];
