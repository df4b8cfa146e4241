// Serving a team safely: three mcp-read replicas behind nginx (the documented config, through
// tests/service/nginx-front.sh), each with --oauth-issuer naming oidc-provider and
// --oauth-roots giving every identity its home and a shared folder; alice and bob log in at the
// provider's pages (authorization code with PKCE) and get JWT access tokens and refresh tokens.
//
//   node conformance/oauth/team.mjs path/to/mcp-read     (run.sh runs it after oauth.mjs)
//
// The tree: home/alice (her notes, a link to bob's file, a link to bob's home), home/bob (his
// ledger), shared/. The policy: {"any": true, "roots": [".../home/{sub}", ".../shared"]}.
// Checks, through nginx:
// - isolation: alice reads her file on every replica; she cannot read bob's ledger by absolute
//   path, by `..`, through either link, nor list his home, nor resources/read it by a file://
//   URI, nor see it in resources/list, in a session on each replica and in stateless
//   (2026-07-28) requests; bob reads his; bob's token cannot use alice's session;
// - a soak (OAUTH_TEAM_SOAK_S seconds, default 75): alice and bob loop, each reading their own
//   file (stateless and in a session kept across token refreshes) and trying the other's, with
//   access tokens of OAUTH_TEAM_TOKEN_TTL_S seconds (default 10) used until they are refused,
//   then refreshed (refresh_token grant) and the call made again. Every own read must return the
//   file's exact text, no cross read may ever succeed, every 401 must be for a token past its
//   expiry (client-side clock and the replica's log) and the call must succeed after the refresh,
//   and each replica's VmRSS and open fds after warm-up (a third of the soak) and at the end
//   must be flat (RSS_SLACK_KIB, FD_SLACK).
// mcp-read allows 60 s for clocks apart on `exp`: the provider writes iat and exp 60 s early, as
// a provider whose clock is a minute behind would, so that a token expires for mcp-read TTL s
// after it was issued, within the soak.
// Prints `ok - ...` / `not ok - ...` and `oauth team: N passed, M failed`; exit 0 when all passed.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createHash, randomBytes } from "node:crypto";
import * as jose from "jose";
import Provider from "oidc-provider";
import { fail, listen, playUser, SCOPE, signingKey } from "./authorization-server.mjs";
import { startReport } from "./report.mjs";

const bin = resolve(process.argv[2] ?? "");
const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SOAK_S = Number(process.env.OAUTH_TEAM_SOAK_S ?? 75);
const TTL_S = Number(process.env.OAUTH_TEAM_TOKEN_TTL_S ?? 10);
const SKEW_S = 60; // mcp-read's allowance for clocks apart
// Flat: a replica's VmRSS grows less than 2 MiB (it grew about 60 KiB in 75 s soaks of 25,000 to
// 57,000 calls) and its open fds (nginx's keep-alive connections come and go) move by at most 4.
const RSS_SLACK_KIB = 2048, FD_SLACK = 4;
const RUN_TIMEOUT_MS = (SOAK_S + 90) * 1000;

// ------------------------------------------------------------------ reporting
const report = startReport("oauth team", RUN_TIMEOUT_MS);
const { check, cleanups, finish } = report;
const waitFor = async (test, ms, what) => {
  for (const until = Date.now() + ms; !(await test()); await new Promise((r) => setTimeout(r, 25)))
    if (Date.now() > until) fail(`${what} within ${ms / 1000} s`);
};

