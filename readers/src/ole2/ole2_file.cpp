#include "ole2/ole2_file.hpp"

#include "human_size.hpp"

#if !defined(_WIN32)
#include "mcpread/common/lazy_library.hpp"

#include <gsf/gsf-infile-msole.h>
#include <gsf/gsf-infile.h>
#include <gsf/gsf-input-memory.h>
#include <gsf/gsf-input.h>
#include <gsf/gsf-utils.h>
#endif

namespace mcpread::readers::ole2 {

#if defined(_WIN32)

std::unique_ptr<CompoundFile> CompoundFile::open(std::string_view, std::string* error) {
  *error = "reading OLE2 compound files needs libgsf, which the Windows build of mcp-read does not include; "
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

struct Gsf {
  decltype(&::gsf_input_memory_new) memory_input;
  decltype(&::gsf_infile_msole_new) msole_new;
  decltype(&::gsf_infile_num_children) num_children;
  decltype(&::gsf_infile_name_by_index) name_by_index;
  decltype(&::gsf_infile_child_by_name) child_by_name;
  decltype(&::gsf_infile_child_by_aname) child_by_aname;
  decltype(&::gsf_input_size) size;
  decltype(&::gsf_input_read) read;
  decltype(&::g_object_unref) unref;
  decltype(&::g_error_free) error_free;
};

const Gsf* gsf(std::string* error) {
  static const LazyLibrary<Gsf> lib(
      {.needs = "Reading OLE2 compound files (.ppt, .msg) needs libgsf (Debian package libgsf-1-114)",
       .candidates = {"libgsf-1.so.114"}},
      [](SymbolBinder& bind, Gsf& g) {
        decltype(&::gsf_init) init = nullptr;
        // GObject's and GLib's symbols come through libgsf's handle: they are its dependencies.
        if (!(bind(&init, "gsf_init") && bind(&g.memory_input, "gsf_input_memory_new") &&
              bind(&g.msole_new, "gsf_infile_msole_new") && bind(&g.num_children, "gsf_infile_num_children") &&
              bind(&g.name_by_index, "gsf_infile_name_by_index") &&
              bind(&g.child_by_name, "gsf_infile_child_by_name") &&
              bind(&g.child_by_aname, "gsf_infile_child_by_aname") && bind(&g.size, "gsf_input_size") &&
              bind(&g.read, "gsf_input_read") && bind(&g.unref, "g_object_unref") &&
              bind(&g.error_free, "g_error_free")))
          return false;
        init();  // registers libgsf's types; never undone while the process lives
        return true;
      });
  return lib.get(error);
}

}  // namespace

std::unique_ptr<CompoundFile> CompoundFile::open(std::string_view bytes, std::string* error) {
  const Gsf* g = gsf(error);
  if (g == nullptr) return nullptr;
  if (!bytes.starts_with(kSignature)) {
    *error = "it is not an OLE2 compound file (its first bytes are not D0 CF 11 E0 A1 B1 1A E1)";
    return nullptr;
  }
  GsfInput* input = g->memory_input(reinterpret_cast<const guint8*>(bytes.data()), static_cast<gsf_off_t>(bytes.size()),
                                    FALSE);
  if (input == nullptr) {
    *error = "libgsf could not read it from memory";
    return nullptr;
  }
  GError* failure = nullptr;
  GsfInfile* infile = g->msole_new(input, &failure);
  if (infile == nullptr) {
    *error = "it is a damaged OLE2 compound file (libgsf: " +
             std::string(failure != nullptr && failure->message != nullptr ? failure->message : "no reason given") + ")";
    if (failure != nullptr) g->error_free(failure);
    g->unref(input);
    return nullptr;
  }
  return std::unique_ptr<CompoundFile>(new CompoundFile(input, infile));
}

CompoundFile::~CompoundFile() {
  std::string ignored;
  const Gsf* g = gsf(&ignored);
  g->unref(infile_);
  g->unref(input_);
}

std::vector<std::string> CompoundFile::names() const {
  std::string ignored;
  const Gsf* g = gsf(&ignored);
  auto* infile = static_cast<GsfInfile*>(infile_);
  std::vector<std::string> out;
  const int n = g->num_children(infile);
  for (int i = 0; i < n; ++i)
    if (const char* name = g->name_by_index(infile, i)) out.emplace_back(name);
  return out;
}

namespace {

// The child at `path` (a new reference), or nullptr. libgsf makes every child of a compound file
// a GsfInfile, streams too: a stream's number of children is -1.
GsfInfile* child_at(const Gsf* g, void* infile, const Path& path) {
  if (path.empty()) return nullptr;
  std::vector<const char*> names;
  for (const std::string& name : path) names.push_back(name.c_str());
  names.push_back(nullptr);
  return reinterpret_cast<GsfInfile*>(g->child_by_aname(static_cast<GsfInfile*>(infile), names.data()));
}

}  // namespace

std::optional<std::string> CompoundFile::stream(const std::string& name, std::uint64_t cap, std::string* error) const {
  return stream(Path{name}, cap, error);
}

std::vector<std::string> CompoundFile::names(const Path& storage) const {
  if (storage.empty()) return names();
  std::string ignored;
  const Gsf* g = gsf(&ignored);
  GsfInfile* child = child_at(g, infile_, storage);
  std::vector<std::string> out;
  if (child == nullptr) return out;
  const int n = g->num_children(child);
  for (int i = 0; i < n; ++i)
    if (const char* name = g->name_by_index(child, i)) out.emplace_back(name);
  g->unref(child);
  return out;
}

std::optional<std::uint64_t> CompoundFile::stream_size(const Path& path) const {
  std::string ignored;
  const Gsf* g = gsf(&ignored);
  GsfInfile* child = child_at(g, infile_, path);
  if (child == nullptr) return std::nullopt;
  std::optional<std::uint64_t> out;
  const gsf_off_t size = g->size(reinterpret_cast<GsfInput*>(child));
  if (g->num_children(child) < 0 && size >= 0) out = static_cast<std::uint64_t>(size);
  g->unref(child);
  return out;
}

std::optional<std::string> CompoundFile::stream(const Path& path, std::uint64_t cap, std::string* error) const {
  std::string ignored;
  const Gsf* g = gsf(&ignored);
  GsfInfile* node = child_at(g, infile_, path);
  if (node == nullptr) return std::nullopt;
  const std::string name = path.back();
  std::optional<std::string> out;
  GsfInput* child = reinterpret_cast<GsfInput*>(node);
  const gsf_off_t size = g->size(child);
  if (g->num_children(node) >= 0) {
    *error = "its " + name + " is a storage, not a stream: the file is damaged";
  } else if (size < 0 || static_cast<std::uint64_t>(size) > cap) {
    *error = "its " + name + " stream is " + human_size(static_cast<std::uint64_t>(std::max<gsf_off_t>(size, 0))) +
             ", over the " + human_size(cap) + " limit";
  } else {
    out.emplace(static_cast<std::size_t>(size), '\0');
    if (size > 0 && g->read(child, static_cast<std::size_t>(size), reinterpret_cast<guint8*>(out->data())) == nullptr) {
      *error = "its " + name + " stream cannot be read: the file is damaged";
      out.reset();
    }
  }
  g->unref(node);
  return out;
}

#endif

}  // namespace mcpread::readers::ole2
