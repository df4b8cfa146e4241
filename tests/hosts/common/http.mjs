// Plumbing of the loopback mocks of the model APIs: a server that hands over whole request bodies,
// JSON bodies parsed leniently, and listening on 127.0.0.1.
import http from 'node:http';

/** An HTTP server calling handler(req, res, body) once the whole request body (a Buffer) is in. */
export function bodyServer(handler) {
  return http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks)));
  });
}

/**
 * A request body's JSON: null when the text is empty; when it is not JSON, {unparsed: its first
 * `keepUnparsed` characters}, or null when keepUnparsed is 0.
 */
export function parseJson(text, keepUnparsed = 0) {
  if (!text) return null;
  try { return JSON.parse(text); } catch { return keepUnparsed ? { unparsed: text.slice(0, keepUnparsed) } : null; }
}

/** Listens on 127.0.0.1, port chosen by the system: { port, url, close() } (close drops open connections). */
export async function listenLoopback(server) {
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}