// ------------------------------------------------------------------ the tree and the policy
const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mcp-read-team.")));
cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
const tree = join(tmp, "tree");
const NOTES = "alice's notes: the quarterly plan\nsecond line of alice's\n";
const SECRET = "bob's ledger: the salary of everyone, 7f3a9c\n";
const SHARED = "the team's shared page\n";
for (const d of ["home/alice", "home/bob", "shared"]) mkdirSync(join(tree, d), { recursive: true });
writeFileSync(join(tree, "home/alice/notes.txt"), NOTES);
writeFileSync(join(tree, "home/bob/ledger.txt"), SECRET);
writeFileSync(join(tree, "shared/team.txt"), SHARED);
symlinkSync("../bob/ledger.txt", join(tree, "home/alice/from-bob.txt"));
symlinkSync("../bob", join(tree, "home/alice/to-bob"));
const policy = join(tmp, "policy.json");
writeFileSync(policy, JSON.stringify({ rules: [{ any: true, roots: [join(tree, "home/{sub}"), join(tree, "shared")] }] }));
const own = { alice: join(tree, "home/alice/notes.txt"), bob: join(tree, "home/bob/ledger.txt") };
const numbered = (text) => text.trimEnd().split("\n").map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join("\n");
// What a read of a whole small text file answers: its numbered lines, then where they are.
const whole = (text) => `${numbered(text)}\n\n[Lines 1-${text.trimEnd().split("\n").length} of ${text.trimEnd().split("\n").length}. End of file.]`;
const want = { alice: whole(NOTES), bob: whole(SECRET) };

// ------------------------------------------------------------------ the authorization server
const freePort = async () => { const s = createServer(); const p = await listen(s); s.close(); return p; };
const nginxPort = await freePort();
const resource = `http://127.0.0.1:${nginxPort}/mcp`; // the URI clients use: nginx's
const key = await signingKey("team-key");
let handler;
const asServer = createServer((req, res) => handler(req, res));
const issuer = `http://127.0.0.1:${await listen(asServer)}`;
cleanups.push(() => asServer.close());
const provider = new Provider(issuer, {
  jwks: { keys: [key] },
  scopes: ["openid", SCOPE],
  features: {
    devInteractions: { enabled: true },
    registration: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({ scope: SCOPE, audience: resource, accessTokenTTL: TTL_S, accessTokenFormat: "jwt", jwt: { sign: { alg: "RS256" } } }),
    },
  },
  formats: { customizers: { jwt: (_ctx, _token, jwt) => { jwt.payload.iat -= SKEW_S; jwt.payload.exp -= SKEW_S; } } },
  issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
  pkce: { required: () => true },
  findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }), // the login is the sub
  cookies: { keys: ["oauth-team-cookie-key"] },
  ttl: { AccessToken: TTL_S, AuthorizationCode: 60, Grant: 600, IdToken: 300, Interaction: 600, RefreshToken: 600, Session: 600 },
});
handler = provider.callback();

// ------------------------------------------------------------------ replicas and nginx
const replicas = [];
for (const id of ["r1", "r2", "r3"]) {
  const proc = spawn(bin, ["--transport", "http", "--port", "0", "--replica-id", id, "--oauth-issuer", issuer,
    "--oauth-resource", resource, "--oauth-roots", policy, "--log-level", "debug", tree], { stdio: ["ignore", "ignore", "pipe"] });
  const r = { id, proc, log: "", port: 0 };
  proc.stderr.on("data", (d) => { r.log += d; });
  cleanups.push(() => proc.kill("SIGKILL"));
  replicas.push(r);
}
const started = await check("three replicas start with --oauth-issuer, --oauth-resource (nginx's URL) and --oauth-roots", async () => {
  for (const r of replicas) {
    await waitFor(() => { const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(r.log); r.port = Number(m?.[1] ?? 0); return r.port || r.proc.exitCode !== null; },
      10000, `replica ${r.id} announces its port`);
    if (!r.port) fail(`replica ${r.id} exited: ${r.log.slice(-1500)}`);
  }
  const nginx = spawn("bash", [join(repo, "tests/service/nginx-front.sh"), tmp, String(nginxPort), ...replicas.map((r) => String(r.port))],
    { stdio: ["ignore", "ignore", "pipe"] });
  let nginxErr = "";
  nginx.stderr.on("data", (d) => { nginxErr += d; });
  cleanups.push(() => nginx.kill("SIGTERM"));
  await waitFor(async () => { if (nginx.exitCode !== null) fail(`nginx exited: ${nginxErr}`); return (await fetch(`${resource}`, { method: "POST" }).catch(() => null))?.status === 401; },
    10000, "nginx answers (401 without a token)");
});
if (!started) finish();

