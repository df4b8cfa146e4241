// Proves mcp-read's OAuth resource server (--oauth-issuer) against a real authorization server,
// oidc-provider (a certified OpenID provider), and the official MCP TypeScript SDK client.
//
//   node conformance/oauth/oauth.mjs path/to/mcp-read
//   (or: bash conformance/oauth/run.sh [path/to/mcp-read], which installs the packages first
//   and runs this inside a network namespace that has only loopback)
//
// oidc-provider listens on 127.0.0.1 (a free port) with dynamic client registration, the
// authorization code flow with PKCE, resource indicators (RFC 8707) issuing JWT access tokens
// whose `aud` is mcp-read's resource URI, a `files:read` scope, and its development login and
// consent pages. mcp-read runs with `--oauth-issuer` naming it. Then:
// - the SDK client connects with an OAuthClientProvider: the 401's WWW-Authenticate names the
//   resource metadata, from which it finds the authorization server, registers itself, and sends
//   the user to the authorization endpoint with a PKCE challenge; this script plays the user (the
//   login form, then the consent form, following redirects with the cookies the pages set) until
//   the browser would land on the client's redirect URI, a small listener here that takes the
//   code; `transport.finishAuth(code)` exchanges it; the client connects again, lists the tools and
//   reads a file whose text is checked;
// - raw requests with tokens minted by the provider (client credentials) or crafted with its
//   signing key are refused with the status and WWW-Authenticate challenge of RFC 6750 (no token,
//   another resource, expired, another issuer (a second provider's token, and one signed with the
//   provider's key), alg none, tampered signature, no files:read);
// - the provider rotates its signing key (a second provider, with a new key only, takes over the
//   same port and issuer): its tokens, signed with a key mcp-read has not seen, are accepted, since
//   mcp-read fetches the JWKS again for an unknown `kid`;
// - token introspection (RFC 7662): a second mcp-read runs with `--oauth-client-id` (its secret
//   in MCP_READ_OAUTH_CLIENT_SECRET) and `--oauth-introspection-cache 0`; the provider issues
//   opaque access tokens for its resource. An opaque token reads a file (mcp-read found the
//   introspection endpoint in the provider's metadata and asked it); one without files:read is
//   refused with 403; once revoked at the provider's revocation endpoint (RFC 7009), the same
//   token is refused at the next call with 401 invalid_token, since the provider says it is no
//   longer active.
// Every check prints `ok - ...` or `not ok - ...`; the last line is `oauth: N passed, M failed`.
// Exit status: 0 when every check passed, 1 otherwise. The whole run is cut at RUN_TIMEOUT_MS.
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as jose from "jose";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  fail,
  INTROSPECTOR,
  listen,
  mint,
  OTHER_RESOURCE,
  playUser,
  revoke,
  SCOPE,
  signingKey,
  startAuthorizationServer,
} from "./authorization-server.mjs";
import { startReport } from "./report.mjs";

const REQUEST_TIMEOUT_MS = 15000;
const RUN_TIMEOUT_MS = 60000;

const binArg = process.argv[2];
if (!binArg) {
  console.error("usage: node oauth.mjs path/to/mcp-read");
  process.exit(2);
}
const bin = resolve(binArg);

// ------------------------------------------------------------------ reporting
const report = startReport("oauth", RUN_TIMEOUT_MS);
const { check, cleanups, finish } = report;

// ------------------------------------------------------------------ the authorization server
let resource; // mcp-read's, known once it listens
let opaqueResource; // the introspecting mcp-read's, likewise
const firstKey = await signingKey("first-key");
const as = await startAuthorizationServer(firstKey, () => resource, () => opaqueResource);
cleanups.push(as.close);
const issuer = as.issuer;
const nowS = () => Math.floor(Date.now() / 1000);

// ------------------------------------------------------------------ mcp-read
const root = realpathSync(mkdtempSync(join(tmpdir(), "mcp-read-oauth.")));
cleanups.push(() => rmSync(root, { recursive: true, force: true }));
const NOTE = "alpha: read through an OAuth access token\nbeta: second line\n";
writeFileSync(join(root, "notes.txt"), NOTE);

