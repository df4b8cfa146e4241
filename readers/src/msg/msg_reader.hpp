#pragma once
// Outlook messages (.msg) read for a model as the mail reader reads an .eml: the headers that
// matter, the text body paged by lines, the attachments listed, each read through a path past
// the message ("/mail/a.msg/report.pdf", "/mail/a.msg/Fwd.msg/x.pdf" into an attached message).
// Internal to the readers library.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/file_kind.hpp"
#include "mcpread/readers/read.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace mcpread::readers::msg {

inline constexpr FileKind kMsgKind{"msg"};

ReadOutcome read_msg_file(const OpenedFile& file, const ReadRequest& request, const ReadLimits& limits,
                          const CancelToken& cancel);

// The message in `bytes` and, when `inner` is not empty, the attachment it names ("a.pdf",
// "Fwd.msg/a.pdf"); `name` stands for the path in answers (tests, fuzzing, paths past a file).
ReadOutcome read_msg_bytes(std::string_view bytes, const std::string& name, const std::string& inner,
                           const ReadRequest& request, const ReadLimits& limits, const CancelToken& cancel);

std::optional<ReadOutcome> read_inside(const Roots& roots, const PathInsideFile& inside, const ReadRequest& request,
                                       const ReadLimits& limits, const CancelToken& cancel);

}  // namespace mcpread::readers::msg
