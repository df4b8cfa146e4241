// The Outlook data file reader: .pst (personal folders) and .ost (offline folders) stores through
// libpff, run in a child process. A read of the file lists its folders, nested, with their
// messages; "/mail/box.pst/Top of Personal Folders/Inbox/3" reads the third message of that
// folder as the mail reader answers an .eml.
#include "byte_signatures.hpp"
#include "mail/mail_reader.hpp"
#include "mcpread/readers/registry.hpp"
#include "pst/pst_reader.hpp"

namespace mcpread::readers {
namespace {

using pst::kPstKind;

// "!BDN", then the client signature at 8: "SM" in a .pst, "SO" in an .ost.
std::optional<Sniffed> sniff_pst(const SniffInput& in) {
  if (!sig::has_at(in.head, 0, "!BDN")) return std::nullopt;
  if (sig::has_at(in.head, 8, "SM")) return Sniffed{"application/vnd.ms-outlook-pst", "Outlook personal folders"};
  if (sig::has_at(in.head, 8, "SO")) return Sniffed{"application/vnd.ms-outlook-pst", "Outlook offline folders"};
  return std::nullopt;
}

}  // namespace

bool register_pst_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = kPstKind,
      .article = "an Outlook data file",
      .noun = "Outlook data files",
      .describe = mail::describe_mail,  // one line of the tool description with mail and msg
      .counts = "entry",
      .extensions = {{"pst", "application/vnd.ms-outlook-pst"}, {"ost", "application/vnd.ms-outlook-pst"}},
      .sniff = sniff_pst,
      .read = [](const ReaderCall& call) { return pst::read_pst_file(call.file, call.request, call.limits, call.cancel); },
      .read_inside = pst::read_inside,
  });
}

}  // namespace mcpread::readers
