#pragma once
// The readers' tests assert the texts the server sends: the reads they make are worded as the
// server words them (server::hint_wording, compiled into this executable), passed in each read as
// the server passes it. A test's choice: a read left alone gets the readers' plain words.
#include "hint_wording.hpp"
#include "reader_fixtures.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mcpread::test {

// `options` (a reader's options, or a ReadRequest) with the server's wording.
template <class Options>
Options tool_worded(Options options) {
  options.wording = server::hint_wording;
  return options;
}

// `bytes` written to `name` in `dir`, then read as the server reads it: worded as it words reads,
// with the paging arguments given and, when `kind` is given, the reader a `file_type` names.
inline readers::ReadOutcome read_worded(const TempDir& dir, const std::string& name, std::string_view bytes,
                                        std::optional<std::uint64_t> offset = {},
                                        std::optional<std::uint64_t> limit = {},
                                        std::optional<readers::FileKind> kind = {}) {
  dir.write(name, bytes);
  readers::ReadRequest request = tool_worded(readers::ReadRequest{});
  request.file_path = name;
  request.offset = offset;
  request.limit = limit;
  request.forced_kind = kind;
  return readers::read_file(roots_of(dir), request, readers::ReadLimits{}, readers::CancelToken{});
}

}  // namespace mcpread::test