const server = spawn(bin, ["--transport", "http", "--port", "0", "--oauth-issuer", issuer, "--log-level", "debug", root], {
  stdio: ["ignore", "ignore", "pipe"],
});
cleanups.push(() => server.kill("SIGKILL"));
let serverLog = "";
const mcpPort = await new Promise((res) => {
  const timer = setTimeout(() => res(undefined), 10000);
  server.stderr.on("data", (d) => {
    serverLog += d;
    const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(serverLog);
    if (m) {
      clearTimeout(timer);
      res(Number(m[1]));
    }
  });
  server.on("exit", () => res(undefined));
});
const started = await check(`mcp-read --oauth-issuer ${issuer} announces its port`, () => {
  if (!mcpPort) fail(`no "listening on" line; stderr:\n${serverLog.slice(-2000)}`);
});
if (!started) finish();
// mcp-read's stderr arrives through a pipe, maybe after the answer it logged for: waits up to 2 s
// for the log since `from` to satisfy `test`.
async function logSince(from, test) {
  for (let waited = 0; !test(serverLog.slice(from)) && waited < 2000; waited += 50)
    await new Promise((res) => setTimeout(res, 50));
  return serverLog.slice(from);
}

const mcpBase = `http://127.0.0.1:${mcpPort}`;
resource = `${mcpBase}/mcp`;
const metadataUrl = `${mcpBase}/.well-known/oauth-protected-resource/mcp`;
const challenge = `Bearer resource_metadata="${metadataUrl}", scope="${SCOPE}"`;

await check("the protected-resource metadata names the provider, the scope and the resource", async () => {
  const r = await fetch(metadataUrl);
  const m = await r.json();
  if (r.status !== 200) fail(`status ${r.status}`);
  if (m.resource !== resource || m.authorization_servers?.[0] !== issuer || m.scopes_supported?.[0] !== SCOPE)
    fail(`metadata: ${JSON.stringify(m)}`);
});

// ------------------------------------------------------------------ the SDK client's flow
// The redirect URI: a listener that takes the code, as a native client's loopback redirect does.
let landed;
const callback = createServer((req, res) => {
  const url = new URL(req.url, "http://127.0.0.1");
  landed = { code: url.searchParams.get("code"), state: url.searchParams.get("state"), error: url.searchParams.get("error") };
  res.writeHead(200, { "content-type": "text/plain" }).end("You may close this window.");
});
cleanups.push(() => callback.close());
const redirectUrl = `http://127.0.0.1:${await listen(callback)}/callback`;

