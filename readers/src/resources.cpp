#include "mcpread/readers/resources.hpp"

#include "file_io.hpp"
#include "human_size.hpp"
#include "mcpread/readers/audio.hpp"
#include "mcpread/readers/charset.hpp"
#include "mcpread/readers/classify.hpp"
#include "mcpread/readers/image.hpp"
#include "mcpread/readers/listing.hpp"
#include "mcpread/readers/pdf.hpp"
#include "mcpread/readers/utf8.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <utility>

namespace mcpread::readers {
namespace fs = std::filesystem;

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string path_from_file_uri(std::string_view uri) {
  constexpr std::string_view scheme = "file://";
  if (uri.size() <= scheme.size() || uri.substr(0, scheme.size()) != scheme) return {};
  std::string_view rest = uri.substr(scheme.size());
  // file://localhost/x and file:///x name the same path; other hosts are not local.
  if (rest.substr(0, 9) == "localhost") rest.remove_prefix(9);
  if (rest.empty() || rest.front() != '/') return {};
  std::string path;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    const char c = rest[i];
    if (c == '?' || c == '#') break;
    if (c != '%') {
      path.push_back(c);
      continue;
    }
    const int hi = i + 2 < rest.size() ? hex_value(rest[i + 1]) : -1;
    const int lo = hi >= 0 ? hex_value(rest[i + 2]) : -1;
    if (lo < 0) return {};
    path.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  if (path.find('\0') != std::string::npos) return {};
  return path;
}

std::string file_uri(std::string_view path) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string uri = "file://";
  uri.reserve(uri.size() + path.size());
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
        c == '-' || c == '.' || c == '_' || c == '~') {
      uri += ch;
    } else {
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 15];
    }
  }
  return uri;
}

// ---- resources/list ----

namespace {

struct DirCloser {
  void operator()(DIR* d) const { ::closedir(d); }
};

// Directories that hold dependencies or caches rather than the user's files.
bool skipped_directory(std::string_view name) {
  return name == "node_modules" || name == "__pycache__";
}

int open_directory(int at, const char* name) {
  int fd = -1;
  do fd = ::openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  return fd;
}

class Walker {
 public:
  Walker(const Roots& roots, std::size_t skip, std::size_t count, const ResourceListLimits& limits,
         const CancelToken& cancel)
      : roots_(roots), skip_(skip), count_(count), limits_(limits), cancel_(cancel) {}

  ResourcePage run() {
    for (const auto& root : roots_.dirs()) {
      if (stop_) break;
      root_ = root;
      label_.clear();
      if (roots_.dirs().size() > 1 && !root.filename().empty()) label_ = root.filename().string() + "/";
      const int fd = open_directory(AT_FDCWD, root.c_str());
      if (fd >= 0) walk(fd, "", 0);
    }
    return std::move(page_);
  }

 private:
  struct Name {
    std::string name;
    bool operator<(const Name& o) const { return name < o.name; }  // byte order
  };

