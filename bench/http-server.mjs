// What the HTTP benches share: their command line (the binary first, then --name value options)
// and starting mcp-read's HTTP transport on a free loopback port, found in its log.
import { spawn } from "node:child_process";

// { binary, args, option(name, fallback), flag(name) }; exits 2 with `usage` when no binary is given.
export function benchArguments(usage) {
  const args = process.argv.slice(2);
  const binary = args[0];
  if (!binary || binary.startsWith("--")) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : fallback;
  };
  return { binary, args, option, flag: (name) => args.includes(name) };
}

// Starts `binary --transport http --port 0 ...extra`; resolves to { child, port, url } once it
// says where it listens (rejects after 10 s, or if it exits first).
export function startHttpServer(binary, extra) {
  const child = spawn(binary, ["--transport", "http", "--port", "0", ...extra], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no port announced; stderr: ${log}`)), 10000);
    child.stderr.on("data", (d) => {
      log += d;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(log);
      if (m) {
        clearTimeout(timer);
        const port = Number(m[1]);
        resolve({ child, port, url: `http://127.0.0.1:${port}/mcp` });
      }
    });
    child.on("exit", (code) => { clearTimeout(timer); reject(new Error(`server exited (${code}): ${log}`)); });
  });
}