// ------------------------------------------------------------------ logging in
const codes = new Map();
const callback = createServer((req, res) => {
  const u = new URL(req.url, "http://127.0.0.1");
  codes.set(u.searchParams.get("state"), u.searchParams.get("code"));
  res.end("done");
});
cleanups.push(() => callback.close());
const redirectUri = `http://127.0.0.1:${await listen(callback)}/callback`;
const form = (o) => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(o).toString() });
const reg = await (await fetch(`${issuer}/reg`, { method: "POST", headers: { "content-type": "application/json" },
  body: JSON.stringify({ redirect_uris: [redirectUri], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"],
    token_endpoint_auth_method: "none", application_type: "native" }) })).json();
async function tokenRequest(params) {
  const r = await fetch(`${issuer}/token`, form({ client_id: reg.client_id, resource, ...params }));
  const body = await r.json();
  if (r.status !== 200 || !body.access_token || !body.refresh_token) fail(`token endpoint: ${r.status} ${JSON.stringify(body)}`);
  return body;
}
class User {
  constructor(name) { this.name = name; this.calls = 0; this.unauthorized = 0; this.refreshes = 0; this.crossRefused = 0; this.problems = []; this.authProblems = []; this.lateness = []; }
  async login() {
    const verifier = randomBytes(32).toString("base64url");
    const state = randomBytes(8).toString("hex");
    const auth = new URL(`${issuer}/auth`);
    for (const [k, v] of Object.entries({ client_id: reg.client_id, response_type: "code", redirect_uri: redirectUri, scope: SCOPE, resource, state,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256" })) auth.searchParams.set(k, v);
    await playUser(auth.href, redirectUri, this.name);
    if (!codes.get(state)) fail(`${this.name}: no code reached the redirect URI`);
    this.take(await tokenRequest({ grant_type: "authorization_code", code: codes.get(state), redirect_uri: redirectUri, code_verifier: verifier }));
  }
  take(tokens) { this.token = tokens.access_token; this.refreshToken = tokens.refresh_token; this.exp = jose.decodeJwt(this.token).exp; }
  async refresh() { this.refreshes++; this.take(await tokenRequest({ grant_type: "refresh_token", refresh_token: this.refreshToken })); }
}
const alice = new User("alice"), bob = new User("bob");
await check("alice and bob log in at the provider's pages; their tokens carry sub alice and bob, aud nginx's URL", async () => {
  await alice.login();
  await bob.login();
  for (const u of [alice, bob]) {
    const c = jose.decodeJwt(u.token);
    if (c.sub !== u.name || c.aud !== resource || c.iss !== issuer) fail(`${u.name}'s token: ${JSON.stringify(c)}`);
  }
});

// ------------------------------------------------------------------ MCP over HTTP, raw
let nextId = 1;
const STATELESS = "2026-07-28", SESSIONED = "2025-11-25";
// One JSON-RPC request through nginx; session: an id, or undefined for a stateless request.
async function rpc(token, method, params, session) {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` };
  const body = { jsonrpc: "2.0", id: nextId++, method, params: { ...params } };
  if (session !== undefined) {
    Object.assign(headers, { "mcp-protocol-version": SESSIONED });
    if (session) headers["mcp-session-id"] = session;
  }
  else {
    Object.assign(headers, { "mcp-protocol-version": STATELESS, "mcp-method": method });
    const name = params.name ?? params.uri;
    if (name) headers["mcp-name"] = name;
    body.params._meta = { "io.modelcontextprotocol/protocolVersion": STATELESS, "io.modelcontextprotocol/clientCapabilities": {} };
  }
  const sentAt = Date.now();
  const r = await fetch(resource, { method: "POST", headers, body: JSON.stringify(body), signal: AbortSignal.timeout(15000) });
  const text = await r.text();
  let json;
  if (r.status === 200) {
    const data = text.startsWith("{") ? [text] : [...text.matchAll(/^data: (.*)$/gm)].map((m) => m[1]);
    json = data.map((d) => JSON.parse(d)).find((m) => m.id === body.id);
  }
  return { status: r.status, text, json, sentAt, challenge: r.headers.get("www-authenticate"), session: r.headers.get("mcp-session-id") };
}
async function openSession(token) {
  const r = await rpc(token, "initialize", { protocolVersion: SESSIONED, capabilities: {}, clientInfo: { name: "team", version: "1" } }, "");
  if (r.status !== 200 || !r.session) fail(`initialize: ${r.status} ${r.text.slice(0, 300)}`);
  const n = await fetch(resource, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}`,
      "mcp-session-id": r.session, "mcp-protocol-version": SESSIONED } });
  await n.arrayBuffer();
  return r.session;
}
const readArgs = (path) => ["tools/call", { name: "read", arguments: { file_path: path } }];
const textOf = (r) => r.json?.result?.content?.map((c) => c.text ?? "").join("\n") ?? "";
// An own read: the exact numbered text, nothing else.
const ownReadWrong = (u, r) =>
  r.status === 200 && !r.json?.result?.isError && textOf(r) === want[u.name] ? null
    : `${u.name}'s own read: ${r.status} ${JSON.stringify(textOf(r))} ${r.text.slice(0, 300)}`;
