// fuzz_json_text: the text reader's file_type="json" path (JSON streamed through the SAX parser
// and shown pretty-printed) on arbitrary file contents, written to a memfd read through its
// descriptor like an opened file.
//
// Checked: every answer is one text block of valid UTF-8; when nlohmann's own parser accepts the
// input (and it nests at most 1000 levels), the reader accepts it too, and the pretty lines it
// shows, parsed again, are the same document (keys in order, numbers as written); a window picked
// from a hash of the input (offset, limit, column, line cap) shows lines inside the document.
//
// Readers fuzzed: json.
#include "fuzz_check.hpp"
#include "input_file.hpp"
#include "mcpread/common/json_depth.hpp"
#include "mcpread/readers/text.hpp"
#include "mcpread/readers/utf8.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

namespace {

using mcpread::fuzz::check;
namespace readers = mcpread::readers;


const std::string& text_of(const readers::ReadOutcome& o) {
  check(o.blocks.size() == 1, "an answer is one block");
  const auto* text = std::get_if<readers::TextBlock>(&o.blocks[0]);
  check(text != nullptr, "the block is text");
  check(readers::utf8::is_valid(text->text), "the text is valid UTF-8");
  return text->text;
}

// The shown lines without their "%6d\t" numbers, up to the blank line before the notes.
std::string unnumbered(const std::string& text) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size() && text[pos] != '\n') {
    const std::size_t tab = text.find('\t', pos);
    const std::size_t end = text.find('\n', pos);
    check(tab != std::string::npos && end != std::string::npos && tab < end, "lines are numbered");
    out.append(text, tab + 1, end + 1 - (tab + 1));
    pos = end + 1;
  }
  return out;
}

// How deep brackets outside strings nest: for valid JSON, the document's depth (counted without
// recursion, which a deeply nested input would overflow).
std::size_t depth_of(const std::string& input) { return mcpread::json_nesting_depth(input, SIZE_MAX); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const readers::OpenedFile file = mcpread::fuzz::open_input(data, size, "/fuzz/data.json");
  const readers::CancelToken never;
  const std::string input(reinterpret_cast<const char*>(data), size);

  readers::TextOptions whole;
  whole.json = true;
  whole.limit = UINT64_MAX / 2;
  whole.max_line_chars = std::size_t{1} << 30;
  whole.max_output_bytes = std::size_t{1} << 30;
  const readers::ReadOutcome all = readers::read_text(file, whole, never);
  const std::string& text = text_of(all);

  const auto expected = nlohmann::ordered_json::parse(input, nullptr, false);
  const bool valid = !expected.is_discarded() && depth_of(input) <= 1000;
  if (valid) {
    check(!all.is_error, "valid JSON is shown");
    const auto again = nlohmann::ordered_json::parse(unnumbered(text), nullptr, false);
    check(!again.is_discarded(), "the pretty lines are JSON");
    check(again == expected, "the pretty lines are the same document");
  }

  std::uint32_t h = 2166136261u;  // FNV-1a
  for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 16777619u;
  readers::TextOptions window;
  window.json = true;
  window.offset = 1 + h % 7;
  window.limit = 1 + (h >> 3) % 5;
  window.column = 1 + (h >> 6) % 9;
  window.max_line_chars = 1 + (h >> 10) % 12;
  window.max_output_bytes = std::size_t{200} << ((h >> 14) % 4);
  const readers::ReadOutcome part = readers::read_text(file, window, never);
  text_of(part);
  if (!part.is_error && part.meta.contains("total_lines")) {
    const auto total = part.meta["total_lines"].get<std::uint64_t>();
    const auto start = part.meta["start_line"].get<std::uint64_t>();
    const auto end = part.meta["end_line"].get<std::uint64_t>();
    check(total == 0 || (start == window.offset && start <= end && end <= total),
          "the lines shown lie inside the pretty-printed document");
  }
  return 0;
}
