#include "chm/chm_api.hpp"

#if !defined(_WIN32)
#include "mcpread/common/lazy_library.hpp"

namespace mcpread::readers::chm {

const Api* api(std::string* error) {
  static const LazyLibrary<Api> lib(
      {.needs = "Reading compiled HTML help needs CHMLib (Debian package libchm1)", .candidates = {"libchm.so.1"}},
      [](SymbolBinder& bind, Api& a) {
        return bind(&a.open, "chm_open") && bind(&a.close, "chm_close") && bind(&a.enumerate, "chm_enumerate") &&
               bind(&a.resolve, "chm_resolve_object") && bind(&a.retrieve, "chm_retrieve_object");
      });
  return lib.get(error);
}

}  // namespace mcpread::readers::chm
#endif
