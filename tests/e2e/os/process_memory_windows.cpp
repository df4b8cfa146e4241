// Memory and loaded libraries of a process: GetProcessMemoryInfo and EnumProcessModulesEx.
#include "../process_memory.hpp"

#include <windows.h>
#include <psapi.h>

#include <cstdio>
#include <memory>
#include <vector>

namespace mcpread::test {

namespace {

struct HandleCloser {
  void operator()(HANDLE h) const { ::CloseHandle(h); }
};
using Process = std::unique_ptr<void, HandleCloser>;

Process open_process(pid_t pid) {
  return Process(::OpenProcess(PROCESS_QUERY_INFORMATION | PROCESS_VM_READ, FALSE, static_cast<DWORD>(pid)));
}

}  // namespace

Memory memory_of(pid_t pid) {
  Memory m;
  const Process process = open_process(pid);
  PROCESS_MEMORY_COUNTERS_EX counters{};
  if (!process || !::GetProcessMemoryInfo(process.get(), reinterpret_cast<PROCESS_MEMORY_COUNTERS*>(&counters),
                                          sizeof counters))
    return m;
  m.rss_kib = static_cast<long>(counters.WorkingSetSize / 1024);
  m.anon_kib = static_cast<long>(counters.PagefileUsage / 1024);  // the commit charge, = PrivateUsage
  m.peak_kib = static_cast<long>(counters.PeakWorkingSetSize / 1024);
  return m;
}

bool maps_library(pid_t pid, const std::string& name) {
  const Process process = open_process(pid);
  if (!process) return false;
  std::vector<HMODULE> modules(512);
  DWORD needed = 0;
  if (!::EnumProcessModulesEx(process.get(), modules.data(), static_cast<DWORD>(modules.size() * sizeof(HMODULE)),
                              &needed, LIST_MODULES_ALL))
    return false;
  modules.resize(std::min<std::size_t>(modules.size(), needed / sizeof(HMODULE)));
  for (const HMODULE module : modules) {
    char base[MAX_PATH] = {};
    if (::GetModuleBaseNameA(process.get(), module, base, sizeof base) > 0 &&
        std::string(base).find(name) != std::string::npos)
      return true;
  }
  return false;
}

}  // namespace mcpread::test
