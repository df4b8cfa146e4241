#include "sheets/xls_probe.hpp"

#if defined(_WIN32)

namespace mcpread::readers::sheets {
bool probe_freexl_open(FreexlOpen, FreexlClose, int, const std::string&, const std::string&, std::string*) { return true; }
}  // namespace mcpread::readers::sheets

#else

#include "child_process.hpp"
#include "lru_cache.hpp"

namespace mcpread::readers::sheets {

namespace {

// The identities of the files a child opened unharmed: a model reads a workbook a page or a sheet
// a call, and the fork is most of a small workbook's read. Never destroyed (a read may run while
// the process exits).
LruCache<bool>& probed() {
  static auto* files = new LruCache<bool>(SIZE_MAX, 1024);
  return *files;
}

}  // namespace

bool probe_freexl_open(FreexlOpen open, FreexlClose close, int fd, const std::string& path,
                       const std::string& identity, std::string* error) {
  if (!identity.empty() && probed().find(identity)) return true;
  child_process::Limits limits;
  limits.cpu_seconds = 10;
  limits.wall = std::chrono::seconds(30);  // a child stalled without using CPU (a lock held at the fork)
  limits.keep_descriptor = fd;             // `path` names it (/proc/self/fd/N)
  const child_process::Outcome child = child_process::run(
      [&] {
        const void* handle = nullptr;
        open(path.c_str(), &handle);
        if (handle != nullptr) close(handle);
        return std::string();
      },
      limits, CancelToken{});
  switch (child.ending) {
    case child_process::Ending::sent:
      if (!identity.empty()) probed().put(identity, true, 1);
      return true;
    case child_process::Ending::not_started:  // no pipe or no child to be had: the open is not probed
      return true;
    case child_process::Ending::crashed:
      *error = child.clause("libfreexl", "opening it", limits) +
               ": the workbook is damaged; open it in Excel or LibreOffice and save it as .xlsx";
      return false;
    default:
      *error = child.clause("libfreexl", "opening it", limits);
      return false;
  }
}

}  // namespace mcpread::readers::sheets

#endif