// A cross attempt: refused (an error result or a JSON-RPC error), without the other's text (nor,
// for a listing, the name of the file in the other's home; a refusal names the path asked for).
function crossReadWrong(secretText, secretName, what, r) {
  if (r.status !== 200) return `HTTP ${r.status} ${r.text.slice(0, 200)}`;
  if (r.text.includes(secretText.trim().slice(0, 20)) || (/listing/.test(what) && r.text.includes(secretName)))
    return `leaked: ${r.text.slice(0, 300)}`;
  if (!(r.json?.error || r.json?.result?.isError)) return `not refused: ${r.text.slice(0, 300)}`;
  return null;
}
const h = (p) => join(tree, "home", p);
const aliceAttempts = [
  ["bob's ledger by absolute path", ...readArgs(h("bob/ledger.txt"))],
  ["bob's ledger by `..`", ...readArgs(h("alice/../bob/ledger.txt"))],
  ["bob's ledger by the file link in her home", ...readArgs(h("alice/from-bob.txt"))],
  ["bob's ledger through the directory link in her home", ...readArgs(h("alice/to-bob/ledger.txt"))],
  ["a listing of bob's home", ...readArgs(h("bob"))],
  ["a listing of bob's home through the link", ...readArgs(h("alice/to-bob"))],
  ["resources/read of bob's ledger (file:// URI)", "resources/read", { uri: `file://${h("bob/ledger.txt")}` }],
  ["resources/read through the link (file:// URI)", "resources/read", { uri: `file://${h("alice/to-bob/ledger.txt")}` }],
];
const bobAttempts = [
  ["alice's notes by absolute path", ...readArgs(own.alice)],
  ["alice's notes by `..`", ...readArgs(h("bob/../alice/notes.txt"))],
  ["resources/read of alice's notes", "resources/read", { uri: `file://${own.alice}` }],
];

