// fuzz_notebook: the Jupyter notebook reader on arbitrary file contents. The input is the file:
// it is written to a memfd, which read_notebook() reads through its descriptor like an opened
// file. Each input is rendered twice: with the defaults, and with tight limits (output cap,
// output trimming, offset/limit, image count) picked from a hash of the input.
//
// Image outputs are decoded from base64 and then refused by a zero input-size limit, so libvips
// (a third-party decoder, loaded on demand) never runs here: its decoders are not ours to fuzz.
//
// Checked: every text block is valid UTF-8; an error is one text block; the cells shown are a
// range inside the notebook. Exceptions are findings: the reader reports every problem in its
// outcome, and the tool host's catch is a last resort that tells the user nothing useful.
//
// Readers fuzzed: notebook.
#include "fuzz_check.hpp"
#include "input_file.hpp"
#include "reader_checks.hpp"
#include "mcpread/readers/notebook.hpp"
#include "mcpread/readers/utf8.hpp"


#include <cstddef>
#include <cstdint>
#include <variant>

namespace {

using mcpread::fuzz::check;
using mcpread::fuzz::check_blocks;
using mcpread::fuzz::fnv1a;
namespace readers = mcpread::readers;


void check_outcome(const readers::ReadOutcome& o) {
  if (!check_blocks(o)) return;
  const auto& meta = o.meta;
  const auto cells = meta.at("cells").get<std::uint64_t>();
  if (cells == 0) return;
  const auto start = meta.at("start_cell").get<std::uint64_t>();
  const auto end = meta.at("end_cell").get<std::uint64_t>();
  check(start >= 1 && start <= end && end <= cells, "the cells shown lie inside the notebook");
  check(meta.contains("next_offset") == (end < cells), "next_offset is given when cells remain");
}

readers::NotebookOptions tight_options(const std::uint8_t* data, std::size_t size) {
  const std::uint32_t h = fnv1a(data, size);
  readers::NotebookOptions o;
  o.image.max_input_bytes = 0;
  o.max_output_bytes = std::size_t{600} << (h & 3);         // 600 .. 4800
  o.max_chars_per_output = (h >> 2) % 4 * 40;               // 0 (no trimming), 40, 80, 120
  o.offset = 1 + (h >> 4) % 3;
  if ((h >> 6) % 3 != 0) o.limit = (h >> 6) % 3;
  o.max_images = (h >> 8) % 3;
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const readers::OpenedFile file = mcpread::fuzz::open_input(data, size, "/fuzz/notebook.ipynb");
  readers::NotebookOptions defaults;
  defaults.image.max_input_bytes = 0;
  const readers::CancelToken never;
  check_outcome(readers::read_notebook(file, defaults, never));
  check_outcome(readers::read_notebook(file, tight_options(data, size), never));
  return 0;
}
