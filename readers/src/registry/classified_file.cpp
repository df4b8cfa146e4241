#include "registry/classified_file.hpp"

#include "file_io.hpp"
#include "lru_cache.hpp"
#include "mcpread/readers/utf8.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <span>

namespace mcpread::readers {

std::optional<ClassifiedFile> classify_file(const OpenedFile& file, std::string* error, bool nowait) {
  ClassifiedFile out;
  // No more than the file holds (one byte more, in case it grew): a small file's head is not
  // zero-filled to 64 KiB first.
  out.head.resize(static_cast<std::size_t>(
      std::min<std::uint64_t>(classify_head_bytes, static_cast<std::uint64_t>(std::max<off_t>(file.st.st_size, 0)) + 1)));
  const auto got = nowait ? file_io::pread_full_cached(file.fd.get(), out.head.data(), out.head.size(), 0)
                          : file_io::pread_full(file.fd.get(), out.head.data(), out.head.size(), 0);
  if (!got) {
    const int err = errno;  // kept for the caller (EAGAIN: not cached)
    *error = utf8::sanitized(std::strerror(err));
    errno = err;
    return std::nullopt;
  }
  out.head.resize(*got);
  out.classification =
      classify(file.path.filename().string(),
               std::span(reinterpret_cast<const unsigned char*>(out.head.data()), out.head.size()),
               static_cast<std::uint64_t>(file.st.st_size));
  return out;
}

namespace {

// The classifications of the 512 files read last: a few hundred bytes each.
LruCache<Classification>& classifications() {
  // Never destroyed: the idle-memory thread may release it while static destructors run at exit.
  static auto* const cache = new LruCache<Classification>(1u << 20, 512);
  return *cache;
}

}  // namespace

std::optional<Classification> classify_opened(const OpenedFile& file, std::string* error, bool nowait) {
  // The name is part of the key: the same bytes named a.png and a.txt classify differently.
  const std::string key = file_io::identity_key(file) + "/" + file.path.filename().string();
  if (auto known = classifications().find(key)) return known;
  auto classified = classify_file(file, error, nowait);
  if (!classified) return std::nullopt;
  const Classification& c = classified->classification;
  classifications().put(key, c, 64 + key.size() + c.mime.size() + c.description.size());
  return std::move(classified->classification);
}

std::size_t release_classifications() { return classifications().clear(); }

}  // namespace mcpread::readers
