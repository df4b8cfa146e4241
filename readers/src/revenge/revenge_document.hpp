#pragma once
// A document of one of the Document Liberation Project's importers (WordPerfect, Microsoft Works
// and Write, Word for DOS, AbiWord, StarWriter, Pages, classic Macintosh word processors, Palm
// e-books) parsed through the plugin into the office readers' Document: paragraphs, headings,
// list items, tables, footnotes and endnotes, hyperlinks, and its raster images. Internal to the
// readers library.
#include "mcpread/readers/cancel.hpp"
#include "office/block_images.hpp"
#include "office/document.hpp"
#if !defined(_WIN32)
#include "../../revenge_plugin/revenge_plugin_api.h"
#endif

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::revenge {

using Picture = office::HeldPicture;

// The plugin's images ([{mime, base64}]) added to `out` as image1.png, image2.jpg, ...: the names,
// by the plugin's index, that its blocks and pages refer to (a name whose bytes do not decode has
// no picture). Throws nlohmann::json's errors on a malformed list, as its callers expect.
std::vector<std::string> pictures_from_plugin(const nlohmann::json& images, std::vector<Picture>& out);

struct RevengeDocument {
  office::Document doc;
  std::vector<Picture> pictures;
  std::size_t pictures_not_shown = 0;  // vector pictures (WMF, PICT, WPG) and those over the limit
  bool text_cut = false;               // the text went past the plugin's limit: the rest was dropped
  std::string format;                  // "WordPerfect document"
};

inline constexpr unsigned kParseSeconds = 30;                   // a parse taking longer is stopped
inline constexpr std::uint64_t kParseMemoryBytes = 2ull << 30;  // the parsing process's address space
inline constexpr std::size_t kMaxMessageBytes = 256u << 20;     // the parse's answer at most

// False with a sentence in *error (no final period): the plugin missing, no importer recognises
// the bytes, a kind other than a text document, encrypted, the parse failed, crashed or ran past
// kParseSeconds. The importers crash and loop on some damaged files: the parse runs in a child
// process that sends the document back.
bool read_revenge(std::string_view bytes, RevengeDocument* out, std::string* error, const CancelToken& cancel);

#if !defined(_WIN32)
struct RevengeApi;
// What the importers in the parsing child say, or anything it fails with, as a sentence:
// answers the JSON that plugin entry `entry` of RevengeApi (read_text, read_sheet) wrote.
bool run_importer(std::string_view bytes, std::string* answer, std::string* error, const CancelToken& cancel,
                  mcpread_revenge_read_text_fn RevengeApi::*entry, std::string_view crash_advice);
#endif

// Said after a crash or a malformed answer of a text document's parse (crash_advice above).
inline constexpr std::string_view kCrashAdvice =
    ": the document is damaged or uses what the importer cannot read; open it in LibreOffice and save it as ODT";

// The plugin's answer (revenge_plugin_api.h's JSON) made a RevengeDocument; false when malformed.
bool from_plugin_json(std::string_view json, RevengeDocument* out);

}  // namespace mcpread::readers::revenge