// ------------------------------------------------------------------ isolation
const subReads = (r, sub) => r.log.split(`sub '${sub}' reads within`).length - 1;
await check("alice reads her notes, stateless, 12 times through nginx: the exact text each time, on every replica", async () => {
  const before = replicas.map((r) => subReads(r, "alice"));
  for (let i = 0; i < 12; i++) { const w = ownReadWrong(alice, await rpc(alice.token, ...readArgs(own.alice))); if (w) fail(w); }
  await waitFor(() => replicas.reduce((n, r, i) => n + subReads(r, "alice") - before[i], 0) >= 12, 3000, "the replicas log 12 reads of alice");
  const served = replicas.map((r, i) => subReads(r, "alice") - before[i]);
  if (!served.every((n) => n > 0)) fail(`alice's reads per replica: ${served}`);
});
await check("bob reads his ledger (stateless and in a session)", async () => {
  for (const session of [undefined, await openSession(bob.token)]) { const w = ownReadWrong(bob, await rpc(bob.token, ...readArgs(own.bob), session)); if (w) fail(w); }
});
// Sessions live on the replica that made them (nginx routes by the id's prefix): alice opens
// sessions until she has one on each replica.
const aliceSessions = new Map();
await check("alice opens a session on each of the three replicas (initialize goes round-robin)", async () => {
  for (let i = 0; i < 12 && aliceSessions.size < 3; i++) { const s = await openSession(alice.token); aliceSessions.set(s.split(".")[0], s); }
  if (aliceSessions.size !== 3) fail(`sessions on ${[...aliceSessions.keys()]}`);
});
for (const [mode, session] of [["stateless", undefined], ...[...aliceSessions].map(([rid, s]) => [`in a session on ${rid}`, s])]) {
  await check(`alice ${mode}: reads her notes and the shared page; every way to bob's ledger is refused (${aliceAttempts.length} ways)`, async () => {
    const w = ownReadWrong(alice, await rpc(alice.token, ...readArgs(own.alice), session));
    if (w) fail(w);
    const shared = await rpc(alice.token, ...readArgs(join(tree, "shared/team.txt")), session);
    if (textOf(shared) !== whole(SHARED)) fail(`the shared page: ${shared.text.slice(0, 300)}`);
    for (const [what, method, params] of aliceAttempts) {
      const why = crossReadWrong(SECRET, "ledger.txt", what, await rpc(alice.token, method, params, session));
      if (why) fail(`${what}: ${why}`);
    }
    const list = await rpc(alice.token, "resources/list", {}, session);
    if (list.status !== 200 || !list.text.includes("notes.txt") || /ledger|home\/bob/.test(list.text)) fail(`resources/list: ${list.text.slice(0, 400)}`);
  });
}
await check("bob: every way to alice's notes is refused, stateless and in a session", async () => {
  for (const session of [undefined, await openSession(bob.token)])
    for (const [what, method, params] of bobAttempts) {
      const why = crossReadWrong(NOTES, "notes.txt", what, await rpc(bob.token, method, params, session));
      if (why) fail(`${what}: ${why}`);
    }
});
await check("bob's token on alice's session: 404 on each replica (a session is its subject's)", async () => {
  if (aliceSessions.size !== 3) fail("alice has no session on each replica");
  for (const s of aliceSessions.values()) {
    const r = await rpc(bob.token, ...readArgs(own.bob), s);
    if (r.status !== 404) fail(`session ${s}: ${r.status} ${r.text.slice(0, 200)}`);
  }
});

