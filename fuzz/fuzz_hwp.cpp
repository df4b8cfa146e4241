// fuzz_hwp: the Hangul word processor (HWP 5.0) reader. An input starting with the OLE2 signature
// goes through hwp::read_hwp_bytes whole (libolecf's compound file, the FileHeader, the sections
// inflated, the records, the office renderer); any other input is taken as one section's records
// (inflated) and read by hwp::read_section, then rendered, so that the record walker, the
// paragraph text's controls and the table builder see arbitrary records. Each is read twice: with
// the defaults, and with a tight cap, offset and limit picked from a hash of the input.
//
// Checked: every text block is valid UTF-8; an error is one text block; a successful answer ends
// with its closing note and names the paragraphs it shows within the document's count.
//
// Readers fuzzed: hwp.
#include "hwp/hwp_body.hpp"
#include "hwp/hwp_reader.hpp"
#include "ole2/ole2_file.hpp"
#include "paged_document.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace readers = mcpread::readers;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  readers::office::OfficeOptions options;
  options.max_images = 0;
  if (input.starts_with(readers::ole2::kSignature)) {
    mcpread::fuzz::check_paged_document(data, size, options, [&](const readers::office::OfficeOptions& o) {
      return readers::hwp::read_hwp_bytes(input, "fuzz.hwp", o, readers::CancelToken{});
    });
    return 0;
  }
  readers::hwp::Body body;
  const readers::office::Document& doc = body.doc;
  std::string error;
  const bool whole = readers::hwp::read_section(input, &body, &error);
  mcpread::fuzz::check(whole == error.empty(), "a damaged section says why, a whole one nothing");
  const readers::office::PartReader no_parts = [](const std::string&, std::string* why, std::uint64_t) {
    *why = "not read";
    return std::optional<std::string>();
  };
  mcpread::fuzz::check_paged_document(data, size, options, [&](const readers::office::OfficeOptions& o) {
    return readers::office::render_document(doc, no_parts, "HWP document", "fuzz.hwp", o, readers::CancelToken{},
                                            {});
  });
  return 0;
}