class TestOAuthProvider {
  stateSent = "state-" + Math.random().toString(36).slice(2);
  authorizationUrl;
  info;
  saved;
  verifier;
  get redirectUrl() {
    return redirectUrl;
  }
  get clientMetadata() {
    return {
      client_name: "mcp-read oauth proof",
      redirect_uris: [redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      application_type: "native",
    };
  }
  state() {
    return this.stateSent;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const authProvider = new TestOAuthProvider();
const mcpUrl = new URL(resource);
await check("SDK client: the first connect is refused (401) and starts the authorization", async () => {
  const client = new Client({ name: "mcp-read-oauth-proof", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider }), { timeout: REQUEST_TIMEOUT_MS });
    fail("connected without a token");
  } catch (e) {
    if (!(e instanceof UnauthorizedError)) throw e;
  }
  const a = authProvider.authorizationUrl;
  if (!a) fail("redirectToAuthorization was not called");
  if (!a.href.startsWith(`${issuer}/auth?`)) fail(`authorization URL ${a.href} is not the provider's`);
  const p = a.searchParams;
  if (p.get("code_challenge_method") !== "S256" || !p.get("code_challenge")) fail(`no S256 PKCE challenge: ${a.href}`);
  if (p.get("resource") !== resource) fail(`resource is ${p.get("resource")}, not ${resource}`);
  if (p.get("scope") !== SCOPE) fail(`scope is ${p.get("scope")}, not ${SCOPE} (from the challenge)`);
  if (!authProvider.info?.client_id) fail("the client did not register (dynamic client registration)");
});
await check("the user logs in and consents at the provider's pages; the code reaches the redirect URI", async () => {
  const steps = await playUser(authProvider.authorizationUrl, redirectUrl);
  if (landed?.error) fail(`error ${landed.error}: ${steps.join(", ")}`);
  if (!landed?.code) fail(`no code: ${steps.join(", ")}`);
  if (landed.state !== authProvider.stateSent) fail(`state ${landed.state}, sent ${authProvider.stateSent}`);
});
await check("SDK client: finishAuth exchanges the code (PKCE verifier) for a JWT bound to mcp-read", async () => {
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider });
  await transport.finishAuth(landed.code);
  const token = authProvider.saved?.access_token;
  if (!token) fail(`no access token: ${JSON.stringify(authProvider.saved)}`);
  const header = jose.decodeProtectedHeader(token);
  const claims = jose.decodeJwt(token);
  if (header.typ !== "at+jwt" || header.kid !== firstKey.kid) fail(`header ${JSON.stringify(header)}`);
  if (claims.iss !== issuer || claims.aud !== resource || claims.sub !== "alice" || !claims.scope?.split(" ").includes(SCOPE))
    fail(`claims ${JSON.stringify(claims)}`);
});
await check("SDK client: connects with the token, lists the tools and reads a file under the root", async () => {
  const client = new Client({ name: "mcp-read-oauth-proof", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider }), { timeout: REQUEST_TIMEOUT_MS });
  try {
    const tools = (await client.listTools(undefined, { timeout: REQUEST_TIMEOUT_MS })).tools.map((t) => t.name);
    if (!tools.includes("read")) fail(`tools: ${tools.join(", ")}`);
    const r = await client.callTool({ name: "read", arguments: { file_path: join(root, "notes.txt") } }, undefined, {
      timeout: REQUEST_TIMEOUT_MS,
    });
    const want = NOTE.trimEnd().split("\n").map((line, i) => `${String(i + 1).padStart(6)}\t${line}`).join("\n");
    const text = r.content?.[0]?.text ?? "";
    if (r.isError || !text.startsWith(want)) fail(`got ${JSON.stringify(r).slice(0, 600)}; want text starting ${JSON.stringify(want)}`);
  } finally {
    await client.close();
  }
  const accepted = "token of sub 'alice' accepted";
  if (!(await logSince(0, (log) => log.includes(accepted))).includes(accepted))
    fail("mcp-read did not log alice's token as accepted");
});

// ------------------------------------------------------------------ refusals
const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
async function post(token) {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const r = await fetch(resource, { method: "POST", headers, body: initialize });
  await r.arrayBuffer();
  return { status: r.status, challenge: r.headers.get("www-authenticate") };
}
// The answer's status and challenge, and (with --log-level debug) why mcp-read refused the token:
// each refusal must be for its own reason, not another check's.
async function expectAnswer(token, status, wantChallenge, why) {
  const logFrom = serverLog.length;
  const r = await post(token);
  if (r.status !== status || r.challenge !== wantChallenge)
    fail(`got ${r.status} with WWW-Authenticate ${JSON.stringify(r.challenge)}; want ${status} with ${JSON.stringify(wantChallenge)}`);
  if (!why) return;
  const said = (await logSince(logFrom, (log) => log.includes(why))).match(/token (?:of sub '[^']*' )?refused: .*/g) ?? [];
  if (!said.some((line) => line.endsWith(why))) fail(`mcp-read's log does not say ${JSON.stringify(why)}: ${JSON.stringify(said)}`);
}
const invalid = `${challenge}, error="invalid_token"`;
const firstPrivate = await jose.importJWK(firstKey, "RS256");
const craft = (claims) =>
  new jose.SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: firstKey.kid, typ: "at+jwt" }).sign(firstPrivate);

