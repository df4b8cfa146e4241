// The authorization server side of oauth.mjs: oidc-provider configured as an MCP client's
// authorization server would be, the tokens a test mints from it, and the user at its pages.
import { createServer } from "node:http";
import * as jose from "jose";
import Provider, { errors as providerErrors } from "oidc-provider";

export const SCOPE = "files:read";
export const OTHER_RESOURCE = "https://other.example/mcp";
const MINTER = { client_id: "minter", client_secret: "minter-secret" };
// mcp-read's own client, with which it introspects opaque tokens (client_secret_basic).
export const INTROSPECTOR = { client_id: "mcp-read", client_secret: "introspector secret/+" };

export class CheckError extends Error {}
export const fail = (msg) => {
  throw new CheckError(msg);
};

export const listen = (server) =>
  new Promise((res, rej) => {
    server.once("error", rej);
    server.listen(0, "127.0.0.1", () => res(server.address().port));
  });

// A private RS256 JWK with its kid, as oidc-provider's `jwks` takes it.
export async function signingKey(kid) {
  const { privateKey } = await jose.generateKeyPair("RS256", { extractable: true });
  return { ...(await jose.exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };
}

// oidc-provider with dynamic client registration, PKCE required, resource indicators giving
// JWT access tokens (aud = the resource) for mcp-read's resource (resource(), known once mcp-read
// listens) and OTHER_RESOURCE, and opaque access tokens for the resource of a second mcp-read
// that introspects them (opaqueResource()), each with the scopes files:read and files:write, its
// development login and consent pages, a confidential client "minter" for client credentials,
// token introspection and revocation (RFC 7662, RFC 7009), and mcp-read's client to introspect.
function makeProvider(issuer, key, resource, opaqueResource) {
  return new Provider(issuer, {
    jwks: { keys: [key] },
    clients: [
      {
        ...MINTER,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: "client_secret_basic",
      },
      {
        ...INTROSPECTOR,
        grant_types: [],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    scopes: ["openid", "offline_access", SCOPE, "files:write"],
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      // mcp-read may introspect any token; a client revokes only its own.
      introspection: { enabled: true, allowedPolicy: (_ctx, client) => client.clientId === INTROSPECTOR.client_id },
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf ?? resource(),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator === opaqueResource() && indicator !== undefined)
            return { scope: `${SCOPE} files:write`, audience: indicator, accessTokenTTL: 300, accessTokenFormat: "opaque" };
          if (indicator !== resource() && indicator !== OTHER_RESOURCE) throw new providerErrors.InvalidTarget();
          return {
            scope: `${SCOPE} files:write`,
            audience: indicator,
            accessTokenTTL: 300,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "RS256" } },
          };
        },
      },
    },
    pkce: { required: () => true },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    cookies: { keys: ["oauth-proof-cookie-key"] },
    // Given, so that the provider does not print a notice for each default it uses.
    ttl: {
      AccessToken: 300,
      AuthorizationCode: 60,
      ClientCredentials: 300,
      Grant: 600,
      IdToken: 300,
      Interaction: 600,
      RefreshToken: 600,
      Session: 600,
    },
  });
}

// A provider on 127.0.0.1 (a free port, which names the issuer). rotate(key) puts a new provider
// with only that key on the same port, hence the same issuer: a key rotation.
export async function startAuthorizationServer(key, resource, opaqueResource = () => undefined) {
  let handler;
  const server = createServer((req, res) => handler(req, res));
  const issuer = `http://127.0.0.1:${await listen(server)}`;
  const use = (k) => {
    handler = makeProvider(issuer, k, resource, opaqueResource).callback();
  };
  use(key);
  return { issuer, rotate: use, close: () => server.close() };
}

// An access token from the provider's token endpoint (client credentials).
export async function mint(issuer, resource, scope) {
  const r = await fetch(`${issuer}/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: "Basic " + Buffer.from(`${MINTER.client_id}:${MINTER.client_secret}`).toString("base64"),
    },
    body: new URLSearchParams({ grant_type: "client_credentials", resource, scope }).toString(),
  });
  const body = await r.json();
  if (r.status !== 200 || !body.access_token) fail(`the provider's token endpoint answered ${r.status}: ${JSON.stringify(body)}`);
  return body.access_token;
}

// Revokes a token the minter holds at the provider's revocation endpoint (RFC 7009).
export async function revoke(issuer, token) {
  const r = await fetch(`${issuer}/token/revocation`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: "Basic " + Buffer.from(`${MINTER.client_id}:${MINTER.client_secret}`).toString("base64"),
    },
    body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
  });
  if (r.status !== 200) fail(`the provider's revocation endpoint answered ${r.status}: ${await r.text()}`);
}

// The user at the browser: from the authorization URL, follows redirects with the cookies set,
// fills the login form (the development pages take any login and password) and the consent
// form, until the browser lands on redirectUrl. Returns the steps taken.
export async function playUser(start, redirectUrl, login = "alice") {
  const jar = new Map();
  let url = new URL(start);
  let method = "GET";
  let body;
  const steps = [];
  for (let step = 0; step < 20; step++) {
    const headers = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") };
    if (body) headers["content-type"] = "application/x-www-form-urlencoded";
    const r = await fetch(url, { method, headers, body, redirect: "manual" });
    steps.push(`${method} ${url.pathname} -> ${r.status}`);
    for (const c of r.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === "") jar.delete(name);
      else jar.set(name, value);
    }
    method = "GET";
    body = undefined;
    if (r.status >= 300 && r.status < 400) {
      url = new URL(r.headers.get("location"), url);
      continue;
    }
    const html = await r.text();
    if (url.href.startsWith(redirectUrl)) return steps;
    if (r.status !== 200) fail(`${steps.join(", ")}: ${html.slice(0, 500)}`);
    const form = /<form[^>]*action="([^"]+)"[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/.exec(html);
    if (!form) fail(`no form on ${url.href}: ${html.slice(0, 500)}`);
    const prompt = /name="prompt" value="([^"]+)"/.exec(form[2])?.[1];
    const fields = new URLSearchParams({ prompt });
    if (prompt === "login") {
      fields.set("login", login);
      fields.set("password", "any password");
    }
    steps.push(`(the ${prompt} form)`);
    url = new URL(form[1].replace(/&amp;/g, "&"), url);
    method = "POST";
    body = fields.toString();
  }
  fail(`the redirect URI was never reached: ${steps.join(", ")}`);
}
