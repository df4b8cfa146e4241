#include "pdf_loader.hpp"
#include "dl_symbol.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

#ifndef MCPREAD_PDF_PLUGIN_DIR
#define MCPREAD_PDF_PLUGIN_DIR "/usr/local/lib/mcp-read"
#endif
// Where the plugin is installed relative to the installed executable's directory, so that an
// install tree keeps working wherever it is copied or unpacked (cmake --install --prefix, the .deb,
// a container image).
#ifndef MCPREAD_PDF_PLUGIN_RELATIVE_DIR
#define MCPREAD_PDF_PLUGIN_RELATIVE_DIR "../lib/mcp-read"
#endif

namespace mcpread::readers::pdf {
namespace {

constexpr const char* plugin_name = "libmcpread_pdf.so";
constexpr const char* needs =
    "Reading PDFs needs libmcpread_pdf.so (built next to mcp-read) and Debian's libpoppler-cpp0v5 "
    "and libqpdf29: ";

struct Loaded {
  Api api{};
  std::string error;  // empty when api is usable
};

std::string executable_directory() {
  std::string buf(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) return {};
  buf.resize(static_cast<std::size_t>(n));
  const auto slash = buf.rfind('/');
  return slash == std::string::npos ? std::string() : buf.substr(0, slash == 0 ? 1 : slash);
}

template <typename Fn>
bool bind(void* lib, const char* name, Fn* slot, std::string* error) {
  if (load_symbol(lib, name, slot)) return true;
  *error = std::string(needs) + "the plugin found has no " + name +
           " (rebuild mcp-read and the plugin together).";
  return false;
}

Loaded load() {
  Loaded l;
  void* lib = nullptr;
  std::string reasons;
  for (const std::string& dir : plugin_directories()) {
    const std::string path = (dir.ends_with('/') ? dir : dir + "/") + plugin_name;
    lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib != nullptr) break;
    const char* why = ::dlerror();
    if (!reasons.empty()) reasons += "; ";
    reasons += why != nullptr ? why : path + ": cannot be loaded";
  }
  if (lib == nullptr) {
    l.error = needs + reasons + ".";
    return l;
  }
  mcpread_pdf_api_version_fn version = nullptr;
  Api& a = l.api;
  std::string& e = l.error;
  if (!bind(lib, "mcpread_pdf_api_version", &version, &e)) return l;
  if (version() != MCPREAD_PDF_API_VERSION) {
    e = std::string(needs) + "the plugin found speaks interface version " +
        std::to_string(version()) + ", not " + std::to_string(MCPREAD_PDF_API_VERSION) +
        " (rebuild mcp-read and the plugin together).";
    return l;
  }
  // The plugin stays loaded: poppler and qpdf keep process-wide state.
  bind(lib, "mcpread_pdf_open", &a.open, &e) && bind(lib, "mcpread_pdf_close", &a.close, &e) &&
      bind(lib, "mcpread_pdf_page_count", &a.page_count, &e) &&
      bind(lib, "mcpread_pdf_is_encrypted", &a.is_encrypted, &e) &&
      bind(lib, "mcpread_pdf_info", &a.info, &e) &&
      bind(lib, "mcpread_pdf_page_size", &a.page_size, &e) &&
      bind(lib, "mcpread_pdf_page_text", &a.page_text, &e) &&
      bind(lib, "mcpread_pdf_page_glyphs", &a.page_glyphs, &e) &&
      bind(lib, "mcpread_pdf_render_png", &a.render_png, &e) &&
      bind(lib, "mcpread_pdf_write_subset", &a.write_subset, &e);
  return l;
}

const Loaded& loaded() {
  static std::once_flag once;
  static Loaded l;
  std::call_once(once, [] { l = load(); });
  return l;
}

}  // namespace

std::vector<std::string> plugin_directories() {
  std::vector<std::string> dirs;
  // An explicit choice first (packagers, and the test executables, which live in a
  // subdirectory of the build tree).
  if (const char* env = std::getenv("MCP_READ_PDF_PLUGIN_DIR"); env != nullptr && *env != '\0')
    dirs.emplace_back(env);
  if (std::string exe = executable_directory(); !exe.empty()) {
    dirs.push_back(exe);  // the build tree: the plugin sits next to mcp-read
    dirs.push_back((exe == "/" ? exe : exe + "/") + MCPREAD_PDF_PLUGIN_RELATIVE_DIR);
  }
  dirs.emplace_back(MCPREAD_PDF_PLUGIN_DIR);
  return dirs;
}

const Api* api(std::string* error) {
  const Loaded& l = loaded();
  if (!l.error.empty()) {
    if (error) *error = l.error;
    return nullptr;
  }
  return &l.api;
}

void append_to_string(void* ctx, const char* data, std::size_t size) {
  static_cast<std::string*>(ctx)->append(data, size);
}

}  // namespace mcpread::readers::pdf
