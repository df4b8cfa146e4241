#pragma once
// The last large buffer of each sort, kept for the next one. An image's answer takes two buffers
// of megabytes (the file's bytes, the message with their base64); fresh, each costs the kernel a
// mapping, zeroed pages and an unmapping, about a third of a 3.4 MB pass-through's time. While
// the server is busy, the last pair is handed to the next large answer instead; the idle release
// (server/src/app/idle_memory.cpp) drops them, so an idle process holds none, and with the idle
// release off nothing is kept at all. One buffer of each
// sort at most, of 1 to 32 MiB: smaller ones come from the allocator's arenas anyway, and a
// larger one (a 20 MB PDF's base64) is rare enough to map afresh.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace mcpread::common::spare {

inline constexpr std::size_t min_bytes = std::size_t{1} << 20;
inline constexpr std::size_t max_bytes = std::size_t{32} << 20;

template <class Buffer>
class Slot {
 public:
  // An empty buffer with room for `capacity` bytes. *reused says whether it is a kept one (its
  // pages already mapped and written); a kept buffer too small for this one is dropped first, so
  // that the two never add up. A small buffer never touches the kept one.
  Buffer take(std::size_t capacity, bool* reused) {
    *reused = false;
    Buffer dropped;
    if (capacity >= min_bytes) {
      std::lock_guard lock(mutex_);
      if (spare_.capacity() >= capacity) {
        Buffer out = std::move(spare_);
        spare_ = Buffer();
        out.clear();
        *reused = true;
        return out;
      }
      dropped.swap(spare_);
    }
    Buffer().swap(dropped);  // freed before the new one is made, outside the lock
    Buffer out;
    out.reserve(capacity);
    return out;
  }

  // A buffer done with; kept when keeping is on (keep()), its size is in the range and it is
  // larger than the one kept.
  void give_back(Buffer&& buffer) {
    if (!keeping_.load(std::memory_order_relaxed) || buffer.capacity() < min_bytes || buffer.capacity() > max_bytes)
      return;
    Buffer dropped = std::move(buffer);  // freed outside the lock
    std::lock_guard lock(mutex_);
    if (dropped.capacity() > spare_.capacity()) dropped.swap(spare_);
  }

  // Whether buffers given back are kept: only while something drops them when the process is
  // idle (the server's idle release); off, nothing is kept, and what was kept is dropped.
  void keep(bool on) {
    keeping_.store(on, std::memory_order_relaxed);
    if (!on) release();
  }

  // Drops the kept buffer (the idle release). Returns its capacity.
  std::size_t release() {
    Buffer dropped;
    std::lock_guard lock(mutex_);
    dropped.swap(spare_);
    return dropped.capacity();
  }

 private:
  std::mutex mutex_;
  Buffer spare_;
  std::atomic<bool> keeping_{false};
};

// Outgoing messages (protocol::serialize) and files' bytes (readers' whole-file reads).
inline Slot<std::string>& messages() {
  static auto* slot = new Slot<std::string>;  // never destroyed: the idle thread may release it at exit
  return *slot;
}
inline Slot<std::vector<std::uint8_t>>& bytes() {
  static auto* slot = new Slot<std::vector<std::uint8_t>>;
  return *slot;
}

// Drops both kept buffers; the bytes released.
inline std::size_t release_all() { return messages().release() + bytes().release(); }
// Keeping on or off for both (off by default).
inline void keep_all(bool on) {
  messages().keep(on);
  bytes().keep(on);
}

}  // namespace mcpread::common::spare
