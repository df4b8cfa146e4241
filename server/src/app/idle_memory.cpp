#include "idle_memory.hpp"

#include "mcpread/common/spare_buffers.hpp"
#include "mcpread/readers/caches.hpp"

#include <spdlog/spdlog.h>
#if defined(_WIN32)
#include <malloc.h>  // _heapmin
#include <windows.h>
#else
#include <sys/mman.h>
#endif
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace mcpread::server {

IdleMemory& IdleMemory::instance() {
  // spdlog's registry is made first: statics are destroyed in the reverse order of their
  // construction, so the idle thread, which logs, is joined before the registry it logs through
  // is torn down at exit (ThreadSanitizer saw the two meet when a release ran as the process ended).
  [[maybe_unused]] static spdlog::logger* const logger_first = spdlog::default_logger_raw();
  static IdleMemory idle;
  return idle;
}

IdleMemory::~IdleMemory() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void IdleMemory::configure(std::chrono::milliseconds delay) {
  std::lock_guard lock(mutex_);
  delay_ = delay;
  // Large buffers are kept for the next large answer only while a release will drop them.
  common::spare::keep_all(delay.count() > 0);
}

IdleMemory::Activity::Activity(IdleMemory& idle) : idle_(&idle) { idle_->enter(); }
IdleMemory::Activity::~Activity() { idle_->leave(); }

void IdleMemory::enter() {
  std::unique_lock lock(mutex_);
  // A release touches the process's mappings; a call that could load a library waits for it
  // (it takes a few milliseconds and happens only after a quiet time).
  changed_.wait(lock, [this] { return !releasing_; });
  ++in_flight_;
  pending_ = true;
  if (delay_.count() > 0 && !thread_.joinable() && !stopping_) thread_ = std::thread([this] { run(); });
}

void IdleMemory::leave() {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    --in_flight_;
    last_leave_ = std::chrono::steady_clock::now();
    // Only a thread waiting for the calls to end is woken: one timing a quiet time reads
    // last_leave_ when its time is up (a wake-up per call cost two context switches a call).
    wake = in_flight_ == 0 && waiting_for_calls_;
  }
  if (wake) changed_.notify_all();
}

void IdleMemory::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    waiting_for_calls_ = true;
    changed_.wait(lock, [this] { return stopping_ || (pending_ && in_flight_ == 0); });
    waiting_for_calls_ = false;
    // Quiet for `delay_` since the last call ended: a call in between moves the end of the wait,
    // one still running when it comes sends this thread back to waiting for the calls to end.
    bool quiet = false;
    while (!stopping_ && in_flight_ == 0) {
      const auto deadline = last_leave_ + delay_;
      if (std::chrono::steady_clock::now() >= deadline) {
        quiet = true;
        break;
      }
      changed_.wait_until(lock, deadline);  // woken early only to stop
    }
    if (!quiet || stopping_) continue;
    releasing_ = true;
    pending_ = false;
    lock.unlock();
    // Before the trim, which returns their pages: the readers' caches, and the large buffers kept
    // for the next large answer (common/spare_buffers.hpp), mappings of their own.
    const std::size_t cached = readers::release_caches();
    const std::size_t spare = common::spare::release_all();
#ifdef __GLIBC__
    malloc_trim(0);
#endif
#if defined(_WIN32)
    // Windows has no malloc_trim: the C runtime's heap gives its free blocks back to the system,
    // then the working set is emptied, the pages still in use coming back as they are touched.
    ::_heapmin();
    ::SetProcessWorkingSetSize(::GetCurrentProcess(), static_cast<SIZE_T>(-1), static_cast<SIZE_T>(-1));
#endif
    const Released released = release_library_pages();
    spdlog::debug("idle: gave back {} KiB of library pages and the allocator's free pages ({} KiB of cached parts and {} KiB of spare buffers dropped)",
                  released.library_kib, cached / 1024, spare / 1024);
    lock.lock();
    releasing_ = false;
    changed_.notify_all();
  }
}

namespace {

struct Mapping {
  unsigned long start = 0;
  unsigned long end = 0;
  bool candidate = false;  // read-only, backed by a file
  std::size_t rss_kib = 0;
  std::size_t anonymous_kib = 0;
};

}  // namespace

IdleMemory::Released IdleMemory::release_library_pages() {
#if defined(_WIN32)
  return {};  // the working set was emptied whole (run())
#else
  // /proc/self/smaps gives each mapping's resident and anonymous sizes. A read-only private file
  // mapping without anonymous pages holds exactly the file's bytes: unmapping its pages loses
  // nothing. One with anonymous pages (relocated data made read-only after loading) is kept whole.
  std::ifstream in("/proc/self/smaps");
  std::vector<Mapping> mappings;
  std::string line;
  while (std::getline(in, line)) {
    unsigned long start = 0, end = 0;
    char perms[8] = {};
    int path_at = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx %7s %*s %*s %*s %n", &start, &end, perms, &path_at) >= 3 &&
        line.find(' ') > line.find('-')) {
      Mapping m;
      m.start = start;
      m.end = end;
      const char* path = path_at > 0 && static_cast<std::size_t>(path_at) <= line.size() ? line.c_str() + path_at : "";
      m.candidate = perms[0] == 'r' && perms[1] != 'w' && perms[3] == 'p' && path[0] == '/';
      mappings.push_back(m);
      continue;
    }
    if (mappings.empty()) continue;
    std::size_t kib = 0;
    if (std::sscanf(line.c_str(), "Rss: %zu kB", &kib) == 1) mappings.back().rss_kib = kib;
    else if (std::sscanf(line.c_str(), "Anonymous: %zu kB", &kib) == 1) mappings.back().anonymous_kib = kib;
  }
  Released released;
  for (const Mapping& m : mappings) {
    if (!m.candidate || m.rss_kib == 0 || m.anonymous_kib != 0) continue;
    if (::madvise(reinterpret_cast<void*>(m.start), m.end - m.start, MADV_DONTNEED) == 0)
      released.library_kib += m.rss_kib;
    else
      spdlog::debug("idle: madvise of {:x}-{:x} failed: {}", m.start, m.end, std::strerror(errno));
  }
  return released;
#endif
}

}  // namespace mcpread::server
