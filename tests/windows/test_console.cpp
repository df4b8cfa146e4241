// The stdio transport's console side on Windows (common/windows_console.hpp): binary stdio and
// console control events as the way to a clean shutdown.
#include <doctest/doctest.h>

#include <string>

#include "mcpread/common/windows_console.hpp"

using namespace mcpread::platform::windows;

namespace {
HANDLE stopped_event = nullptr;
std::string stopped_why;
void record_stop(const char* why) {
  stopped_why = why;
  ::SetEvent(stopped_event);
}
}  // namespace

TEST_CASE("windows console: stdin and stdout are switched to binary mode") {
  REQUIRE(binary_stdio());
  // _setmode returns the mode it replaces: binary, since binary_stdio() set it.
  CHECK(::_setmode(::_fileno(stdout), _O_BINARY) == _O_BINARY);
  CHECK(::_setmode(::_fileno(stdin), _O_BINARY) == _O_BINARY);
  // A pipe in binary mode carries "\n" as one byte, as a JSON-RPC line needs.
  int fds[2];
  REQUIRE(::_pipe(fds, 4096, _O_BINARY) == 0);
  CHECK(::_write(fds[1], "{}\n", 3) == 3);
  char got[8] = {};
  CHECK(::_read(fds[0], got, sizeof got) == 3);
  CHECK(std::string(got) == "{}\n");
  ::_close(fds[0]);
  ::_close(fds[1]);
}

TEST_CASE("windows console: control events reach the stop function, named") {
  stopped_event = ::CreateEventW(nullptr, TRUE, FALSE, nullptr);
  REQUIRE(stopped_event != nullptr);
  REQUIRE(on_console_stop(record_stop));
  // The handler itself, as the system calls it for each event.
  CHECK(console_detail::on_control(CTRL_CLOSE_EVENT) == TRUE);
  CHECK(stopped_why == "console closed");
  CHECK(console_detail::on_control(CTRL_SHUTDOWN_EVENT) == TRUE);
  CHECK(stopped_why == "shutdown");
  CHECK(console_detail::on_control(0x1234) == FALSE);  // not ours: the next handler's
  ::ResetEvent(stopped_event);
  stopped_why.clear();

  // A real Ctrl-Break sent to this process group, delivered on the system's own thread. A suite
  // run with its output piped has no console: it gets one of its own for this.
  bool sent = ::GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, 0);
  const bool own_console = !sent && ::AllocConsole();
  if (own_console) sent = ::GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, 0);
  if (!sent) {
    MESSAGE("skipped: GenerateConsoleCtrlEvent sends no Ctrl-Break here (error "
            << ::GetLastError() << std::string(own_console ? ", even from a console of its own" : ", and no console could be made")
            << "; Wine 8 does so)");
  } else {
    REQUIRE(::WaitForSingleObject(stopped_event, 10000) == WAIT_OBJECT_0);
    CHECK(stopped_why == "Ctrl-Break");
  }
  // Without a stop function, events go on to the default handler.
  REQUIRE(on_console_stop(nullptr));
  CHECK(console_detail::on_control(CTRL_C_EVENT) == FALSE);
  ::CloseHandle(stopped_event);
}
