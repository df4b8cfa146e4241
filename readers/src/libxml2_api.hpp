#pragma once
// libxml2, loaded with dlopen on first use (linked, it and the ICU libraries it needs would load
// at every start of the server): one table of the functions its two users call, the HTML
// conversion (html/html_text.cpp: web pages, notebooks' HTML outputs, EPUB chapters) and the
// spreadsheets' streamed XML (sheets/xml_stream.cpp). Internal to the readers library.
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <string>
#include <string_view>

namespace mcpread::readers::libxml2 {

struct Api {
  // HTML parsed whole into a tree.
  decltype(&::htmlNewParserCtxt) html_new_context = nullptr;
  decltype(&::htmlCtxtReadMemory) html_read_memory = nullptr;
  decltype(&::htmlFreeParserCtxt) html_free_context = nullptr;
  decltype(&::xmlFreeDoc) free_doc = nullptr;
  // XML pushed in chunks through SAX callbacks.
  decltype(&::xmlCreatePushParserCtxt) create_push = nullptr;
  decltype(&::xmlCtxtUseOptions) use_options = nullptr;
  decltype(&::xmlParseChunk) parse_chunk = nullptr;
  decltype(&::xmlStopParser) stop = nullptr;
  decltype(&::xmlFreeParserCtxt) free_context = nullptr;
  // Where errors go (both users silence them: stderr is the server's log).
  decltype(&::xmlSetGenericErrorFunc) set_generic_error = nullptr;
  decltype(&::xmlSetStructuredErrorFunc) set_structured_error = nullptr;
};

// The table, loaded on the first call; nullptr when libxml2 cannot be used, with "<reading>
// needs libxml2 (Debian package libxml2): <why>" in *error when given (`reading`: what the
// caller does, "reading HTML").
const Api* api(std::string_view reading, std::string* error);

}  // namespace mcpread::readers::libxml2
