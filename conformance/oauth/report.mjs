// What oauth.mjs and team.mjs share to report: one `ok - ...` or `not ok - ...` line per check
// (the reason under it, `#   ` before each line), cleanups run once at the end, a last line
// `NAME: N passed, M failed` and the exit status. An uncaught error, or a run that outlasts its
// watchdog, counts as one failed check.
import { CheckError } from "./authorization-server.mjs";

export function startReport(name, timeoutMs) {
  const report = { passed: 0, failed: 0, cleanups: [] };
  let finished = false;
  report.finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(watchdog);
    for (const cleanup of report.cleanups.reverse()) {
      try {
        cleanup();
      } catch {}
    }
    console.log(`${name}: ${report.passed} passed, ${report.failed} failed`);
    process.exit(report.failed === 0 ? 0 : 1);
  };
  // Runs one check: its value (true when it gives none), or undefined when it failed.
  report.check = async (desc, fn) => {
    try {
      const v = await fn();
      console.log(`ok - ${desc}`);
      report.passed++;
      return v ?? true;
    } catch (e) {
      console.log(`not ok - ${desc}`);
      const reason = e instanceof CheckError ? e.message : (e?.stack ?? String(e));
      for (const line of String(reason).split("\n").slice(0, 15)) console.log(`#   ${line}`);
      report.failed++;
      return undefined;
    }
  };
  const failRun = (line) => {
    console.log(line);
    report.failed++;
    report.finish();
  };
  for (const event of ["uncaughtException", "unhandledRejection"])
    process.on(event, (e) => failRun(`not ok - the run completes\n#   ${e?.stack ?? e}`.replace(/\n(?!#)/g, "\n#   ")));
  const watchdog = setTimeout(() => failRun(`not ok - the whole run finishes within ${timeoutMs / 1000} s`), timeoutMs);
  watchdog.unref();
  return report;
}
