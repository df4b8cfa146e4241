// fuzz_pst: the Outlook data file reader (pst/): the input read as a whole .pst file (libpff in a
// child process per read, as in the server, and the child's message back), as the child's
// message, and its bytes as a message's fields answered as the mail reader answers an .eml.
// libpff's own coverage does not reach the fuzzer (it runs in the child); its crashes and hangs
// come back as refusals.
//
// Checked: every text block is valid UTF-8; an error is one text block; a listing starts with its
// header; a message read back is written again byte for byte.
//
// Readers fuzzed: pst.
#include "input_file.hpp"
#include "pst/pst_extract.hpp"
#include "pst/pst_reader.hpp"
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
  check(head != nullptr && head->text.starts_with("Outlook data file "), "a listing starts with its header");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace readers = mcpread::readers;
  namespace pst = readers::pst;
  using mcpread::fuzz::check;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::uint32_t h = mcpread::fuzz::fnv1a(data, size);

  pst::Extracted message;
  if (pst::read_message(bytes, &message)) {
    check(pst::write_message(message) == bytes, "a message is written back the same");
    readers::ReadRequest request;
    request.offset = h % 7 + 1;
    request.limit = (h >> 4) % 5 + 1;
    check_listing(pst::list_store("/fuzz/input.pst", message, request, readers::ReadLimits{}));
    (void)mcpread::fuzz::check_blocks(pst::render("/fuzz/input.pst/Inbox/1", message.message, request, readers::ReadLimits{}));
  }

  // The input's bytes as one message's fields: names, body (plain or HTML), a listing over them.
  pst::Extracted e;
  const std::size_t third = bytes.size() / 3;
  e.folders.push_back({pst::component(bytes.substr(0, third)), static_cast<int>(h % 4), h % 3, {}});
  e.folders.back().messages.push_back({std::string(bytes.substr(third, third)), std::string(bytes.substr(0, third)), h});
  e.message.line = e.folders.back().messages.back();
  e.message.body = std::string(bytes.substr(2 * third));
  e.message.html = (h & 1) != 0;
  e.message.attachments.push_back({std::string(bytes.substr(0, third)), h});
  readers::ReadLimits limits;
  limits.text.max_output_bytes = 600 + (h >> 12) % 2000;
  check_listing(pst::list_store("/fuzz/input.pst", e, readers::ReadRequest{}, limits));
  (void)mcpread::fuzz::check_blocks(pst::render("/fuzz/input.pst/Inbox/1", e.message, readers::ReadRequest{}, limits));

  // The input as a whole data file.
  const readers::OpenedFile file = mcpread::fuzz::open_input(data, size, "/fuzz/input.pst");
  check_listing(pst::read_pst_file(file, readers::ReadRequest{}, readers::ReadLimits{}, readers::CancelToken{}));
  return 0;
}
