#include "pdf_loader.hpp"
#include "install_tree.hpp"
#include "mcpread/common/lazy_library.hpp"

#include <algorithm>
#include <cstdlib>

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

#if defined(_WIN32)
// Beside mcp-read.exe, with poppler and qpdf linked into it (scripts/windows/deps-pdf.sh).
constexpr const char* plugin_name = "libmcpread_pdf.dll";
constexpr char separator = '\\';
constexpr const char* kNeeds = "Reading PDFs needs libmcpread_pdf.dll beside mcp-read.exe";
#else
constexpr const char* plugin_name = "libmcpread_pdf.so";
constexpr char separator = '/';
constexpr const char* kNeeds = "Reading PDFs needs libmcpread_pdf.so (built next to mcp-read) and "
                               "Debian's libpoppler-cpp0v5 and libqpdf29";
#endif
constexpr const char* kRebuild = " (rebuild mcp-read and the plugin together)";

bool bind_all(SymbolBinder& bind, Api& a) {
  mcpread_pdf_api_version_fn version = nullptr;
  if (!bind(&version, "mcpread_pdf_api_version")) return false;
  if (version() != MCPREAD_PDF_API_VERSION)
    return bind.fail(bind.library() + " speaks interface version " + std::to_string(version()) +
                     ", not " + std::to_string(MCPREAD_PDF_API_VERSION) + kRebuild);
  // The plugin stays loaded: poppler and qpdf keep process-wide state.
  return bind(&a.open, "mcpread_pdf_open") && bind(&a.close, "mcpread_pdf_close") &&
         bind(&a.page_count, "mcpread_pdf_page_count") &&
         bind(&a.is_encrypted, "mcpread_pdf_is_encrypted") && bind(&a.info, "mcpread_pdf_info") &&
         bind(&a.page_size, "mcpread_pdf_page_size") &&
         bind(&a.page_text, "mcpread_pdf_page_text") &&
         bind(&a.page_marks, "mcpread_pdf_page_marks") &&
         bind(&a.render_png, "mcpread_pdf_render_png") &&
         bind(&a.write_subset, "mcpread_pdf_write_subset");
}

LibrarySpec spec() {
  LibrarySpec s{.needs = kNeeds, .missing_advice = kRebuild};
  for (std::string dir : plugin_directories()) {
    if (dir.empty()) continue;  // no install-time folder (the Windows build)
#if defined(_WIN32)
    std::replace(dir.begin(), dir.end(), '/', '\\');  // LoadLibraryExW wants backslashes
#endif
    s.candidates.push_back((dir.ends_with(separator) ? dir : dir + separator) + plugin_name);
  }
  return s;
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
  static const LazyLibrary<Api> lib(spec(), bind_all);  // the directories as they are at first use
  const Api* a = lib.get(error);
  if (a == nullptr && error != nullptr) *error += ".";
  return a;
}

void append_to_string(void* ctx, const char* data, std::size_t size) {
  static_cast<std::string*>(ctx)->append(data, size);
}

}  // namespace mcpread::readers::pdf
