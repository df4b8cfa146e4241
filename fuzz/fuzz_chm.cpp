// fuzz_chm: the compiled HTML help reader (chm/): the input read as a whole .chm file (CHMLib in a
// child process per read, as in the server, and the child's message back), as a table of
// contents (the tolerant .hhc scan, the Locals made member names, the listing paged), as a
// #SYSTEM record and as the child's message. CHMLib's own coverage does not reach the fuzzer (it
// runs in the child); its crashes and hangs come back as refusals.
//
// Checked: every text block is valid UTF-8; an error is one text block; a listing starts with
// its header; topics nest at no negative depth and their member names keep no "#part" and no
// leading "/"; a message read back is written again byte for byte.
//
// Readers fuzzed: chm.
#include "chm/chm_contents.hpp"
#include "chm/chm_extract.hpp"
#include "chm/chm_reader.hpp"
#include "input_file.hpp"
#include "reader_checks.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

void check_listing(const mcpread::readers::ReadOutcome& o) {
  using mcpread::fuzz::check;
  if (!mcpread::fuzz::check_blocks(o) || o.is_error) return;
  const auto* head = std::get_if<mcpread::readers::TextBlock>(&o.blocks.front());
  check(head != nullptr && head->text.starts_with("Compiled HTML help "), "a listing starts with its header");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace readers = mcpread::readers;
  namespace chm = readers::chm;
  using mcpread::fuzz::check;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::uint32_t h = mcpread::fuzz::fnv1a(data, size);

  bool cut = false;
  for (const chm::Topic& t : chm::parse_contents(bytes, &cut)) {
    check(t.depth >= 0, "a topic nests at no negative depth");
    const std::string member = chm::member_of_local(t.local);
    check(member.find('#') == std::string::npos && !member.starts_with('/'), "a member name has no #part or leading /");
  }
  (void)chm::parse_system(bytes);
  chm::Extracted message;
  if (chm::read_message(bytes, &message)) check(chm::write_message(message) == bytes, "a message is written back the same");

  // The input as a help file's table of contents, listed over a few files.
  chm::Extracted e;
  e.entries = {{"intro.htm", 10}, {"sub/more.htm", 20}, {"pic.png", 30}};
  e.contents_name = "toc.hhc";
  e.contents = std::string(bytes);
  e.system = std::string(bytes.substr(0, std::min<std::size_t>(bytes.size(), 64)));
  readers::ReadRequest request;
  readers::ReadLimits limits;
  limits.text.max_output_bytes = 600 + (h >> 12) % 2000;
  check_listing(chm::list_topics("/fuzz/input.chm", e, request, limits));
  request.offset = h % 5 + 1;
  request.limit = (h >> 4) % 3 + 1;
  check_listing(chm::list_topics("/fuzz/input.chm", e, request, limits));

  // The input as a whole help file.
  const readers::OpenedFile file = mcpread::fuzz::open_input(data, size, "/fuzz/input.chm");
  check_listing(chm::read_chm_file(file, readers::ReadRequest{}, readers::ReadLimits{}, readers::CancelToken{}));
  return 0;
}