const good = await check("a token minted by the provider (client credentials, files:read) is accepted (200)", async () => {
  const token = await mint(issuer, resource, SCOPE);
  await expectAnswer(token, 200, null);
  return token;
});
const goodClaims = typeof good === "string" ? jose.decodeJwt(good) : {};
await check("no token: 401 with the challenge naming resource_metadata and the scope", () => expectAnswer(undefined, 401, challenge));
await check("a token the provider issued for another resource (aud): 401 invalid_token", async () =>
  expectAnswer(await mint(issuer, OTHER_RESOURCE, SCOPE), 401, invalid, `aud does not name ${resource}`),
);
await check("an expired token (2 minutes ago, beyond the 60 s skew) signed with the provider's key: 401 invalid_token", async () =>
  expectAnswer(await craft({ ...goodClaims, iat: nowS() - 420, exp: nowS() - 120 }), 401, invalid, "the token expired"),
);
await check("a token from another issuer, signed with the provider's key: 401 invalid_token", async () =>
  expectAnswer(await craft({ ...goodClaims, iss: "http://127.0.0.1:1" }), 401, invalid,
    "iss is not an accepted authorization server"),
);
await check("a token issued by another real authorization server (not --oauth-issuer): 401 invalid_token", async () => {
  const stranger = await startAuthorizationServer(await signingKey("stranger-key"), () => resource);
  cleanups.push(stranger.close);
  const strangerIssuer = stranger.issuer;
  const t = await mint(strangerIssuer, resource, SCOPE);
  const claims = jose.decodeJwt(t);
  if (claims.iss !== strangerIssuer || claims.aud !== resource) fail(`the stranger's token: ${JSON.stringify(claims)}`);
  await expectAnswer(t, 401, invalid, "iss is not an accepted authorization server");
  stranger.close();
});
await check("an unsigned token (alg none): 401 invalid_token", async () =>
  expectAnswer(new jose.UnsecuredJWT(goodClaims).encode(), 401, invalid, "the JWS algorithm is not accepted"),
);
await check("a provider's token with a tampered signature: 401 invalid_token", async () => {
  const t = await mint(issuer, resource, SCOPE);
  const at = t.lastIndexOf(".") + 20;
  await expectAnswer(t.slice(0, at) + (t[at] === "A" ? "B" : "A") + t.slice(at + 1), 401, invalid,
    `no key of ${issuer} verifies the signature`);
});
await check("a provider's token without files:read (only files:write): 403 insufficient_scope", async () => {
  const t = await mint(issuer, resource, "files:write");
  if (jose.decodeJwt(t).scope !== "files:write") fail(`the token's scope is ${jose.decodeJwt(t).scope}`);
  await expectAnswer(t, 403, `${challenge}, error="insufficient_scope"`, `the scope ${SCOPE} is missing`);
});

// ------------------------------------------------------------------ key rotation
await check("the provider rotates its signing key: a token signed with the new key is accepted", async () => {
  const fetched = `keys of ${issuer} fetched from ${issuer}/jwks`;
  const fetchesBefore = serverLog.split(fetched).length - 1;
  if (fetchesBefore !== 1) fail(`mcp-read fetched the JWKS ${fetchesBefore} times before the rotation, not once`);
  const secondKey = await signingKey("second-key");
  as.rotate(secondKey);
  const jwks = await (await fetch(`${issuer}/jwks`)).json();
  if (jwks.keys?.map((k) => k.kid).join() !== secondKey.kid) fail(`the provider's JWKS: ${JSON.stringify(jwks)}`);
  const t = await mint(issuer, resource, SCOPE);
  if (jose.decodeProtectedHeader(t).kid !== secondKey.kid) fail(`the new token's header: ${JSON.stringify(jose.decodeProtectedHeader(t))}`);
  await expectAnswer(t, 200, null);
  const fetches = (await logSince(0, (log) => log.split(fetched).length > 2)).split(fetched).length - 1;
  if (fetches !== 2) fail(`mcp-read fetched the JWKS ${fetches} times in all, not twice (once more for the new kid)`);
});

