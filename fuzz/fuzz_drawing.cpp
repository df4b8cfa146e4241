// fuzz_drawing: the deck reader of the importers' plugin (revenge::read_revenge_deck_bytes: the
// drawing importers and libetonyek's Keynote over the bytes in a child process, the JSON deck it
// sends back, the pages' rendering by the sections engine) on arbitrary input, read twice: with
// the defaults, and with a small output cap, `pages` and an offset picked from a hash of the
// input. The importers crash and loop on some damaged files; in the child, those come back as
// refusals, and the child's coverage does not reach the fuzzer. An input that starts with '{' is
// also given to deck_from_plugin_json, the parent's reading of the child's answer, whose deck is
// then rendered: it must refuse what is malformed without throwing.
//
// Checked: every text block is valid UTF-8; an error is one text block; an answer counts its
// pages or slides.
//
// Readers fuzzed: drawing, keynote.
#include "fuzz_check.hpp"
#include "mcpread/readers/cancel.hpp"
#include "reader_checks.hpp"
#include "revenge/revenge_decks.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

using mcpread::fuzz::check;
using mcpread::fuzz::check_blocks;
using mcpread::fuzz::fnv1a;
namespace readers = mcpread::readers;
namespace sections = mcpread::readers::sections;

void check_outcome(const readers::ReadOutcome& o) {
  if (!check_blocks(o)) return;
  check(o.meta.contains("pages") || o.meta.contains("slides"), "an answer counts its pages or slides");
}

sections::Options tight(std::uint64_t h) {
  sections::Options options;
  options.max_output_bytes = 1024 + h % 4096;
  options.offset = 1 + (h >> 12) % 3;
  options.max_sections = 1 + (h >> 20) % 3;
  options.pages = (h >> 28) % 2 == 0 ? "1" : "1-2";
  return options;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool plugin_found = setenv("MCP_READ_PDF_PLUGIN_DIR", MCPREAD_FUZZ_PLUGIN_DIR, 1) == 0;
  (void)plugin_found;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::uint64_t h = fnv1a(data, size);
  if (bytes.starts_with("{")) {
    readers::revenge::ImportedDeck deck;
    if (readers::revenge::deck_from_plugin_json(bytes, &deck)) {
      const auto pictures = readers::office::held_parts(deck.pictures, "missing");
      for (const sections::Options& options : {sections::Options{}, tight(h)}) {
        const readers::ReadOutcome o =
            sections::render(deck.deck, pictures, "fuzz.vsd", options, readers::CancelToken{}, nlohmann::json::object());
        if (!o.is_error) check_outcome(o);
        else check_blocks(o);
      }
    }
    return 0;
  }
  for (const sections::Options& options : {sections::Options{}, tight(h)}) {
    const readers::ReadOutcome o =
        readers::revenge::read_revenge_deck_bytes(bytes, "fuzz.vsd", "a drawing", options, readers::CancelToken{});
    if (!o.is_error) check_outcome(o);
    else check_blocks(o);
  }
  return 0;
}
