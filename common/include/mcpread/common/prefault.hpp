#pragma once
// Faults in a large buffer's pages in one system call before it is filled. Buffers of megabytes
// (a file's bytes, an answer's base64) are mappings of their own (the mmap threshold is fixed:
// server/src/main.cpp), so every call gets fresh pages; taking their faults one 4 KiB page at a
// time cost about as much as filling them on this project's (virtual) machines, and
// MADV_POPULATE_WRITE (Linux 5.14) takes them all at once. Only a hint: an older kernel refuses
// it (EINVAL) and the pages fault in as they are written, as before. Windows has no such hint for
// memory about to be written: there the pages fault in as they are written.
#include <cstddef>
#include <cstdint>

#if !defined(_WIN32)
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // glibc before 2.35 does not name it
#endif
#endif

namespace mcpread::common {

// Below this, a buffer comes from the allocator's arenas (already mapped) or is too small to
// matter.
inline constexpr std::size_t prefault_min_bytes = 1024 * 1024;

inline void prefault_for_writing(void* data, std::size_t size) {
#if defined(_WIN32)
  (void)data;
  (void)size;
#else
  if (size < prefault_min_bytes) return;
  static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + size) & ~(page - 1);
  if (end > begin) (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
#endif
}

}  // namespace mcpread::common