// ------------------------------------------------------------------ the soak
const sample = (r) => ({
  rssKiB: Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${r.proc.pid}/status`, "utf8"))[1]),
  fds: readdirSync(`/proc/${r.proc.pid}/fd`).length,
});
// A call with the user's token; on 401, the token must be past its expiry (exp + mcp-read's skew,
// by this clock, which is the replicas'), then the user refreshes and the call is made again.
async function call(u, method, params, session) {
  u.calls++;
  const exp = u.exp;
  let r = await rpc(u.token, method, params, session);
  const receivedAt = Date.now();
  if (r.status === 200 && r.sentAt > (exp + SKEW_S + 2) * 1000) u.authProblems.push(`a token past its expiry (exp ${exp}) was accepted at ${r.sentAt}`);
  if (r.status !== 401) return r;
  u.unauthorized++;
  u.lateness.push(receivedAt / 1000 - exp - SKEW_S);
  if (receivedAt < (exp + SKEW_S + 1) * 1000) u.authProblems.push(`401 for a token before its expiry (exp ${exp}, at ${receivedAt}): ${r.challenge}`);
  if (!r.challenge?.includes('error="invalid_token"')) u.authProblems.push(`401 without invalid_token: ${r.challenge}`);
  await u.refresh();
  u.calls++;
  r = await rpc(u.token, method, params, session);
  if (r.status === 401) u.authProblems.push(`401 right after a refresh: ${r.challenge}`);
  return r;
}
async function soak(u, other, attempts, otherSecret, otherName, until) {
  const session = await openSession(u.token);
  for (let i = 0; Date.now() < until; i++) {
    const s = i % 2 ? session : undefined;
    const mine = await call(u, ...readArgs(own[u.name]), s);
    const w = ownReadWrong(u, mine);
    if (w) u.problems.push(w);
    const [what, method, params] = attempts[i % attempts.length];
    const why = crossReadWrong(otherSecret, otherName, what, await call(u, method, params, s));
    if (why) u.problems.push(`${what}: ${why}`);
    else u.crossRefused++;
  }
}
const soakStart = Date.now();
let warm;
const warmTimer = setTimeout(() => { warm = replicas.map(sample); }, (SOAK_S * 1000) / 3);
const until = soakStart + SOAK_S * 1000;
await Promise.all([soak(alice, bob, aliceAttempts, SECRET, "ledger.txt", until), soak(bob, alice, bobAttempts, NOTES, "notes.txt", until)]);
clearTimeout(warmTimer);
const end = replicas.map(sample);
const expiredLogged = replicas.reduce((n, r) => n + r.log.split("refused: the token expired").length - 1, 0);
const refusedLogged = replicas.reduce((n, r) => n + (r.log.match(/token (?:of sub '[^']*' )?refused: /g) ?? []).length, 0);
const total = (k) => alice[k] + bob[k];
const fmtRange = (v) => (v.length ? `${Math.min(...v).toFixed(2)}-${Math.max(...v).toFixed(2)}` : "-");
console.log(`# soak ${((Date.now() - soakStart) / 1000).toFixed(1)} s, token TTL ${TTL_S} s: ${total("calls")} calls ` +
  `(alice ${alice.calls}, bob ${bob.calls}), ${total("unauthorized")} answered 401, ${total("refreshes")} refreshes, ` +
  `${total("crossRefused")} cross attempts refused; 401s came ${fmtRange([...alice.lateness, ...bob.lateness])} s after exp + ${SKEW_S} s; replicas logged ${expiredLogged} expired-token refusals, ${refusedLogged} refusals in all`);
for (const [i, r] of replicas.entries())
  console.log(`# ${r.id}: VmRSS ${warm?.[i].rssKiB} KiB after warm-up, ${end[i].rssKiB} KiB at the end; fds ${warm?.[i].fds} -> ${end[i].fds}`);
await check(`soak: ${total("calls")} calls by alice and bob (stateless, and in a session kept across refreshes), every own read the exact text, no cross read ever succeeded`, () => {
  const problems = [...alice.problems, ...bob.problems];
  if (problems.length) fail(`${problems.length} problems: ${problems.slice(0, 5).join("\n")}`);
  if (total("crossRefused") === 0) fail("no cross attempt was made");
});
// A token lives TTL_S s and a little under a second more (mcp-read compares whole seconds).
const minRefreshes = Math.max(1, Math.floor(SOAK_S / (TTL_S + 1)));
await check(`soak: tokens expired and were refreshed (each user at least ${minRefreshes} times), every 401 for an expired token, then success`, () => {
  const problems = [...alice.authProblems, ...bob.authProblems];
  if (problems.length) fail(`${problems.length} problems: ${problems.slice(0, 5).join("\n")}`);
  if (alice.refreshes < minRefreshes || bob.refreshes < minRefreshes) fail(`refreshes: alice ${alice.refreshes}, bob ${bob.refreshes} (soak ${SOAK_S} s, TTL ${TTL_S} s)`);
  if (expiredLogged !== total("unauthorized") || refusedLogged !== expiredLogged)
    fail(`the replicas logged ${expiredLogged} expired-token refusals and ${refusedLogged} refusals in all; the clients saw ${total("unauthorized")} 401s`);
});
for (const [i, r] of replicas.entries())
  await check(`soak: replica ${r.id}'s VmRSS and open fds are flat from warm-up to the end`, () => {
    if (!warm) fail("no warm-up sample was taken");
    const growth = end[i].rssKiB - warm[i].rssKiB;
    if (growth > RSS_SLACK_KIB) fail(`VmRSS grew ${growth} KiB (${warm[i].rssKiB} -> ${end[i].rssKiB}), more than ${RSS_SLACK_KIB} KiB`);
    if (Math.abs(end[i].fds - warm[i].fds) > FD_SLACK) fail(`open fds ${warm[i].fds} -> ${end[i].fds} (more than ±${FD_SLACK})`);
  });
if (report.failed > 0) for (const r of replicas) console.log(`# ${r.id}'s log (last lines):\n${r.log.trimEnd().split("\n").slice(-12).join("\n").replace(/^/gm, "#   ")}`);
finish();
