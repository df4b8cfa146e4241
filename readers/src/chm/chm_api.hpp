#pragma once
// libchm (CHMLib, Debian package libchm1), opened with dlopen on the first .chm read: its header
// gives the types, the library is not linked. CHMLib's LZX decoder and its directory walk trust
// the file's numbers, so it runs only in a child process (chm_extract.cpp). Not on Windows: the
// Windows build does not include CHMLib. Internal to the readers library.
#if !defined(_WIN32)
#include <chm_lib.h>  // which says extern "C" itself

#include <string>

namespace mcpread::readers::chm {

struct Api {
  decltype(&::chm_open) open;
  decltype(&::chm_close) close;
  decltype(&::chm_enumerate) enumerate;
  decltype(&::chm_resolve_object) resolve;
  decltype(&::chm_retrieve_object) retrieve;
};

// The table; nullptr with *error saying what is missing ("Reading compiled HTML help needs
// CHMLib (Debian package libchm1): ...").
const Api* api(std::string* error);

}  // namespace mcpread::readers::chm
#endif
