#include "package/zip_archive.hpp"

#include "human_size.hpp"
#include "member_name.hpp"
#include "package/part_cache.hpp"
#include "package/raw_inflate.hpp"
#include "mcpread/common/lazy_library.hpp"
#include "mcpread/readers/utf8.hpp"

#include <zip.h>

#include <unistd.h>

#include <algorithm>

namespace mcpread::readers::package {
namespace {

struct Api {
  decltype(&::zip_fdopen) fdopen = nullptr;
  decltype(&::zip_source_buffer_create) source_buffer = nullptr;
  decltype(&::zip_source_free) source_free = nullptr;
  decltype(&::zip_open_from_source) open_source = nullptr;
  decltype(&::zip_discard) discard = nullptr;
  decltype(&::zip_get_num_entries) num_entries = nullptr;
  decltype(&::zip_stat_index) stat_index = nullptr;
  decltype(&::zip_fopen_index) fopen_index = nullptr;
  decltype(&::zip_fread) fread = nullptr;
  decltype(&::zip_fclose) fclose = nullptr;
  decltype(&::zip_get_error) get_error = nullptr;
  decltype(&::zip_file_get_error) file_error = nullptr;
  decltype(&::zip_error_init_with_code) error_init = nullptr;
  decltype(&::zip_error_strerror) error_text = nullptr;
  decltype(&::zip_error_fini) error_fini = nullptr;
  decltype(&::zip_error_code_zip) error_code = nullptr;
};

const Api* api(std::string* error) {
  static const LazyLibrary<Api> lib(
      {.needs = "reading office documents needs libzip (Debian package libzip4)", .candidates = {"libzip.so.4"}},
      [](SymbolBinder& bind, Api& a) {
        return bind(&a.fdopen, "zip_fdopen") && bind(&a.source_buffer, "zip_source_buffer_create") &&
               bind(&a.source_free, "zip_source_free") && bind(&a.open_source, "zip_open_from_source") &&
               bind(&a.discard, "zip_discard") && bind(&a.num_entries, "zip_get_num_entries") &&
               bind(&a.stat_index, "zip_stat_index") && bind(&a.fopen_index, "zip_fopen_index") &&
               bind(&a.fread, "zip_fread") && bind(&a.fclose, "zip_fclose") &&
               bind(&a.get_error, "zip_get_error") && bind(&a.file_error, "zip_file_get_error") &&
               bind(&a.error_init, "zip_error_init_with_code") && bind(&a.error_text, "zip_error_strerror") &&
               bind(&a.error_fini, "zip_error_fini") && bind(&a.error_code, "zip_error_code_zip");
      });
  return lib.get(error);
}

// The table, once an archive is open (so loaded).
const Api& opened() { return *api(nullptr); }

std::string code_text(int code) {
  const Api& a = opened();
  zip_error_t e;
  a.error_init(&e, code);
  std::string out = utf8::sanitized(a.error_text(&e));
  a.error_fini(&e);
  return out;
}

}  // namespace

struct ZipArchive::Handle {
  zip_t* zip = nullptr;
};

std::unique_ptr<ZipArchive> ZipArchive::open_fd(int fd, const ZipLimits& limits, std::string* error) {
  const Api* loaded = api(error);
  if (loaded == nullptr) return nullptr;
  const Api& a = *loaded;
  const int own = ::dup(fd);
  if (own < 0) {
    *error = "the file descriptor cannot be duplicated";
    return nullptr;
  }
  int code = 0;
  zip_t* z = a.fdopen(own, ZIP_RDONLY, &code);
  if (z == nullptr) {
    ::close(own);
    *error = "it is not a readable zip archive (" + code_text(code) + ")";
    return nullptr;
  }
  return finish(new Handle{z}, limits, error);
}

std::unique_ptr<ZipArchive> ZipArchive::open_memory(std::string_view bytes, const ZipLimits& limits,
                                                    std::string* error) {
  const Api* loaded = api(error);
  if (loaded == nullptr) return nullptr;
  const Api& a = *loaded;
  zip_error_t e;
  a.error_init(&e, 0);
  zip_source_t* src = a.source_buffer(bytes.data(), bytes.size(), 0, &e);
  zip_t* z = src == nullptr ? nullptr : a.open_source(src, ZIP_RDONLY, &e);
  if (z == nullptr) {
    if (src != nullptr) a.source_free(src);
    *error = "it is not a readable zip archive (" + utf8::sanitized(a.error_text(&e)) + ")";
    a.error_fini(&e);
    return nullptr;
  }
  a.error_fini(&e);
  return finish(new Handle{z}, limits, error);
}

std::unique_ptr<ZipArchive> ZipArchive::finish(Handle* handle, const ZipLimits& limits, std::string* error) {
  const Api& a = opened();
  std::unique_ptr<ZipArchive> archive(new ZipArchive(handle, limits));
  const zip_int64_t n = a.num_entries(handle->zip, 0);
  if (n < 0 || static_cast<std::uint64_t>(n) > limits.max_entries) {
    *error = "its zip archive holds " + std::to_string(n) + " entries, more than the " +
             std::to_string(limits.max_entries) + " a document is allowed";
    return nullptr;
  }
  archive->entries_.reserve(static_cast<std::size_t>(n));
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    if (a.stat_index(handle->zip, static_cast<zip_uint64_t>(i), 0, &st) != 0 || (st.valid & ZIP_STAT_NAME) == 0)
      continue;
    ZipEntry entry{utf8::sanitized(st.name), (st.valid & ZIP_STAT_SIZE) ? st.size : 0,
                   (st.valid & ZIP_STAT_COMP_SIZE) ? st.comp_size : 0,
                   (st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE,
                   static_cast<std::uint64_t>(i), false, std::nullopt};
    entry.deflated = (st.valid & ZIP_STAT_COMP_METHOD) != 0 && st.comp_method == ZIP_CM_DEFLATE;
    if ((st.valid & ZIP_STAT_CRC) != 0) entry.crc = st.crc;
    if (member_name_escapes(entry.name)) {  // never held by a package
      *error = "its zip archive holds an entry named \"" + entry.name +
               "\", which points outside the package; such a file is refused";
      return nullptr;
    }
    archive->entries_.push_back(std::move(entry));
  }
  return archive;
}

ZipArchive::~ZipArchive() {
  if (handle_ != nullptr && handle_->zip != nullptr) opened().discard(handle_->zip);
  delete handle_;
}

const ZipEntry* ZipArchive::find(std::string_view name) const {
  for (const auto& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

std::optional<std::string> ZipArchive::read(std::string_view name, std::string* error, std::uint64_t cap) {
  std::size_t index = 0;
  while (index < entries_.size() && entries_[index].name != name) ++index;
  const std::string quoted = "\"" + std::string(name) + "\"";
  if (index == entries_.size()) {
    *error = "its package has no " + quoted;
    return std::nullopt;
  }
  const ZipEntry& entry = entries_[index];
  if (entry.encrypted) {
    *error = quoted + " is encrypted (password-protected)";
    return std::nullopt;
  }
  const std::uint64_t limit = cap != 0 ? std::min(cap, limits_.max_entry_bytes) : limits_.max_entry_bytes;
  if (entry.size > limit) {
    *error = quoted + " unpacks to " + human_size(entry.size) + ", over the " + human_size(limit) + " limit";
    return std::nullopt;
  }
  if (entry.size > (1u << 20) && entry.size / std::max<std::uint64_t>(entry.compressed_size, 1) > limits_.max_ratio) {
    *error = quoted + " is compressed " + std::to_string(entry.size / std::max<std::uint64_t>(entry.compressed_size, 1)) +
             " to 1, over the ratio of " + std::to_string(limits_.max_ratio) + " allowed (a zip bomb?)";
    return std::nullopt;
  }
  if (total_ + entry.size > limits_.max_total_bytes) {
    *error = "the entries read unpack to more than the " + human_size(limits_.max_total_bytes) +
             " allowed for one document";
    return std::nullopt;
  }
  const std::uint64_t room = limits_.max_total_bytes - total_;
  if (!cache_key_.empty() && entry.size <= PartCache::kMaxPart) {
    auto bytes = inflate_cached(entry, limit, room, error);
    if (bytes == nullptr) return std::nullopt;
    total_ += bytes->size();
    return std::string(*bytes);
  }
  auto out = inflate(entry, limit, room, error);
  if (out) total_ += out->size();
  return out;
}

std::optional<std::string> ZipArchive::inflate(const ZipEntry& entry, std::uint64_t limit, std::uint64_t room,
                                               std::string* error) {
  if (auto whole = inflate_whole(entry, std::min(limit, room))) return whole;
  const Api& a = opened();
  const std::string quoted = "\"" + entry.name + "\"";
  zip_file_t* f = a.fopen_index(handle_->zip, entry.index, 0);
  if (f == nullptr) {
    const int code = a.error_code(a.get_error(handle_->zip));
    *error = code == ZIP_ER_NOPASSWD || code == ZIP_ER_WRONGPASSWD
                 ? quoted + " is encrypted (password-protected)"
                 : quoted + " cannot be opened (" + utf8::sanitized(a.error_text(a.get_error(handle_->zip))) + ")";
    return std::nullopt;
  }
  // The declared size may lie: inflate no more than the limit allows, whatever it says. Inflated
  // straight into the string (one byte past the declared size, to see whether more comes).
  const std::uint64_t most = std::min({limit, room, UINT64_MAX - 1}) + 1;
  std::string out(static_cast<std::size_t>(std::min(entry.size, most - 1) + 1), '\0');
  std::size_t used = 0;
  for (;;) {
    if (used == out.size()) out.resize(static_cast<std::size_t>(std::min<std::uint64_t>(out.size() + (64u << 10), most)));
    const zip_int64_t got = a.fread(f, out.data() + used, std::min<std::size_t>(out.size() - used, 1u << 20));
    if (got < 0) {
      *error = quoted + " is corrupt (" + utf8::sanitized(a.error_text(a.file_error(f))) + ")";
      a.fclose(f);
      return std::nullopt;
    }
    if (got == 0) break;
    used += static_cast<std::size_t>(got);
    if (used > limit || used > room) {
      out.resize(used);
      *error = out.size() > limit ? quoted + " unpacks to more than the " + human_size(limit) + " limit (more than it declares)"
                                  : "the entries read unpack to more than the " + human_size(limits_.max_total_bytes) +
                                        " allowed for one document";
      a.fclose(f);
      return std::nullopt;
    }
  }
  a.fclose(f);
  out.resize(used);
  return out;
}

// A deflated entry of at most `most` bytes, its compressed bytes read raw and inflated in one call
// (package/raw_inflate.hpp). nullopt for any other entry and on any failure: the streaming path
// through libzip then reads it, and says what is wrong in its own words.
std::optional<std::string> ZipArchive::inflate_whole(const ZipEntry& entry, std::uint64_t most) {
  // Deflate never expands data by more than a few bytes per 16 KiB block: a larger claim is odd.
  if (!entry.deflated || entry.encrypted || !entry.crc || entry.size > most ||
      entry.compressed_size > entry.size + entry.size / 8 + 4096)
    return std::nullopt;
  const Api& a = opened();
  zip_file_t* f = a.fopen_index(handle_->zip, entry.index, ZIP_FL_COMPRESSED);
  if (f == nullptr) return std::nullopt;
  // One byte more than declared, to see that the data ends where it says.
  std::string deflated(static_cast<std::size_t>(entry.compressed_size) + 1, '\0');
  std::size_t used = 0;
  while (used < deflated.size()) {
    const zip_int64_t got = a.fread(f, deflated.data() + used, deflated.size() - used);
    if (got <= 0) break;
    used += static_cast<std::size_t>(got);
  }
  a.fclose(f);
  if (used != entry.compressed_size) return std::nullopt;
  std::string why;
  return inflate_raw(std::string_view(deflated.data(), used), entry.size, *entry.crc, &why);
}

std::shared_ptr<const std::string> ZipArchive::inflate_cached(const ZipEntry& entry, std::uint64_t limit,
                                                              std::uint64_t room, std::string* error) {
  PartCache& cache = PartCache::instance();
  if (auto hit = cache.get(cache_key_, entry.name); hit != nullptr) {
    if (hit->size() <= limit && hit->size() <= room) return hit;
    *error = hit->size() > limit ? "\"" + entry.name + "\" unpacks to more than the " + human_size(limit) + " limit"
                                 : "the entries read unpack to more than the " + human_size(limits_.max_total_bytes) +
                                       " allowed for one document";
    return nullptr;
  }
  // An entry declaring a small size is never inflated past kMaxPart into memory, whatever it holds.
  auto out = inflate(entry, std::min<std::uint64_t>(limit, PartCache::kMaxPart), room, error);
  if (!out) return nullptr;
  auto bytes = std::make_shared<const std::string>(std::move(*out));
  cache.put(cache_key_, entry.name, bytes);
  return bytes;
}

std::shared_ptr<const std::string> ZipArchive::held(std::string_view name, std::string* error) {
  const ZipEntry* entry = find(name);
  if (cache_key_.empty() || entry == nullptr || entry->encrypted || entry->size > PartCache::kMaxPart) return nullptr;
  const std::uint64_t compressed = std::max<std::uint64_t>(entry->compressed_size, 1);
  const auto over_ratio = [&](std::uint64_t size) { return size > (1u << 20) && size / compressed > limits_.max_ratio; };
  if (over_ratio(entry->size)) return nullptr;
  auto bytes = inflate_cached(*entry, limits_.max_streamed_bytes, UINT64_MAX, error);
  if (bytes != nullptr && over_ratio(bytes->size())) {
    *error = "\"" + entry->name + "\" is compressed more than " + std::to_string(limits_.max_ratio) +
             " to 1 (more than it declares; a zip bomb?)";
    return nullptr;
  }
  return bytes;
}

bool ZipArchive::stream(std::string_view name, const std::function<bool(std::string_view)>& sink,
                        std::string* error) {
  const Api& a = opened();
  const ZipEntry* entry = find(name);
  const std::string quoted = "\"" + std::string(name) + "\"";
  if (entry == nullptr) {
    *error = "its package has no " + quoted;
    return false;
  }
  if (entry->encrypted) {
    *error = quoted + " is encrypted (password-protected)";
    return false;
  }
  const std::uint64_t limit = limits_.max_streamed_bytes;
  const std::uint64_t compressed = std::max<std::uint64_t>(entry->compressed_size, 1);
  const auto over_ratio = [&](std::uint64_t size) { return size > (1u << 20) && size / compressed > limits_.max_ratio; };
  if (entry->size > limit || over_ratio(entry->size)) {
    *error = entry->size > limit ? quoted + " unpacks to " + human_size(entry->size) + ", over the " + human_size(limit) + " limit"
                                 : quoted + " is compressed " + std::to_string(entry->size / compressed) +
                                       " to 1, over the ratio of " + std::to_string(limits_.max_ratio) + " allowed (a zip bomb?)";
    return false;
  }
  if (!cache_key_.empty() && entry->size <= PartCache::kMaxPart) {
    const auto bytes = held(name, error);
    if (bytes == nullptr) return false;
    for (std::size_t at = 0; at < bytes->size(); at += 64 * 1024)
      if (!sink(std::string_view(*bytes).substr(at, 64 * 1024))) break;
    return true;
  }
  zip_file_t* f = a.fopen_index(handle_->zip, entry->index, 0);
  if (f == nullptr) {
    const int code = a.error_code(a.get_error(handle_->zip));
    *error = code == ZIP_ER_NOPASSWD || code == ZIP_ER_WRONGPASSWD
                 ? quoted + " is encrypted (password-protected)"
                 : quoted + " cannot be opened (" + utf8::sanitized(a.error_text(a.get_error(handle_->zip))) + ")";
    return false;
  }
  // The declared sizes may lie: the limits apply to what comes out, whatever they say.
  std::uint64_t done = 0;
  std::vector<char> buffer(64 * 1024);
  bool ok = true;
  for (;;) {
    const zip_int64_t got = a.fread(f, buffer.data(), buffer.size());
    if (got < 0) {
      *error = quoted + " is corrupt (" + utf8::sanitized(a.error_text(a.file_error(f))) + ")";
      ok = false;
      break;
    }
    if (got == 0) break;
    done += static_cast<std::uint64_t>(got);
    if (done > limit || over_ratio(done)) {
      *error = done > limit ? quoted + " unpacks to more than the " + human_size(limit) + " limit (more than it declares)"
                            : quoted + " is compressed more than " + std::to_string(limits_.max_ratio) +
                                  " to 1 (more than it declares; a zip bomb?)";
      ok = false;
      break;
    }
    if (!sink(std::string_view(buffer.data(), static_cast<std::size_t>(got)))) break;
  }
  a.fclose(f);
  return ok;
}

std::string resolve_part(std::string_view base_folder, std::string_view target) {
  if (target.find("://") != std::string_view::npos || target.starts_with("mailto:")) return {};
  std::string path;
  if (target.starts_with('/')) target.remove_prefix(1);
  else path = std::string(base_folder);
  std::vector<std::string> parts;
  auto add = [&](std::string_view s) {
    for (std::size_t at = 0; at <= s.size();) {
      std::size_t end = s.find('/', at);
      if (end == std::string_view::npos) end = s.size();
      const std::string_view part = s.substr(at, end - at);
      if (part == "..") {
        if (parts.empty()) return false;
        parts.pop_back();
      } else if (!part.empty() && part != ".") {
        parts.emplace_back(part);
      }
      at = end + 1;
    }
    return true;
  };
  if (!add(path) || !add(target)) return {};
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

}  // namespace mcpread::readers::package
