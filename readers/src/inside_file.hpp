#pragma once
// The first step of a reader that reads inside files of its kind (messages' attachments, an
// archive's members): the outer file of a path that goes on inside it, opened as any file is,
// inside the roots.
#include "mcpread/readers/access.hpp"
#include "mcpread/readers/classify.hpp"
#include "mcpread/readers/read.hpp"

#include <string>
#include <utility>
#include <variant>

namespace mcpread::readers {

// The outer file when it is of `kind`; nothing when it is not (another reader may claim the path);
// or the answer to give now: the roots' refusal, or that the read would wait (`request.nowait`).
using OuterFile = std::variant<std::monostate, OpenedFile, ReadOutcome>;
// The first component of a path inside a file, and what follows it ("a/b/c": "a" and "b/c").
std::pair<std::string, std::string> split_first(const std::string& rest);

OuterFile open_outer_file(const Roots& roots, const PathInsideFile& inside, FileKind kind,
                          const ReadRequest& request);

}  // namespace mcpread::readers
