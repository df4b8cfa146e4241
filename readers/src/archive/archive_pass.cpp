#include "archive/archive_pass.hpp"

#include "file_io.hpp"
#include "mcpread/common/lazy_library.hpp"
#include "mcpread/readers/charset.hpp"
#include "mcpread/readers/utf8.hpp"

#include <array>
#include <cerrno>
#include <cstdio>

namespace mcpread::readers::archive {
namespace {

using Support = int (*)(struct ::archive*);

// The formats read: every archive libarchive knows except mtree, whose entries name files on
// the disk that libarchive would open (outside the roots), and warc (web captures, no archive).
// Filters: the compressions libarchive decodes with a library; lrzip, lzop and grzip are left out,
// as libarchive runs external programs for them. raw comes last: a compressed file that holds no
// archive (notes.txt.gz) is read as one member.
constexpr std::array kSupportNames = {
    "archive_read_support_filter_gzip",   "archive_read_support_filter_bzip2",
    "archive_read_support_filter_xz",     "archive_read_support_filter_lzma",
    "archive_read_support_filter_lzip",   "archive_read_support_filter_zstd",
    "archive_read_support_filter_lz4",    "archive_read_support_filter_compress",
    "archive_read_support_format_7zip",   "archive_read_support_format_ar",
    "archive_read_support_format_cab",    "archive_read_support_format_cpio",
    "archive_read_support_format_iso9660", "archive_read_support_format_lha",
    "archive_read_support_format_rar",    "archive_read_support_format_rar5",
    "archive_read_support_format_tar",    "archive_read_support_format_xar",
    "archive_read_support_format_zip",    "archive_read_support_format_raw",
};

struct Api {
  decltype(&::archive_read_new) read_new = nullptr;
  decltype(&::archive_read_free) read_free = nullptr;
  std::array<Support, kSupportNames.size()> support{};
  decltype(&::archive_read_set_seek_callback) set_seek = nullptr;
  decltype(&::archive_read_open2) open2 = nullptr;
  decltype(&::archive_read_next_header) next_header = nullptr;
  decltype(&::archive_read_data) data = nullptr;
  decltype(&::archive_error_string) error_string = nullptr;
  decltype(&::archive_format) format = nullptr;
  decltype(&::archive_format_name) format_name = nullptr;
  decltype(&::archive_filter_count) filter_count = nullptr;
  decltype(&::archive_filter_code) filter_code = nullptr;
  decltype(&::archive_filter_name) filter_name = nullptr;
  decltype(&::archive_filter_bytes) filter_bytes = nullptr;
  decltype(&::archive_entry_pathname) pathname = nullptr;
  decltype(&::archive_entry_pathname_utf8) pathname_utf8 = nullptr;
  decltype(&::archive_entry_symlink) symlink = nullptr;
  decltype(&::archive_entry_hardlink) hardlink = nullptr;
  decltype(&::archive_entry_filetype) filetype = nullptr;
  decltype(&::archive_entry_size) size = nullptr;
  decltype(&::archive_entry_size_is_set) size_is_set = nullptr;
  decltype(&::archive_entry_is_encrypted) is_encrypted = nullptr;
};

const Api* api(std::string* error) {
  static const LazyLibrary<Api> lib(
      {.needs = "reading archives needs libarchive (Debian package libarchive13)", .candidates = {"libarchive.so.13"}},
      [](SymbolBinder& bind, Api& a) {
        for (std::size_t i = 0; i < kSupportNames.size(); ++i)
          if (!bind(&a.support[i], kSupportNames[i])) return false;
        return bind(&a.read_new, "archive_read_new") && bind(&a.read_free, "archive_read_free") &&
               bind(&a.set_seek, "archive_read_set_seek_callback") && bind(&a.open2, "archive_read_open2") &&
               bind(&a.next_header, "archive_read_next_header") && bind(&a.data, "archive_read_data") &&
               bind(&a.error_string, "archive_error_string") && bind(&a.format, "archive_format") &&
               bind(&a.format_name, "archive_format_name") && bind(&a.filter_count, "archive_filter_count") &&
               bind(&a.filter_code, "archive_filter_code") && bind(&a.filter_name, "archive_filter_name") &&
               bind(&a.filter_bytes, "archive_filter_bytes") && bind(&a.pathname, "archive_entry_pathname") &&
               bind(&a.pathname_utf8, "archive_entry_pathname_utf8") && bind(&a.symlink, "archive_entry_symlink") &&
               bind(&a.hardlink, "archive_entry_hardlink") && bind(&a.filetype, "archive_entry_filetype") &&
               bind(&a.size, "archive_entry_size") && bind(&a.size_is_set, "archive_entry_size_is_set") &&
               bind(&a.is_encrypted, "archive_entry_is_encrypted");
      });
  return lib.get(error);
}

const Api& opened() { return *api(nullptr); }  // once a Pass exists, the library is loaded

constexpr std::size_t kBlock = 64 * 1024;

}  // namespace

la_ssize_t Pass::read_callback(struct ::archive*, void* data, const void** out) {
  auto& s = *static_cast<Source*>(data);
  if (s.cancel != nullptr && s.cancel->cancelled()) {
    s.stopped = true;
    return ARCHIVE_FATAL;
  }
  const auto got = file_io::pread_full(s.fd, s.buffer.data(), s.buffer.size(), s.pos);
  if (!got) return ARCHIVE_FATAL;
  s.pos += *got;
  *out = s.buffer.data();
  return static_cast<la_ssize_t>(*got);
}

la_int64_t Pass::skip_callback(struct ::archive*, void* data, la_int64_t request) {
  auto& s = *static_cast<Source*>(data);
  if (request <= 0 || s.pos >= s.size) return 0;
  const auto step = std::min<std::uint64_t>(static_cast<std::uint64_t>(request), s.size - s.pos);
  s.pos += step;
  return static_cast<la_int64_t>(step);
}

la_int64_t Pass::seek_callback(struct ::archive*, void* data, la_int64_t offset, int whence) {
  auto& s = *static_cast<Source*>(data);
  const auto base = static_cast<la_int64_t>(whence == SEEK_CUR ? s.pos : whence == SEEK_END ? s.size : 0);
  const la_int64_t to = base + offset;
  if (to < 0) return ARCHIVE_FATAL;
  s.pos = static_cast<std::uint64_t>(to);
  return to;
}

std::unique_ptr<Pass> Pass::open(int fd, std::uint64_t size, const CancelToken& cancel, std::string* error) {
  const Api* a = api(error);
  if (a == nullptr) return nullptr;
  std::unique_ptr<Pass> pass(new Pass);
  pass->source_ = Source{fd, size, 0, &cancel, false, std::vector<char>(kBlock)};
  pass->handle_ = a->read_new();
  if (pass->handle_ == nullptr) {
    *error = "libarchive could not start a read (out of memory?)";
    return nullptr;
  }
  // A filter that needs an external program reports ARCHIVE_WARN and still works: left as it is
  // (the filters chosen above all have their library in Debian's libarchive13).
  for (const Support support : a->support) (void)support(pass->handle_);
  a->set_seek(pass->handle_, seek_callback);
  if (a->open2(pass->handle_, &pass->source_, nullptr, read_callback, skip_callback, nullptr) != ARCHIVE_OK) {
    *error = pass->error();
    return nullptr;
  }
  return pass;
}

Pass::~Pass() {
  if (handle_ != nullptr) opened().read_free(handle_);
}

Pass::Next Pass::next(archive_entry** entry) {
  const int r = opened().next_header(handle_, entry);
  if (r == ARCHIVE_EOF) return Next::end;
  if (r == ARCHIVE_OK || r == ARCHIVE_WARN) return Next::entry;
  return Next::failed;
}

long long Pass::read(char* buf, std::size_t cap) {
  const la_ssize_t n = opened().data(handle_, buf, cap);
  return n < 0 ? -1 : static_cast<long long>(n);
}

std::string Pass::error() const {
  if (source_.stopped) return "the read was cancelled";
  const char* e = handle_ != nullptr ? opened().error_string(handle_) : nullptr;
  if (e == nullptr || *e == '\0') return "libarchive reports an error it does not name";
  std::string text = utf8::sanitized(e);
  while (!text.empty() && (text.back() == '.' || text.back() == '\n')) text.pop_back();
  return text;
}

std::uint64_t Pass::compressed_bytes() const {
  return static_cast<std::uint64_t>(std::max<la_int64_t>(opened().filter_bytes(handle_, -1), 0));
}

std::uint64_t Pass::stream_bytes() const {
  return static_cast<std::uint64_t>(std::max<la_int64_t>(opened().filter_bytes(handle_, 0), 0));
}

bool Pass::compressed() const {
  const Api& a = opened();
  const int n = a.filter_count(handle_);
  for (int i = 0; i < n; ++i)
    if (a.filter_code(handle_, i) != ARCHIVE_FILTER_NONE) return true;
  return false;
}

bool Pass::raw() const { return (opened().format(handle_) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_RAW; }

std::string Pass::format() const {
  const Api& a = opened();
  std::string out;
  if (raw()) {
    out = "compressed file";
  } else {
    const char* name = a.format_name(handle_);
    out = name != nullptr ? utf8::sanitized(name) : std::string("archive");
  }
  std::string filters;
  const int n = a.filter_count(handle_);
  for (int i = 0; i < n; ++i) {
    if (a.filter_code(handle_, i) == ARCHIVE_FILTER_NONE) continue;
    const char* name = a.filter_name(handle_, i);
    filters += (filters.empty() ? "" : "+") + std::string(name != nullptr ? name : "?");
  }
  return filters.empty() ? out : out + ", " + utf8::sanitized(filters) + "-compressed";
}

std::string Pass::decoded_name(const char* raw) const {
  if (raw == nullptr) return {};
  if (utf8::is_valid(raw)) return raw;
  const bool zip = (opened().format(handle_) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_ZIP;
  Utf8Converter converter(zip ? "IBM437" : "windows-1252");
  if (!converter.ok()) return utf8::sanitized(raw);
  std::string out;
  converter.convert(raw, out, true);
  return out;
}

Pass::EntryFacts Pass::facts(archive_entry* entry) const {
  const Api& a = opened();
  EntryFacts f;
  const char* name = a.pathname_utf8(entry);
  f.name = name != nullptr && utf8::is_valid(name) ? std::string(name) : decoded_name(a.pathname(entry));
  if (const char* hard = a.hardlink(entry); hard != nullptr) {
    f.hard_link = true;
    f.link = utf8::sanitized(hard);
  } else if (const char* sym = a.symlink(entry); sym != nullptr) {
    f.link = utf8::sanitized(sym);
  }
  f.file_type = a.filetype(entry);
  f.size_known = a.size_is_set(entry) != 0;
  f.size = f.size_known ? static_cast<std::uint64_t>(std::max<la_int64_t>(a.size(entry), 0)) : 0;
  f.encrypted = a.is_encrypted(entry) > 0;
  return f;
}

}  // namespace mcpread::readers::archive
