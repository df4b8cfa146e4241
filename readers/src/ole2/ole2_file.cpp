#include "ole2/ole2_file.hpp"

#include "byte_order.hpp"
#include "human_size.hpp"

#if !defined(_WIN32)
#include "mcpread/common/lazy_library.hpp"

#include <sys/types.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <utility>
#endif

namespace mcpread::readers::ole2 {

std::string header_error(std::string_view head, std::uint64_t size) {
  if (!head.starts_with(kSignature.substr(0, 4)) || head.size() < 0x4C) return {};
  const unsigned shift = bytes::le16(head, 0x1E);
  if (shift != 9 && shift != 12)
    return "it is a damaged OLE2 compound file: its header declares sectors of 2^" + std::to_string(shift) +
           " bytes, where there are 512 or 4096";
  const std::uint64_t sectors = (size + (std::uint64_t{1} << shift) - 1) >> shift;
  const std::pair<const char*, std::size_t> tables[] = {{"FAT", 0x2C}, {"mini FAT", 0x40}, {"DIFAT", 0x48}};
  for (const auto& [name, at] : tables) {
    const std::uint32_t declared = bytes::le32(head, at);
    if (declared > sectors)
      return "it is a damaged OLE2 compound file: its header declares " + std::to_string(declared) + " " + name +
             " sectors, and the whole file is " + std::to_string(sectors) + " sectors";
  }
  return {};
}

#if defined(_WIN32)

std::unique_ptr<CompoundFile> CompoundFile::open(std::string_view, std::string* error) {
  *error = "reading OLE2 compound files needs libolecf, which the Windows build of mcp-read does not include; "
           "save the file in the newer format (.pptx, .docx, .xlsx) or read it with mcp-read on Linux";
  return nullptr;
}
CompoundFile::~CompoundFile() = default;
std::vector<std::string> CompoundFile::names() const { return {}; }
std::optional<std::string> CompoundFile::stream(const std::string&, std::uint64_t, std::string*) const { return {}; }
std::vector<std::string> CompoundFile::names(const Path&) const { return {}; }
std::optional<std::string> CompoundFile::stream(const Path&, std::uint64_t, std::string*) const { return {}; }
std::optional<std::uint64_t> CompoundFile::stream_size(const Path&) const { return {}; }

#else

namespace {

// libolecf's and libbfio's C interfaces (libolecf.h of 20181231, libbfio's of 20170123, the
// same in bullseye and bookworm), declared here so that building needs no headers. Every call
// returns 1 on success (0: not found, for lookups by name) and -1 with an error to free.
using Error = void*;
constexpr int kOpenRead = 0x01;
constexpr std::uint8_t kItemStorage = 0x01, kItemStream = 0x02, kItemRoot = 0x05;

struct Olecf {
  int (*file_initialize)(void** file, Error* error) = nullptr;
  int (*file_free)(void** file, Error* error) = nullptr;
  int (*file_open)(void* file, void* io, int flags, Error* error) = nullptr;
  int (*file_close)(void* file, Error* error) = nullptr;
  int (*root_item)(void* file, void** item, Error* error) = nullptr;
  int (*item_free)(void** item, Error* error) = nullptr;
  int (*item_type)(void* item, std::uint8_t* type, Error* error) = nullptr;
  int (*name_size)(void* item, std::size_t* size, Error* error) = nullptr;
  int (*name)(void* item, std::uint8_t* name, std::size_t size, Error* error) = nullptr;
  int (*item_size)(void* item, std::uint32_t* size, Error* error) = nullptr;
  int (*child_count)(void* item, int* count, Error* error) = nullptr;
  int (*child)(void* item, int index, void** child, Error* error) = nullptr;
  int (*child_by_name)(void* item, const std::uint8_t* name, std::size_t length, void** child, Error* error) = nullptr;
  ssize_t (*read)(void* stream, std::uint8_t* buffer, std::size_t size, Error* error) = nullptr;
  void (*error_free)(Error* error) = nullptr;
  int (*error_sprint)(Error error, char* text, std::size_t size) = nullptr;
  // libbfio, libolecf's dependency, reached through its handle: a handle over our own reading
  // functions (MemoryRange below).
  int (*io_initialize)(void** io, std::intptr_t* range, int (*free_range)(std::intptr_t**, Error*),
                       int (*clone_range)(std::intptr_t**, std::intptr_t*, Error*),
                       int (*open)(std::intptr_t*, int, Error*), int (*close)(std::intptr_t*, Error*),
                       ssize_t (*read)(std::intptr_t*, std::uint8_t*, std::size_t, Error*),
                       ssize_t (*write)(std::intptr_t*, const std::uint8_t*, std::size_t, Error*),
                       off64_t (*seek)(std::intptr_t*, off64_t, int, Error*), int (*exists)(std::intptr_t*, Error*),
                       int (*is_open)(std::intptr_t*, Error*),
                       int (*get_size)(std::intptr_t*, std::uint64_t*, Error*), std::uint8_t flags,
                       Error* error) = nullptr;
  int (*io_free)(void** io, Error* error) = nullptr;
  void (*io_error_free)(Error* error) = nullptr;
};

// The bytes as libbfio reads them. Not libbfio's own memory range: in 20170123 (bullseye's and
// bookworm's) its read copies the size asked for even where less is left, reading past the end
// of the bytes whenever a damaged file points a sector there (found by fuzz_ppt).
struct MemoryRange {
  const std::uint8_t* data;
  std::size_t size;
  std::size_t offset = 0;
  bool open = false;

