// fuzz_html: html_text::to_text as the HTML reader calls it (links as [text](href)) on arbitrary
// markup. Checked: the text is valid UTF-8, never ends with a newline, and an error leaves it empty.
//
// Readers fuzzed: html.
#include "fuzz_check.hpp"
#include "html/html_text.hpp"
#include "mcpread/readers/utf8.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace readers = mcpread::readers;
  const std::string_view html(reinterpret_cast<const char*>(data), size);
  const auto page = readers::html_text::to_text(html, true);
  mcpread::fuzz::check(readers::utf8::is_valid(page.text), "the text is valid UTF-8");
  mcpread::fuzz::check(page.text.empty() || page.text.back() != '\n', "the text has no trailing newline");
  mcpread::fuzz::check(page.error.empty() || page.text.empty(), "an error leaves no text");
  return 0;
}
