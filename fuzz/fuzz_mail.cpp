// fuzz_mail: the mail reader (GMime 3 loaded as the server loads it) on arbitrary input: the
// message read as an .eml is (mail::read_message: headers, the body chosen and decoded, HTML made
// text, the attachments named and measured, paging), every attachment it lists taken out by its
// name (mail::attachment_bytes), and the input scanned as an mbox (mail::scan_mbox, in a memory
// file). Read twice: with the defaults, and with an offset and limit picked from a hash of the
// input.
//
// Checked: every text block is valid UTF-8; an error is one text block; every attachment listed
// is found again by its name, with the size the listing gave; mbox entries lie within the input.
//
// Readers fuzzed: mail.
#include "fuzz_check.hpp"
#include "mail/mail_message.hpp"
#include "mail/mail_reader.hpp"
#include "memory_file.hpp"
#include "reader_checks.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace readers = mcpread::readers;
  namespace mail = readers::mail;
  using mcpread::fuzz::check;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  readers::ReadRequest request;
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      const std::uint32_t h = mcpread::fuzz::fnv1a(data, size);
      request.offset = 1 + h % 8;
      request.limit = 1 + (h >> 8) % 4;
    }
    mcpread::fuzz::check_blocks(mail::read_message(bytes, "fuzz.eml", size, request, readers::ReadLimits{}));
  }
  const mail::MailLimits limits;
  const mail::Parsed parsed = mail::parse_message(bytes, limits);
  if (parsed.message) {
    check(mcpread::readers::utf8::is_valid(parsed.message->body), "the body is valid UTF-8");
    for (std::size_t i = 0; i < parsed.message->attachments.size() && i < 8; ++i) {
      const mail::Attachment& listed = parsed.message->attachments[i];
      const mail::PartBytes part = mail::attachment_bytes(bytes, listed.name, limits);
      check(part.bytes.has_value(), "a listed attachment is found by its name");
      if (part.bytes && listed.size) check(part.bytes->size() == *listed.size, "its size is the one listed");
    }
  }
  std::string error;
  if (auto file = readers::memory_file(bytes, "fuzz.mbox", &error)) {
    const mail::MboxScan scan = mail::scan_mbox(file->fd.get(), 1000, readers::CancelToken{});
    for (const mail::MboxEntry& e : scan.entries)
      check(e.offset <= size && e.length <= size - e.offset, "an mbox entry lies within the input");
  }
  return 0;
}
