#pragma once
// Work that may crash or loop, run in a forked child: the parsers of old formats written in C and
// C++ (libwv, libfreexl, the librevenge importers, djvulibre) crash on some damaged files, loop on
// others and keep state in globals. In a child, a crash or a hang costs one read, not the server.
//
// The child: crash signals take their default action (a sanitizer's handler in the test builds
// is not the child's to run, and its reports go nowhere), stdout and stderr on /dev/null (stdout
// is the server's MCP channel), every descriptor of the server's closed but the pipe, limits on
// CPU time and address space. It sends back one message (any bytes) and ends with _exit.
// POSIX only: on Windows run() starts nothing and says so. Internal to the readers library.
#include "mcpread/readers/cancel.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace mcpread::readers::child_process {

struct Limits {
  unsigned cpu_seconds = 30;                     // RLIMIT_CPU: the child's CPU time
  std::chrono::milliseconds wall{30000};         // the child's wall time (a child stalled on a lock held at the fork)
  std::uint64_t extra_memory = 2ull << 30;       // address space on top of what the server maps at the fork; 0: no limit
  std::size_t max_message = std::size_t{128} << 20;  // a longer message ends the child
  int keep_descriptor = -1;  // one of the server's descriptors the work uses (a file it opens as /proc/self/fd/N)
};

enum class Ending {
  sent,           // the work returned: `message` is what it sent
  crashed,        // ended by a signal, or by a status other than 0 (a failed allocation's exit)
  out_of_time,    // past Limits::cpu_seconds or Limits::wall
  cancelled,      // the call's cancellation
  too_large,      // the message ran past Limits::max_message
  not_started,    // no pipe or no fork (why: errno's text), or Windows
};

struct Outcome {
  Ending ending = Ending::not_started;
  std::string message;  // Ending::sent
  int signal = 0;       // Ending::crashed by a signal
  int status = 0;       // Ending::crashed by an exit status
  long long seconds = 0;  // Ending::out_of_time: the limit it ran past (CPU or wall)
  std::string why;      // Ending::not_started

  // What a reader says of a child that sent nothing back: "libwv crashed parsing it (signal 11,
  // Segmentation fault)", "libwv took longer than 30 s to parse it", "the read was cancelled",
  // ...: `who` ("libwv") and `doing` ("parsing it") as the clause's subject and object, then
  // `if_crashed` when the child crashed (": the document is damaged; open it in ... and save it
  // as ..."); empty for Ending::sent.
  [[nodiscard]] std::string refusal(std::string_view who, std::string_view doing, const Limits& limits,
                                    std::string_view if_crashed = {}) const;

  // For a child that sends "M" then the file's contents, or "E" when its library cannot open the
  // file (the CHM and Outlook readers): the contents; nullopt with `error` set otherwise, to
  // refusal(who, "reading it", limits, if_crashed), to `cannot_open` for "E", or to `garbled`.
  [[nodiscard]] std::optional<std::string_view> contents(std::string_view who, const Limits& limits,
                                                         std::string_view if_crashed, std::string_view cannot_open,
                                                         std::string_view garbled, std::string* error) const;
};

// What the child runs: the message to send back. An exception out of it ends the child with
// status 2 (a crash, to the parent).
using Work = std::function<std::string()>;

// A reason the child's work gave for refusing a file (a library's error message), fit to go into
// the server's sentence: invalid UTF-8 replaced, control characters (line breaks, tabs, escapes,
// C1 controls) turned into single spaces, blanks trimmed, and no longer than `max_bytes`: cut on
// a character's boundary, with "…" after.
std::string quotable_reason(std::string_view said, std::size_t max_bytes = 300);

// Forks, runs `work` in the child and waits for its message, its end, the limits' end or
// `cancel`. Whatever the work needs that is loaded lazily (a dlopened library) should be loaded
// before the call, so that every child inherits it rather than loading it again.
Outcome run(const Work& work, const Limits& limits, const CancelToken& cancel);

}  // namespace mcpread::readers::child_process
