#pragma once
// libwv (wvWare's Word 97-2003 parser, Debian package libwv-1.2-4), opened with dlopen on the
// first .doc read: its headers give the types, the library is not linked. libwv keeps its state
// in globals (its stream list, its FKP caches): each document is parsed in a process of its own
// (doc_process.cpp). Not on Windows: the Windows build does not include libwv. Internal to the
// readers library.
#if !defined(_WIN32)
#include <gsf/gsf-input-memory.h>
#include <wv/wv.h>  // which says extern "C" itself

#include <string>

namespace mcpread::readers::doc {

struct WvApi {
  decltype(&::wvInitParser_gsf) init_parser;
  decltype(&::wvOLEFree) ole_free;
  decltype(&::wvText) text;
  decltype(&::wvSetCharHandler) set_char_handler;
  decltype(&::wvSetSpecialCharHandler) set_special_char_handler;
  decltype(&::wvSetElementHandler) set_element_handler;
  decltype(&::wvQuerySupported) query_supported;
  decltype(&::gsf_input_memory_new) memory_input;  // libgsf, a dependency of libwv
  decltype(&::g_object_unref) unref;               // GObject, the same
};

// The table, libwv started (wvInit) on the first call; nullptr with *error saying what is
// missing ("Reading Word 97-2003 documents needs libwv (Debian package libwv-1.2-4): ...").
const WvApi* wv_api(std::string* error);

}  // namespace mcpread::readers::doc
#endif
