// fuzz_jbig2: jbig2::first_page, the image reader's JBIG2 step (jbig2dec, loaded with dlopen as
// in the server, decoding a whole file under the reader's memory budget, and the page made a
// PBM for libvips). A small pixel limit keeps each input's work, and the budget, small.
//
// Checked: a page is a binary PBM of its stated size, within the limit, with its page count; a
// failure says why.
//
// Readers fuzzed: image.
#include "fuzz_check.hpp"
#include "image/jbig2_decode.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace jbig2 = mcpread::readers::jbig2;
  using mcpread::fuzz::check;
  // The file header first, so that every input reaches the decoder's segment parser.
  const std::string bytes = std::string(jbig2::kSignature) + std::string(reinterpret_cast<const char*>(data), size);
  constexpr std::uint64_t max_pixels = 1u << 20;
  const auto page = jbig2::first_page(bytes, max_pixels);
  if (const auto* p = std::get_if<jbig2::Page>(&page)) {
    const std::string header = "P4\n" + std::to_string(p->width) + " " + std::to_string(p->height) + "\n";
    check(p->pbm.starts_with(header), "a page is a binary PBM with its own size");
    check(p->pbm.size() == header.size() + std::size_t{(p->width + 7) / 8} * p->height, "a PBM holds every row");
    check(std::uint64_t{p->width} * p->height <= max_pixels && p->width > 0, "a page is within the pixel limit");
    check(p->pages >= 1, "a page comes with the file's page count");
  } else {
    check(!std::get<jbig2::Failure>(page).message.empty(), "a failure says why");
  }
  return 0;
}