  // Walks the directory open as `fd` (taken over), whose path relative to the root is `rel`
  // ("" or ending in '/').
  void walk(int fd, const std::string& rel, std::size_t depth) {
    std::unique_ptr<DIR, DirCloser> dir(::fdopendir(fd));
    if (!dir) {
      ::close(fd);
      return;
    }
    std::vector<Name> names;
    for (;;) {
      errno = 0;
      const dirent* e = ::readdir(dir.get());
      if (e == nullptr) break;  // the end, or an error: list what was read
      if (walked_ == limits_.max_walked) {  // list what was read, enter nothing more
        page_.capped = true;
        exhausted_ = true;
        break;
      }
      ++walked_;
      const std::string_view name(e->d_name);
      if (name.empty() || name.front() == '.') continue;  // ".", "..", and hidden entries
      names.push_back(Name{std::string(name)});
    }
    std::sort(names.begin(), names.end());
    const int at = ::dirfd(dir.get());
    for (const auto& [name] : names) {
      if (stop_) return;
      if (cancel_.cancelled()) {
        page_.cancelled = true;
        stop_ = true;
        return;
      }
      struct stat st {};
      if (::fstatat(at, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
      if (S_ISREG(st.st_mode)) {
        add(rel + name, static_cast<std::uint64_t>(st.st_size));
      } else if (S_ISDIR(st.st_mode)) {
        if (skipped_directory(name) || exhausted_) continue;
        if (depth + 1 > limits_.max_depth) {
          page_.capped = true;
          continue;
        }
        const int child = open_directory(at, name.c_str());
        if (child < 0) continue;
        struct stat now {};
        // Replaced since it was looked at: leave it out rather than walk something else.
        if (::fstat(child, &now) != 0 || now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
          ::close(child);
          continue;
        }
        walk(child, rel + name + "/", depth + 1);
      } else if (S_ISLNK(st.st_mode)) {
        add_link(rel + name);
      }
      // FIFOs, sockets and devices are left out without being opened.
    }
  }

  // A symbolic link is listed when it leads to a regular file inside the roots.
  void add_link(const std::string& rel) {
    const fs::path link = root_ / rel;
    char* resolved = ::realpath(link.c_str(), nullptr);
    if (resolved == nullptr) return;
    const fs::path target(resolved);
    std::free(resolved);
    struct stat st {};
    if (!roots_.contains(target) || ::stat(target.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
    add(rel, static_cast<std::uint64_t>(st.st_size));
  }

  void add(const std::string& rel, std::uint64_t size) {
    if (listed_ == limits_.max_listed) {  // one file more than may be listed
      page_.capped = true;
      stop_ = true;
      return;
    }
    const std::size_t index = listed_++;
    if (index < skip_) return;
    if (index - skip_ >= count_) {  // the first entry of the next page
      page_.more = true;
      stop_ = true;
      return;
    }
    page_.entries.push_back(ResourceEntry{file_uri((root_ / rel).native()), utf8::sanitized(label_ + rel),
                                          std::string(mime_for_name(rel)), size});
  }

  const Roots& roots_;
  std::size_t skip_;
  std::size_t count_;
  const ResourceListLimits& limits_;
  const CancelToken& cancel_;
  fs::path root_;
  std::string label_;
  std::size_t walked_ = 0;
  std::size_t listed_ = 0;
  bool stop_ = false;       // the page is complete, the listing cap was reached, or cancelled
  bool exhausted_ = false;  // max_walked entries were read: no directory is read any more
  ResourcePage page_;
};

}  // namespace

ResourcePage list_resources(const Roots& roots, std::size_t skip, std::size_t count,
                            const ResourceListLimits& limits, const CancelToken& cancel) {
  return Walker(roots, skip, count, limits, cancel).run();
}

// ---- resources/read ----

namespace {

constexpr std::size_t head_bytes = 64 * 1024;
constexpr std::size_t chunk_bytes = 64 * 1024;

ResourceReadResult refusal(ResourceStatus status, std::string message) {
  ResourceReadResult r;
  r.status = status;
  r.message = std::move(message);
  return r;
}

// The longest prefix of `text` within `room` bytes, ending after a line break when one lies in
// its second half, and never inside a UTF-8 sequence.
std::size_t cut_point(std::string_view text, std::size_t room) {
  if (text.size() <= room) return text.size();
  std::size_t n = room;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  if (n == 0) return 0;
  const auto nl = text.rfind('\n', n - 1);
  if (nl != std::string_view::npos && nl + 1 >= n / 2) return nl + 1;
  return n;
}

// The file's text decoded to UTF-8 (byte-order mark dropped, line ends kept), at most
// max_output_bytes of it. Only what can be shown is read.
ResourceReadResult raw_text(const OpenedFile& file, const Classification& c, std::string_view head,
                            const ReadLimits& limits, const CancelToken& cancel) {
  const std::string path = utf8::sanitized(file.path.string());
  const std::size_t cap = limits.text.max_output_bytes;
  const DetectedCharset cs =
      detect_charset(std::span(reinterpret_cast<const unsigned char*>(head.data()), head.size()));
  auto read_error = [&] {
    return refusal(ResourceStatus::failed,
                   "Cannot read " + path + ": " + utf8::sanitized(std::strerror(errno)) + ".");
  };
  std::string text;
  std::uint64_t pos = cs.bom_bytes;
  if (cs.name == "UTF-8") {
    // Sanitising never shortens: cap + 4 bytes are enough to fill the cap and see it overflow
    // (a sequence cut at the end of what was read lies past the cap).
    const std::size_t want = cap > SIZE_MAX - 4 ? SIZE_MAX : cap + 4;
    std::string raw;
    for (bool eof = false; !eof && raw.size() < want;) {
      if (cancel.cancelled()) return refusal(ResourceStatus::cancelled, "The read was cancelled.");
      const std::size_t ask = std::min(chunk_bytes, want - raw.size());
      const std::size_t had = raw.size();
      raw.resize(had + ask);
      const auto got = file_io::pread_full(file.fd.get(), raw.data() + had, ask, pos);
      if (!got) return read_error();
      raw.resize(had + *got);
      pos += *got;
      eof = *got < ask;
    }
    utf8::append_sanitized(raw, text);
  } else {
    Utf8Converter converter(cs.name);
    std::string chunk(chunk_bytes, '\0');
    for (bool eof = false; !eof && text.size() <= cap;) {
      if (cancel.cancelled()) return refusal(ResourceStatus::cancelled, "The read was cancelled.");
      const auto got = file_io::pread_full(file.fd.get(), chunk.data(), chunk.size(), pos);
      if (!got) return read_error();
      pos += *got;
      eof = *got < chunk.size();
      converter.convert(std::string_view(chunk.data(), *got), text, eof);
    }
  }
  ResourceContent content;
  content.mime = c.mime;
  content.meta = {{"charset", cs.name},
                  {"size", static_cast<std::uint64_t>(file.st.st_size)},
                  {"truncated", text.size() > cap}};
  if (text.size() > cap) {
    text.resize(cut_point(text, cap));
    // Where the read tool would continue: the first line not shown whole.
    content.meta["next_offset"] = static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  }
  content.text = std::move(text);
  ResourceReadResult r;
  r.contents.push_back(std::move(content));
  return r;
}

std::string first_text(const ReadOutcome& o) {
  for (const auto& b : o.blocks)
    if (const auto* t = std::get_if<TextBlock>(&b)) return t->text;
  return "The file could not be read.";
}

// A reader's outcome as contents: its image, audio or PDF blob (with the reader's metadata), and
// for PDFs the page text after it.
ResourceReadResult from_outcome(ReadOutcome outcome, bool keep_text) {
  if (outcome.cancelled) return refusal(ResourceStatus::cancelled, "The read was cancelled.");
  if (outcome.is_error) return refusal(ResourceStatus::failed, first_text(outcome));
  nlohmann::json meta = std::move(outcome.meta);
  meta.erase("path");  // the URI says it
  ResourceReadResult r;
  std::optional<ResourceContent> text;
  for (auto& block : outcome.blocks) {
    ResourceContent c;
    c.blob = true;
    if (auto* i = std::get_if<ImageBlock>(&block)) {
      c.mime = std::move(i->mime_type);
      c.base64 = std::move(i->base64);
    } else if (auto* a = std::get_if<AudioBlock>(&block)) {
      c.mime = std::move(a->mime_type);
      c.base64 = std::move(a->base64);
    } else if (auto* b = std::get_if<BlobResourceBlock>(&block)) {
      c.mime = std::move(b->mime_type);
      c.base64 = std::move(b->base64);
    } else if (auto* t = std::get_if<TextBlock>(&block); t != nullptr && keep_text && !text) {
      text = ResourceContent{"text/plain", false, std::move(t->text), {}, nlohmann::json::object()};
      continue;
    } else {
      continue;  // a reader's description of what it sent: the _meta says the same
    }
    c.meta = meta;
    r.contents.push_back(std::move(c));
  }
  if (text) {
    text->meta = r.contents.empty() ? meta : nlohmann::json{{"extracted_text", true}};
    r.contents.push_back(std::move(*text));
  }
  return r;
}

}  // namespace

ResourceReadResult read_resource(const Roots& roots, std::string_view path, const ReadLimits& limits,
                                 const CancelToken& cancel) {
  AccessResult access = open_in_roots(roots, path);
  if (auto* denied = std::get_if<AccessError>(&access)) {
    switch (denied->reason) {
      case AccessError::Reason::not_found:
      case AccessError::Reason::outside_roots:
        return refusal(ResourceStatus::not_found, std::move(denied->message));
      case AccessError::Reason::special_file:
        return refusal(ResourceStatus::unsupported, std::move(denied->message));
      case AccessError::Reason::other:
        break;
    }
    return refusal(ResourceStatus::failed, std::move(denied->message));
  }
  if (auto* dir = std::get_if<DirectoryTarget>(&access)) {
    ReadOutcome listing = list_directory(dir->path, limits.max_directory_entries);
    if (listing.is_error) return refusal(ResourceStatus::failed, first_text(listing));
    listing.meta.erase("path");
    ResourceReadResult r;
    r.contents.push_back(ResourceContent{"text/plain", false, first_text(listing), {}, std::move(listing.meta)});
    return r;
  }
  const auto& file = std::get<OpenedFile>(access);
  if (cancel.cancelled()) return refusal(ResourceStatus::cancelled, "The read was cancelled.");
  const std::string shown = utf8::sanitized(file.path.string());
  std::string head(head_bytes, '\0');
  const auto got = file_io::pread_full(file.fd.get(), head.data(), head.size(), 0);
  if (!got)
    return refusal(ResourceStatus::failed,
                   "Cannot read " + shown + ": " + utf8::sanitized(std::strerror(errno)) + ".");
  head.resize(*got);
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  const Classification c = classify(file.path.filename().string(),
                                    std::span(reinterpret_cast<const unsigned char*>(head.data()), head.size()),
                                    size);
  switch (c.kind) {
    case FileKind::text:
    case FileKind::notebook:
    case FileKind::json:  // never detected: only asked for through the read tool
      return raw_text(file, c, head, limits, cancel);
    case FileKind::image:
      return from_outcome(read_image(file, c, limits.image, cancel), false);
    case FileKind::audio:
      return from_outcome(read_audio(file, c, limits.audio_max_bytes, cancel), false);
    case FileKind::pdf: {
      PdfOptions options;
      options.max_pages = limits.pdf_max_pages;
      options.whole_document_pages = limits.pdf_max_pages;
      options.max_output_bytes = limits.text.max_output_bytes;
      options.max_blob_base64_bytes = limits.pdf_max_blob_bytes;
      options.image = limits.image;
      return from_outcome(read_pdf(file, options, cancel), true);
    }
    case FileKind::binary:
      break;
  }
  const std::string what = c.description.empty() ? c.mime : c.description + " (" + c.mime + ")";
  return refusal(ResourceStatus::unsupported,
                 shown + " is a binary file (" + utf8::sanitized(what) + ", " + human_size(size) +
                     "). Resources serve text, images, PDFs, audio and directories; other binary "
                     "files cannot be read.");
}

}  // namespace mcpread::readers