// ------------------------------------------------------------------ introspection of opaque tokens
const introspecting = spawn(
  bin,
  ["--transport", "http", "--port", "0", "--oauth-issuer", issuer, "--oauth-client-id", INTROSPECTOR.client_id,
    "--oauth-introspection-cache", "0", "--log-level", "debug", root],
  { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, MCP_READ_OAUTH_CLIENT_SECRET: INTROSPECTOR.client_secret } },
);
cleanups.push(() => introspecting.kill("SIGKILL"));
let introspectingLog = "";
const introspectingPort = await new Promise((res) => {
  const timer = setTimeout(() => res(undefined), 10000);
  introspecting.stderr.on("data", (d) => {
    introspectingLog += d;
    const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(introspectingLog);
    if (m) {
      clearTimeout(timer);
      res(Number(m[1]));
    }
  });
  introspecting.on("exit", () => res(undefined));
});
const introspectionStarted = await check("a second mcp-read with --oauth-client-id (introspection, cache 0) announces its port", () => {
  if (!introspectingPort) fail(`no "listening on" line; stderr:\n${introspectingLog.slice(-2000)}`);
});
if (introspectionStarted) {
  opaqueResource = `http://127.0.0.1:${introspectingPort}/mcp`;
  const opaqueUrl = new URL(opaqueResource);
  const connected = async (token) => {
    const client = new Client({ name: "mcp-read-oauth-proof", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(opaqueUrl, { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
      { timeout: REQUEST_TIMEOUT_MS },
    );
    return client;
  };
  const raw = async (token) => {
    const r = await fetch(opaqueResource, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` },
      body: initialize,
    });
    await r.arrayBuffer();
    return { status: r.status, challenge: r.headers.get("www-authenticate") };
  };
  const opaqueChallenge = `Bearer resource_metadata="http://127.0.0.1:${introspectingPort}/.well-known/oauth-protected-resource/mcp", scope="${SCOPE}"`;
  const opaque = await check("the provider issues an opaque access token (not a JWT) for the introspecting mcp-read", async () => {
    const t = await mint(issuer, opaqueResource, SCOPE);
    if (t.split(".").length === 3) fail(`the token is a JWT: ${JSON.stringify(jose.decodeJwt(t))}`);
    return t;
  });
  await check("the opaque token reads a file: mcp-read introspected it at the provider's introspection endpoint", async () => {
    if (typeof opaque !== "string") fail("no opaque token");
    const client = await connected(opaque);
    try {
      const r = await client.callTool({ name: "read", arguments: { file_path: join(root, "notes.txt") } }, undefined, {
        timeout: REQUEST_TIMEOUT_MS,
      });
      const text = r.content?.[0]?.text ?? "";
      if (r.isError || !text.startsWith(`${String(1).padStart(6)}\talpha:`)) fail(`got ${JSON.stringify(r).slice(0, 600)}`);
    } finally {
      await client.close();
    }
    const found = `opaque tokens are introspected at ${issuer}/token/introspection`;
    if (!introspectingLog.includes(found)) fail(`mcp-read's log does not say ${JSON.stringify(found)}`);
    // No user behind a client-credentials token: the client is the identity, as in the JWT's sub.
    if (!introspectingLog.includes("token of sub 'minter' accepted")) fail("mcp-read did not log the minter's token as accepted");
    if (introspectingLog.includes(INTROSPECTOR.client_secret) || introspectingLog.includes(opaque))
      fail("mcp-read's log shows the client secret or the token");
  });
  await check("an opaque token without files:read (only files:write): 403 insufficient_scope", async () => {
    const r = await raw(await mint(issuer, opaqueResource, "files:write"));
    const want = `${opaqueChallenge}, error="insufficient_scope"`;
    if (r.status !== 403 || r.challenge !== want) fail(`got ${r.status} with ${JSON.stringify(r.challenge)}; want 403 with ${JSON.stringify(want)}`);
  });
  await check("revoked at the provider's revocation endpoint: the next call with it is 401 invalid_token", async () => {
    if (typeof opaque !== "string") fail("no opaque token");
    const before = await raw(opaque);
    if (before.status !== 200) fail(`before the revocation: ${before.status}`);
    await revoke(issuer, opaque);
    const logFrom = introspectingLog.length;
    const after = await raw(opaque);
    const want = `${opaqueChallenge}, error="invalid_token"`;
    if (after.status !== 401 || after.challenge !== want)
      fail(`got ${after.status} with ${JSON.stringify(after.challenge)}; want 401 with ${JSON.stringify(want)}`);
    for (let waited = 0; !introspectingLog.slice(logFrom).includes("token refused: the token is not active") && waited < 2000; waited += 50)
      await new Promise((res) => setTimeout(res, 50));
    if (!introspectingLog.slice(logFrom).includes("token refused: the token is not active"))
      fail(`mcp-read's log does not say the token is not active: ${introspectingLog.slice(logFrom).slice(-500)}`);
  });
}

if (report.failed > 0) console.log(`# mcp-read's log (last lines):\n${serverLog.trimEnd().split("\n").slice(-25).join("\n").replace(/^/gm, "#   ")}`);
finish();
