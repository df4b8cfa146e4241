// Memory and loaded libraries of a process, from /proc/PID/status and /proc/PID/maps.
#include "../process_memory.hpp"

#include <fstream>
#include <sstream>

namespace mcpread::test {

Memory memory_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  Memory m;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string key;
    long kib = 0;
    fields >> key >> kib;
    if (key == "VmRSS:") m.rss_kib = kib;
    if (key == "RssAnon:") m.anon_kib = kib;
    if (key == "RssFile:") m.file_kib = kib;
    if (key == "VmHWM:") m.peak_kib = kib;
  }
  return m;
}

bool maps_library(pid_t pid, const std::string& name) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/maps");
  std::string line;
  while (std::getline(in, line))
    if (line.find(name) != std::string::npos) return true;
  return false;
}

}  // namespace mcpread::test
