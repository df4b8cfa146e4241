#include "libxml2_api.hpp"

#include "mcpread/common/lazy_library.hpp"

namespace mcpread::readers::libxml2 {

const Api* api(std::string_view reading, std::string* error) {
  // The spec names the library; the caller's words go before it (one library, several needs).
  static const LazyLibrary<Api> lib(
      {.needs = "libxml2 (Debian package libxml2)", .candidates = {"libxml2.so.2"}}, [](SymbolBinder& bind, Api& a) {
        decltype(&::xmlInitParser) init = nullptr;
        if (!(bind(&a.html_new_context, "htmlNewParserCtxt") && bind(&a.html_read_memory, "htmlCtxtReadMemory") &&
              bind(&a.html_free_context, "htmlFreeParserCtxt") && bind(&a.free_doc, "xmlFreeDoc") &&
              bind(&a.create_push, "xmlCreatePushParserCtxt") && bind(&a.use_options, "xmlCtxtUseOptions") &&
              bind(&a.parse_chunk, "xmlParseChunk") && bind(&a.stop, "xmlStopParser") &&
              bind(&a.free_context, "xmlFreeParserCtxt") && bind(&a.set_generic_error, "xmlSetGenericErrorFunc") &&
              bind(&a.set_structured_error, "xmlSetStructuredErrorFunc") && bind(&init, "xmlInitParser")))
          return false;
        init();  // once, before any thread parses (libxml2's own rule)
        return true;
      });
  std::string why;
  const Api* loaded = lib.get(&why);
  if (loaded == nullptr && error != nullptr) *error = std::string(reading) + " needs " + why;
  return loaded;
}

}  // namespace mcpread::readers::libxml2