  static MemoryRange* of(std::intptr_t* handle) { return reinterpret_cast<MemoryRange*>(handle); }
  static int open_range(std::intptr_t* h, int, Error*) { return of(h)->open = true, 1; }
  static int close_range(std::intptr_t* h, Error*) { return of(h)->open = false, 0; }
  static int is_open(std::intptr_t* h, Error*) { return of(h)->open ? 1 : 0; }
  static int exists(std::intptr_t*, Error*) { return 1; }
  static int get_size(std::intptr_t* h, std::uint64_t* size, Error*) { return *size = of(h)->size, 1; }
  static ssize_t read(std::intptr_t* h, std::uint8_t* buffer, std::size_t size, Error*) {
    MemoryRange& r = *of(h);
    if (r.offset >= r.size) return 0;
    const std::size_t n = std::min(size, r.size - r.offset);
    std::memcpy(buffer, r.data + r.offset, n);
    r.offset += n;
    return static_cast<ssize_t>(n);
  }
  static ssize_t write(std::intptr_t*, const std::uint8_t*, std::size_t, Error*) { return -1; }
  static off64_t seek(std::intptr_t* h, off64_t offset, int whence, Error*) {
    MemoryRange& r = *of(h);
    const off64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? static_cast<off64_t>(r.offset)
                         : whence == SEEK_END ? static_cast<off64_t>(r.size) : -1;
    if (base < 0 || offset < -base || offset > static_cast<off64_t>(r.size) - base) return -1;
    r.offset = static_cast<std::size_t>(base + offset);
    return static_cast<off64_t>(r.offset);
  }
};

const Olecf* olecf(std::string* error) {
  static const LazyLibrary<Olecf> lib(
      {.needs = "Reading OLE2 compound files (.ppt, .xls, .msg, .hwp) needs libolecf (Debian package libolecf1)",
       .candidates = {"libolecf.so.1"}},
      [](SymbolBinder& bind, Olecf& o) {
        return bind(&o.file_initialize, "libolecf_file_initialize") && bind(&o.file_free, "libolecf_file_free") &&
               bind(&o.file_open, "libolecf_file_open_file_io_handle") &&
               bind(&o.file_close, "libolecf_file_close") && bind(&o.root_item, "libolecf_file_get_root_item") &&
               bind(&o.item_free, "libolecf_item_free") && bind(&o.item_type, "libolecf_item_get_type") &&
               bind(&o.name_size, "libolecf_item_get_utf8_name_size") &&
               bind(&o.name, "libolecf_item_get_utf8_name") && bind(&o.item_size, "libolecf_item_get_size") &&
               bind(&o.child_count, "libolecf_item_get_number_of_sub_items") &&
               bind(&o.child, "libolecf_item_get_sub_item") &&
               bind(&o.child_by_name, "libolecf_item_get_sub_item_by_utf8_name") &&
               bind(&o.read, "libolecf_stream_read_buffer") && bind(&o.error_free, "libolecf_error_free") &&
               bind(&o.error_sprint, "libolecf_error_sprint") &&
               bind(&o.io_initialize, "libbfio_handle_initialize") && bind(&o.io_free, "libbfio_handle_free") &&
               bind(&o.io_error_free, "libbfio_error_free");
      });
  return lib.get(error);
}

// The first line of libolecf's error (its innermost cause: "unsupported file signature"), and
// the error freed.
std::string take_error(const Olecf* o, Error* error) {
  if (*error == nullptr) return "no reason given";
  char text[512] = {};
  std::string out = o->error_sprint(*error, text, sizeof text) > 0 ? std::string(text) : std::string();
  o->error_free(error);
  if (const auto eol = out.find('\n'); eol != std::string::npos) out.resize(eol);
  while (!out.empty() && (out.back() == '.' || out.back() == ' ')) out.pop_back();
  return out.empty() ? "no reason given" : out;
}

// An item of the file, freed when it goes.
class Item {
 public:
  Item(const Olecf* o, void* item) : o_(o), item_(item) {}
  Item(Item&& other) noexcept : o_(other.o_), item_(std::exchange(other.item_, nullptr)) {}
  Item& operator=(Item&& other) noexcept {
    if (this != &other) {
      reset();
      o_ = other.o_;
      item_ = std::exchange(other.item_, nullptr);
    }
    return *this;
  }
  ~Item() { reset(); }
  void* get() const { return item_; }
  explicit operator bool() const { return item_ != nullptr; }

