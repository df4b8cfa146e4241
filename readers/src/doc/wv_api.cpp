#include "doc/wv_api.hpp"

#if !defined(_WIN32)
#include "mcpread/common/lazy_library.hpp"

namespace mcpread::readers::doc {

const WvApi* wv_api(std::string* error) {
  static const LazyLibrary<WvApi> lib(
      {.needs = "Reading Word 97-2003 documents needs libwv (Debian package libwv-1.2-4)",
       .candidates = {"libwv-1.2.so.4"}},
      [](SymbolBinder& bind, WvApi& a) {
        decltype(&::wvInit) init = nullptr;
        // dlsym on libwv's handle also finds the symbols of the libraries it depends on
        // (libgsf, GObject), which are loaded with it.
        if (!(bind(&init, "wvInit") && bind(&a.init_parser, "wvInitParser_gsf") && bind(&a.ole_free, "wvOLEFree") &&
              bind(&a.text, "wvText") && bind(&a.set_char_handler, "wvSetCharHandler") &&
              bind(&a.set_special_char_handler, "wvSetSpecialCharHandler") &&
              bind(&a.set_element_handler, "wvSetElementHandler") &&
              bind(&a.query_supported, "wvQuerySupported") && bind(&a.memory_input, "gsf_input_memory_new") &&
              bind(&a.unref, "g_object_unref")))
          return false;
        init();  // gsf_init() and libxml2's parser set-up; never undone while the process lives
        return true;
      });
  return lib.get(error);
}

}  // namespace mcpread::readers::doc
#endif
