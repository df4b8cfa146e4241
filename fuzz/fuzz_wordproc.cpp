// fuzz_wordproc: the word-processor reader (revenge::read_revenge_bytes: the plugin's importers
// over the bytes in a child process, the JSON document it sends back, the office renderer) on
// arbitrary input, read twice: with the defaults, and with a tight cap, offset and limit picked
// from a hash of the input. The importers crash and loop on some damaged files; in the child,
// those come back as refusals, and the child's coverage does not reach the fuzzer. An input that
// starts with '{' is also given to from_plugin_json, the parent's reading of the child's answer,
// which must refuse malformed JSON without throwing.
//
// Checked: every text block is valid UTF-8; an error is one text block; a successful answer ends
// with its closing note and names the paragraphs it shows within the document's count.
//
// Readers fuzzed: wordproc.
#include "paged_document.hpp"
#include "revenge/revenge_document.hpp"
#include "revenge/revenge_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace readers = mcpread::readers;
  static const bool plugin_found = setenv("MCP_READ_PDF_PLUGIN_DIR", MCPREAD_FUZZ_PLUGIN_DIR, 1) == 0;
  (void)plugin_found;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (bytes.starts_with("{")) {
    readers::revenge::RevengeDocument parsed;
    (void)readers::revenge::from_plugin_json(bytes, &parsed);
  }
  readers::office::OfficeOptions options;
  options.max_images = 0;
  mcpread::fuzz::check_paged_document(data, size, options, [&](const readers::office::OfficeOptions& o) {
    return readers::revenge::read_revenge_bytes(bytes, "fuzz.wpd", o, readers::CancelToken{});
  });
  return 0;
}
