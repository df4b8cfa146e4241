// fuzz_doc: the Word 97-2003 reader (doc::read_doc_bytes: libwv's parser over an OLE2 compound
// file held in memory, the document builder fed by its callbacks, the office renderer) on
// arbitrary input. Read twice: with the defaults, and with a tight cap, offset and limit picked
// from a hash of the input. libwv parses in a child process (doc_process.cpp), since it crashes
// on some damaged files: its crashes and hangs come back as refusals here, and what this target
// checks is the parent's side (the answer, the Document sent back, the renderer). The child's
// coverage does not reach the fuzzer; tests/unit/readers/test_doc.cpp pins a libwv crash.
//
// Checked: every text block is valid UTF-8; an error is one text block; a successful answer ends
// with its closing note and names the paragraphs it shows within the document's count.
//
// Readers fuzzed: doc.
#include "doc/doc_reader.hpp"
#include "paged_document.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace readers = mcpread::readers;
  const std::string_view doc(reinterpret_cast<const char*>(data), size);
  readers::office::OfficeOptions options;
  options.max_images = 0;
  mcpread::fuzz::check_paged_document(data, size, options, [&](const readers::office::OfficeOptions& o) {
    return readers::doc::read_doc_bytes(doc, "fuzz.doc", o, readers::CancelToken{});
  });
  return 0;
}
