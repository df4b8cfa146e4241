#!/usr/bin/env node
// Prints the .mcpb manifest for one platform: packaging/mcpb/manifest.json as committed for
// linux, and for win32 the same with the server at server/bin/mcp-read.exe, compatibility
// ["win32"] and the description's last sentence saying what runs on Windows.
//
//   node scripts/release/mcpb-manifest.js linux|win32
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const os = process.argv[2];
const file = path.join(__dirname, "..", "..", "packaging", "mcpb", "manifest.json");
const text = fs.readFileSync(file, "utf8");
if (os === "linux") {
  process.stdout.write(text);
  process.exit(0);
}
if (os !== "win32") {
  console.error("usage: mcpb-manifest.js linux|win32");
  process.exit(2);
}
const m = JSON.parse(text);
const linux = "Runs on Linux (x86_64 and arm64, glibc 2.31 or newer); the bundle holds every library it loads.";
if (!m.long_description.endsWith(linux)) {
  console.error(`mcpb-manifest: ${file}: long_description no longer ends "${linux}"; update this script`);
  process.exit(1);
}
m.long_description = m.long_description.slice(0, -linux.length) +
  "Runs on Windows 10 or later (x64); the bundle holds every DLL it loads. PDFs and OCR are not supported on Windows yet: such reads are answered with an error.";
m.server.entry_point = "server/bin/mcp-read.exe";
m.server.mcp_config.command = "${__dirname}/server/bin/mcp-read.exe";
m.compatibility.platforms = ["win32"];
process.stdout.write(JSON.stringify(m, null, 2) + "\n");
