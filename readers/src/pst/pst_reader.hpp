#pragma once
// The Outlook data file reader's reads: a .pst/.ost listed (its folders, nested, with their
// messages' date, sender and subject), paged; a path past the file reads one message by its
// folder and number ("/mail/box.pst/Top of Personal Folders/Inbox/3") as the mail reader answers
// an .eml. Internal to the readers library.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/file_kind.hpp"
#include "mcpread/readers/read.hpp"
#include "pst/pst_extract.hpp"

#include <optional>
#include <string>

namespace mcpread::readers::pst {

inline constexpr FileKind kPstKind{"pst"};

// The listing of a data file taken apart (`e`), for `shown`, paged by `request`.
ReadOutcome list_store(const std::string& shown, const Extracted& e, const ReadRequest& request, const ReadLimits& limits);

// A message taken out of a data file, answered as an e-mail message is.
ReadOutcome render(const std::string& shown, const Message& m, const ReadRequest& request, const ReadLimits& limits);

// A data file read by the `read` tool: its listing.
ReadOutcome read_pst_file(const OpenedFile& file, const ReadRequest& request, const ReadLimits& limits,
                          const CancelToken& cancel);

// A path past a data file: one of its messages.
std::optional<ReadOutcome> read_inside(const Roots& roots, const PathInsideFile& inside, const ReadRequest& request,
                                       const ReadLimits& limits, const CancelToken& cancel);

}  // namespace mcpread::readers::pst