 private:
  void reset() {
    Error ignored = nullptr;
    if (item_ != nullptr) o_->item_free(&item_, &ignored);
    if (ignored != nullptr) o_->error_free(&ignored);
    item_ = nullptr;
  }
  const Olecf* o_;
  void* item_;
};

// The item's type, 0 when it cannot be told.
std::uint8_t type_of(const Olecf* o, void* item) {
  Error error = nullptr;
  std::uint8_t type = 0;
  if (o->item_type(item, &type, &error) != 1) {
    if (error != nullptr) o->error_free(&error);
    return 0;
  }
  return type;
}

// The names of `item`'s children, in the file's order; none for a stream.
std::vector<std::string> child_names(const Olecf* o, void* item) {
  std::vector<std::string> out;
  const std::uint8_t type = type_of(o, item);
  if (type != kItemStorage && type != kItemRoot) return out;
  Error error = nullptr;
  int count = 0;
  if (o->child_count(item, &count, &error) != 1) count = 0;
  for (int i = 0; i < count && error == nullptr; ++i) {
    void* raw = nullptr;
    if (o->child(item, i, &raw, &error) != 1) break;
    const Item child(o, raw);
    std::size_t size = 0;
    if (o->name_size(child.get(), &size, &error) != 1 || size == 0) continue;
    std::string name(size, '\0');
    if (o->name(child.get(), reinterpret_cast<std::uint8_t*>(name.data()), size, &error) != 1) continue;
    name.resize(name.find('\0') == std::string::npos ? name.size() : name.find('\0'));
    out.push_back(std::move(name));
  }
  if (error != nullptr) o->error_free(&error);
  return out;
}

// The item at `path` below the root; an empty Item when there is none.
Item item_at(const Olecf* o, void* root, const Path& path) {
  Item at(o, nullptr);
  void* parent = root;
  for (const std::string& name : path) {
    Error error = nullptr;
    void* raw = nullptr;
    const int found = o->child_by_name(parent, reinterpret_cast<const std::uint8_t*>(name.data()), name.size(), &raw,
                                       &error);
    if (error != nullptr) o->error_free(&error);
    if (found != 1 || raw == nullptr) return Item(o, nullptr);
    at = Item(o, raw);
    parent = raw;
  }
  return at;
}

// Frees what an open made, the root item, the file (closed first) and the handle, whichever are
// there: a failed open and the destructor alike.
void release(const Olecf* o, void** root, void** file, void** io) {
  Error error = nullptr;
  const auto drop = [&] {
    if (error != nullptr) o->error_free(&error);
  };
  if (*root != nullptr) {
    o->item_free(root, &error);
    drop();
  }
  if (*file != nullptr) {
    o->file_close(*file, &error);
    drop();
    o->file_free(file, &error);
    drop();
  }
  if (*io != nullptr) {
    o->io_free(io, &error);
    if (error != nullptr) o->io_error_free(&error);
  }
}

}  // namespace

std::unique_ptr<CompoundFile> CompoundFile::open(std::string_view bytes, std::string* error) {
  const Olecf* o = olecf(error);
  if (o == nullptr) return nullptr;
  if (!bytes.starts_with(kSignature)) {
    *error = "it is not an OLE2 compound file (its first bytes are not D0 CF 11 E0 A1 B1 1A E1)";
    return nullptr;
  }
  if (*error = header_error(bytes, bytes.size()); !error->empty()) return nullptr;
  Error failure = nullptr;
  void* io = nullptr;
  auto range = std::make_unique<MemoryRange>(
      MemoryRange{reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()});
  // Not managed (flags 0): the range is freed here, after the handle.
  if (o->io_initialize(&io, reinterpret_cast<std::intptr_t*>(range.get()), nullptr, nullptr, MemoryRange::open_range,
                       MemoryRange::close_range, MemoryRange::read, MemoryRange::write, MemoryRange::seek,
                       MemoryRange::exists, MemoryRange::is_open, MemoryRange::get_size, 0, &failure) != 1) {
    if (failure != nullptr) o->io_error_free(&failure);
    *error = "libolecf could not read it from memory";
    return nullptr;
  }
  void* file = nullptr;
  void* root = nullptr;
  if (o->file_initialize(&file, &failure) != 1 || o->file_open(file, io, kOpenRead, &failure) != 1 ||
      o->root_item(file, &root, &failure) != 1 || root == nullptr) {
    *error = "it is a damaged OLE2 compound file (libolecf: " + take_error(o, &failure) + ")";
    release(o, &root, &file, &io);
    return nullptr;
  }
  return std::unique_ptr<CompoundFile>(new CompoundFile(io, file, root, range.release()));
}

CompoundFile::~CompoundFile() {
  std::string ignored;
  const Olecf* o = olecf(&ignored);
  release(o, &root_, &file_, &io_);
  delete static_cast<MemoryRange*>(range_);
}

std::vector<std::string> CompoundFile::names() const {
  std::string ignored;
  return child_names(olecf(&ignored), root_);
}

std::vector<std::string> CompoundFile::names(const Path& storage) const {
  if (storage.empty()) return names();
  std::string ignored;
  const Olecf* o = olecf(&ignored);
  const Item item = item_at(o, root_, storage);
  return item ? child_names(o, item.get()) : std::vector<std::string>{};
}

std::optional<std::string> CompoundFile::stream(const std::string& name, std::uint64_t cap, std::string* error) const {
  return stream(Path{name}, cap, error);
}

std::optional<std::uint64_t> CompoundFile::stream_size(const Path& path) const {
  std::string ignored;
  const Olecf* o = olecf(&ignored);
  const Item item = item_at(o, root_, path);
  if (!item || type_of(o, item.get()) != kItemStream) return std::nullopt;
  Error error = nullptr;
  std::uint32_t size = 0;
  if (o->item_size(item.get(), &size, &error) != 1) {
    if (error != nullptr) o->error_free(&error);
    return std::nullopt;
  }
  return size;
}

std::optional<std::string> CompoundFile::stream(const Path& path, std::uint64_t cap, std::string* error) const {
  std::string ignored;
  const Olecf* o = olecf(&ignored);
  const Item item = item_at(o, root_, path);
  if (!item) return std::nullopt;
  const std::string& name = path.back();
  if (type_of(o, item.get()) != kItemStream) {
    *error = "its " + name + " is a storage, not a stream: the file is damaged";
    return std::nullopt;
  }
  Error failure = nullptr;
  std::uint32_t size = 0;
  if (o->item_size(item.get(), &size, &failure) != 1) {
    *error = "its " + name + " stream cannot be read: the file is damaged (libolecf: " + take_error(o, &failure) + ")";
    return std::nullopt;
  }
  if (size > cap) {
    *error = "its " + name + " stream is " + human_size(size) + ", over the " + human_size(cap) + " limit";
    return std::nullopt;
  }
  std::string out(size, '\0');
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t got =
        o->read(item.get(), reinterpret_cast<std::uint8_t*>(out.data() + done), out.size() - done, &failure);
    if (got <= 0) {
      *error = "its " + name + " stream cannot be read: the file is damaged" +
               (got < 0 ? " (libolecf: " + take_error(o, &failure) + ")" : std::string());
      return std::nullopt;
    }
    done += static_cast<std::size_t>(got);
  }
  return out;
}

#endif

}  // namespace mcpread::readers::ole2
