#!/usr/bin/env node
// Starts the native mcp-read of this machine's platform package. npm installs only the optional
// dependency whose `os`/`cpu` match (the way esbuild and sharp ship native code), so this file
// just finds it and runs its bin/mcp-read (bin\mcp-read.exe on Windows) with our arguments and
// stdio, passing signals on and its exit status back. Plain Node, no dependencies: it runs
// before anything else could load.
"use strict";

const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const PLATFORM_PACKAGES = {
  "linux-x64": "@mcp-read/linux-x64",
  "linux-arm64": "@mcp-read/linux-arm64",
  "win32-x64": "@mcp-read/win32-x64",
};
// The Linux bundles are built against Debian bullseye's glibc; older or other C libraries cannot
// load them. The Windows one needs Windows 10 or later (libvips imports bcryptprimitives.dll).
const MIN_GLIBC = [2, 31];
const REQUIRES = { linux: `glibc ${MIN_GLIBC.join(".")} or newer`, win32: "Windows 10 or later" };
// Those this system knows (Windows has no SIGQUIT or SIGUSR2, and a SIGBREAK of its own).
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR2", "SIGBREAK"]
  .filter((s) => s in require("node:os").constants.signals);

function sourceHint() {
  let repo = "";
  try {
    const own = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8"));
    repo = own.homepage || "";
  } catch {
    // The hint below still says what to do.
  }
  return `build it from source instead (Debian bookworm: bash scripts/serve.sh; other systems: docs/portability.md)${repo ? ": " + repo : ""}`;
}

// Exits with one line naming what is supported; status 1 (the host shows the line).
function unsupported(what) {
  const supported = Object.entries(REQUIRES).map(([os, needs]) =>
    Object.keys(PLATFORM_PACKAGES).filter((k) => k.startsWith(os + "-")).join(", ") + ` (${needs})`).join(", ");
  process.stderr.write(`mcp-read: ${what}; prebuilt binaries exist for ${supported} — ${sourceHint()}\n`);
  process.exit(1);
}

// The platform key, e.g. "linux-x64". MCP_READ_LAUNCHER_TEST_PLATFORM stands in for the real one in
// the package's own tests (an unsupported platform cannot be run here otherwise).
function platformKey() {
  return process.env.MCP_READ_LAUNCHER_TEST_PLATFORM || `${process.platform}-${process.arch}`;
}

// "2.36" on glibc, "" on musl and other C libraries (Node reports only glibc's version).
function glibcVersion() {
  try {
    process.report.excludeNetwork = true;  // skips DNS look-ups the report would otherwise make
    return process.report.getReport().header.glibcVersionRuntime || "";
  } catch {
    return "";
  }
}

function checkLibc(key) {
  if (!key.startsWith("linux-") || process.env.MCP_READ_LAUNCHER_TEST_PLATFORM) return;
  const version = glibcVersion();
  if (!version) unsupported(`this Linux does not use glibc (musl, e.g. Alpine, cannot run the prebuilt ${key} binary)`);
  const [major, minor] = version.split(".").map(Number);
  if (major < MIN_GLIBC[0] || (major === MIN_GLIBC[0] && minor < MIN_GLIBC[1]))
    unsupported(`this system's glibc ${version} is older than ${MIN_GLIBC.join(".")}`);
}

function binaryPath(key) {
  const pkg = PLATFORM_PACKAGES[key];
  if (!pkg) unsupported(`no prebuilt binary for ${key}`);
  checkLibc(key);
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    unsupported(`the package ${pkg} for ${key} is not installed (was npm run with --no-optional or --omit=optional?)`);
  }
  // Windows has no execute permission to check (X_OK means F_OK there): the .exe must exist.
  const windows = key.startsWith("win32-");
  const bin = path.join(dir, "bin", windows ? "mcp-read.exe" : "mcp-read");
  try {
    fs.accessSync(bin, windows ? fs.constants.F_OK : fs.constants.X_OK);
  } catch (e) {
    unsupported(`${bin} cannot be run (${e.code || e.message})`);
  }
  return bin;
}

function run() {
  const bin = binaryPath(platformKey());
  // A host stops a server by signalling the process it started: this one. Pass it on; the
  // child's own exit then ends us with its status. The handlers come first, so that a signal
  // arriving while the child starts is not the default one that would kill us alone.
  let child = null;
  const pending = [];
  const forward = (signal) => {
    if (child === null) pending.push(signal);
    else if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of SIGNALS) process.on(signal, forward);
  child = spawn(bin, process.argv.slice(2), { stdio: "inherit" });
  for (const signal of pending) forward(signal);
  child.on("error", (e) => unsupported(`${bin} could not be started (${e.code || e.message})`));
  child.on("exit", (code, signal) => {
    if (signal) {
      // Die of the same signal, so that our parent sees what the server saw.
      for (const s of SIGNALS) process.removeAllListeners(s);
      process.kill(process.pid, signal);
      process.exit(128 + (require("node:os").constants.signals[signal] || 0));
    }
    process.exit(code ?? 1);
  });
}

run();
