// Run by node.exe under Wine (scripts/windows/prove-npm.sh): starts COMMAND... with stdio pipes,
// as a host on Windows starts `npx mcp-read DIR`, sends initialize and one read of FILE, and
// writes to OUT what came back and whether it is right. The answers go to a file because Wine
// cannot give node.exe a Unix pipe as its own stdout.
//
//   node.exe npm_session.js VERSION FILE FIRST_LINE OUT COMMAND...   (COMMAND "node": node.exe itself)
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");

const [version, file, firstLine, out, ...command] = process.argv.slice(2);
const exe = command[0] === "node" ? process.execPath : command[0];
const child = spawn(exe, command.slice(1), { stdio: ["pipe", "pipe", "pipe"] });
let stdout = "";
let stderr = "";
const answers = () => stdout.split("\n").filter((l) => l.trim()).map((l) => {
  try { return JSON.parse(l); } catch { return { unparsed: l }; }
});
child.stdout.on("data", (d) => {
  stdout += d;
  if (answers().some((a) => a.id === 2)) child.stdin.end();  // the server ends with its stdin
});
child.stderr.on("data", (d) => (stderr += d));
const send = (m) => child.stdin.write(JSON.stringify(m) + "\n");
send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {
  protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "wine-npm", version: "1" } } });
send({ jsonrpc: "2.0", method: "notifications/initialized" });
send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "read", arguments: { file_path: file } } });
const timer = setTimeout(() => child.kill(), 120000);
child.on("error", (e) => (stderr += `spawn: ${e.message}`));
child.on("close", (code) => {
  clearTimeout(timer);
  const a = answers();
  const init = a.find((x) => x.id === 1);
  const read = a.find((x) => x.id === 2);
  const problems = [];
  if (init?.result?.serverInfo?.version !== version) problems.push(`initialize: no mcp-read ${version}`);
  const text = read?.result?.content?.[0]?.text || "";
  if (read?.result?.isError || !text.includes("     1\t" + firstLine)) problems.push("read: no numbered first line");
  fs.writeFileSync(out, JSON.stringify({ ok: problems.length === 0, problems, code, stdout, stderr }, null, 2));
});
