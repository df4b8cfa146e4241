#pragma once
// Windows only: the stdio transport's side of the console (docs/portability.md). JSON-RPC lines
// need stdin and stdout in binary mode, and the shutdown that SIGINT/SIGTERM start on Linux comes
// from console control events here: Windows has no SIGTERM, and a closed console window, a
// log-off or a shutdown arrive only as events.
#if defined(_WIN32)
#include "mcpread/common/windows_text.hpp"

#include <fcntl.h>
#include <io.h>

#include <atomic>
#include <cstdio>

namespace mcpread::platform::windows {

// Puts stdin and stdout in binary mode; false when either cannot be. In the C runtime's default
// text mode, "\n" goes out as "\r\n", and "\r" is dropped and ^Z ends the input on the way in.
inline bool binary_stdio() {
  return ::_setmode(::_fileno(stdin), _O_BINARY) != -1 && ::_setmode(::_fileno(stdout), _O_BINARY) != -1;
}

// Called, on a thread the system starts, with what happened: "Ctrl-C", "Ctrl-Break", "console
// closed", "log-off" or "shutdown". For the last three Windows ends the process once the handler
// returns (or after about five seconds), so `stop` should return only when the shutdown it starts
// has finished, or is sure to.
using StopFunction = void (*)(const char* why);

namespace console_detail {
inline std::atomic<StopFunction> stop_function{nullptr};

inline const char* event_name(DWORD event) {
  switch (event) {
    case CTRL_C_EVENT: return "Ctrl-C";
    case CTRL_BREAK_EVENT: return "Ctrl-Break";
    case CTRL_CLOSE_EVENT: return "console closed";
    case CTRL_LOGOFF_EVENT: return "log-off";
    case CTRL_SHUTDOWN_EVENT: return "shutdown";
    default: return nullptr;
  }
}

// FALSE hands the event to the next handler (in the end the default one, which exits at once).
inline BOOL WINAPI on_control(DWORD event) {
  const char* why = event_name(event);
  const StopFunction stop = stop_function.load();
  if (why == nullptr || stop == nullptr) return FALSE;
  stop(why);
  return TRUE;
}
}  // namespace console_detail

// Routes console control events to `stop` (nullptr: back to the default, which exits); false
// when the handler cannot be installed.
inline bool on_console_stop(StopFunction stop) {
  console_detail::stop_function.store(stop);
  return ::SetConsoleCtrlHandler(console_detail::on_control, TRUE) != 0;
}

}  // namespace mcpread::platform::windows
#endif
