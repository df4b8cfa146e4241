#pragma once
// What another process holds in memory, and which libraries it has loaded: from /proc/PID on
// Linux (os/process_memory_posix.cpp), from the process's counters and module list on Windows
// (os/process_memory_windows.cpp).
#include <sys/types.h>

#include <string>

namespace mcpread::test {

struct Memory {
  long rss_kib = 0;   // resident: VmRSS; Windows: the working set
  long anon_kib = 0;  // what the process itself wrote (heap, stacks, libraries' data): RssAnon;
                      // Windows: its commit charge (private committed bytes)
  long file_kib = 0;  // pages of mapped files, mostly loaded libraries' code: RssFile; 0 on Windows
  long peak_kib = 0;  // the largest resident set so far: VmHWM; Windows: the peak working set
};

// Zeros when the process cannot be read.
Memory memory_of(pid_t pid);
// Whether a library whose file name contains `name` is loaded in the process.
bool maps_library(pid_t pid, const std::string& name);

}  // namespace mcpread::test
