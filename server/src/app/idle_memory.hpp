#pragma once
// Memory that goes back to idle. mcp-read sits beside a host's other servers for hours; after a
// burst of reads it should hold about what it held before them. Two things stay resident once the
// reads are over: free pages in glibc's arenas (libraries that decode on threads of their own
// leave them spread out), and the code and read-only data of the libraries the reads loaded
// (libvips, poppler and their dependencies: about 30 MB of pages that are copies of files).
// Once no call has run for a while, IdleMemory gives back both: malloc_trim for the first, and
// for the second it unmaps the resident pages of read-only file mappings that hold nothing but
// the file's own bytes, which the kernel keeps in its page cache (shared, reclaimable) and maps
// again on the next touch, at the cost of minor faults.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>

namespace mcpread::server {

class IdleMemory {
 public:
  // The process's one instance; `delay` 0 turns the release off (the first call decides).
  static IdleMemory& instance();

  // While alive, a call is running: no release starts, and one under way finishes first.
  class Activity {
   public:
    explicit Activity(IdleMemory& idle);
    ~Activity();
    Activity(const Activity&) = delete;
    Activity& operator=(const Activity&) = delete;

   private:
    IdleMemory* idle_;
  };

  // Sets the quiet time after the last call before memory is given back (0: never).
  void configure(std::chrono::milliseconds delay);
  ~IdleMemory();

  // What one release gave back, in KiB (for the log and the tests).
  struct Released {
    std::size_t library_kib = 0;
  };
  // Unmaps the resident pages of read-only file mappings that hold only the file's bytes.
  static Released release_library_pages();

 private:
  IdleMemory() = default;
  void enter();
  void leave();
  void run();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::chrono::milliseconds delay_{0};
  std::size_t in_flight_ = 0;
  std::chrono::steady_clock::time_point last_leave_{};  // when the last call ended
  bool waiting_for_calls_ = false;  // the thread waits for the running calls to end
  bool pending_ = false;        // a call ran since the last release
  bool releasing_ = false;
  bool stopping_ = false;
  std::thread thread_;          // started with the first call when a delay is set
};

}  // namespace mcpread::server
