#pragma once
// libmcpread_revenge.so (librevenge and the Document Liberation Project's importers behind the C
// interface of revenge_plugin_api.h), loaded with dlopen on the first such document from the
// directories the PDF plugin is looked for in. Not on Windows. Internal to the readers library.
#if !defined(_WIN32)
#include "../../revenge_plugin/revenge_plugin_api.h"

#include <string>

namespace mcpread::readers::revenge {

struct RevengeApi {
  mcpread_revenge_read_text_fn read_text;
  mcpread_revenge_read_sheet_fn read_sheet;
  mcpread_revenge_read_deck_fn read_deck;
};

// The plugin's table, loaded once; nullptr with *error saying what is missing.
const RevengeApi* revenge_api(std::string* error);

}  // namespace mcpread::readers::revenge
#endif
