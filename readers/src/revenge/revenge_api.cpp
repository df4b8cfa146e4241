#include "revenge/revenge_api.hpp"

#if !defined(_WIN32)
#include "mcpread/common/lazy_library.hpp"
#include "pdf/pdf_loader.hpp"

namespace mcpread::readers::revenge {

namespace {

constexpr const char* kRebuild = " (rebuild mcp-read and the plugin together)";

LibrarySpec spec() {
  LibrarySpec s{.needs = "Reading WordPerfect, Works, Lotus, AbiWord, StarOffice, iWork, Visio, Publisher and other such "
                         "documents needs libmcpread_revenge.so (built next to mcp-read) and Debian's librevenge-0.0-0, "
                         "libwpd-0.10-10, libwps-0.4-4, libmwaw-0.3-3, libabw-0.1-1, libstaroffice-0.0-0, "
                         "libetonyek-0.1-1, libe-book-0.1-1, libvisio-0.1-1, libmspub-0.1-1, libcdr-0.1-1, "
                         "libfreehand-0.1-1, libpagemaker-0.0-0, libqxp-0.0-0 and libzmf-0.0-0",
                .missing_advice = kRebuild};
  for (const std::string& dir : pdf::plugin_directories())
    if (!dir.empty()) s.candidates.push_back((dir.ends_with('/') ? dir : dir + "/") + "libmcpread_revenge.so");
  return s;
}

}  // namespace

const RevengeApi* revenge_api(std::string* error) {
  static const LazyLibrary<RevengeApi> lib(spec(), [](SymbolBinder& bind, RevengeApi& a) {
    mcpread_revenge_api_version_fn version = nullptr;
    if (!bind(&version, "mcpread_revenge_api_version")) return false;
    if (version() != MCPREAD_REVENGE_API_VERSION)
      return bind.fail(bind.library() + " speaks interface version " + std::to_string(version()) + ", not " +
                       std::to_string(MCPREAD_REVENGE_API_VERSION) + kRebuild);
    return bind(&a.read_text, "mcpread_revenge_read_text") && bind(&a.read_sheet, "mcpread_revenge_read_sheet") &&
           bind(&a.read_deck, "mcpread_revenge_read_deck");
  });
  return lib.get(error);
}

}  // namespace mcpread::readers::revenge
#endif
