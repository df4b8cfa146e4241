// fuzz_msg: the Outlook message reader. The input is a .msg file: msg::read_msg_bytes reads it
// whole (libolecf's compound file, the property streams and the fixed-size properties, recipients,
// attachments, the code pages, the mail reader's answer), then each attached message it lists
// (the storages inside attachments, read as messages), at most three, and a body kept only as
// compressed RTF (LZFu decompressed, then the RTF reader).
//
// Checked: every text block is valid UTF-8; an error is one text block; a message's answer ends
// with its closing note.
//
// Readers fuzzed: msg.
#include "fuzz_check.hpp"
#include "msg/msg_message.hpp"
#include "msg/msg_reader.hpp"
#include "ole2/ole2_file.hpp"
#include "reader_checks.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace readers = mcpread::readers;
  namespace msg = readers::msg;
  using mcpread::fuzz::check;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  readers::ReadRequest request;
  request.limit = 50;
  const readers::ReadOutcome o = msg::read_msg_bytes(input, "fuzz.msg", {}, request, readers::ReadLimits{},
                                                     readers::CancelToken{});
  if (!mcpread::fuzz::check_blocks(o) || o.is_error) return 0;
  const auto* last = std::get_if<readers::TextBlock>(&o.blocks.back());
  check(last != nullptr && last->text.ends_with("]"), "the answer ends with its closing note");
  std::string error;
  const auto file = readers::ole2::CompoundFile::open(input, &error);
  if (file == nullptr) return 0;
  bool cut = false;
  int read = 0;
  for (const msg::MsgAttachment& a : msg::msg_attachments(*file, {}, msg::MsgLimits{}, &cut)) {
    if (!a.listed.message || ++read > 3) continue;
    mcpread::fuzz::check_blocks(
        msg::read_msg_bytes(input, "fuzz.msg", a.listed.name, request, readers::ReadLimits{}, readers::CancelToken{}));
  }
  // A body kept only as compressed RTF, decompressed and read by the RTF reader.
  mcpread::fuzz::check_blocks(
      msg::read_msg_bytes(input, "fuzz.msg", "body.rtf", request, readers::ReadLimits{}, readers::CancelToken{}));
  return 0;
}
