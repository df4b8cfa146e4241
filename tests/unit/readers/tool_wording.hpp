#pragma once
// The readers' tests assert the texts the server sends: the reads they make are worded as the
// server words them (server::hint_wording, compiled into this executable), passed in each read as
// the server passes it. A test's choice: a read left alone gets the readers' plain words.
#include "hint_wording.hpp"

namespace mcpread::test {

// `options` (a reader's options, or a ReadRequest) with the server's wording.
template <class Options>
Options tool_worded(Options options) {
  options.wording = server::hint_wording;
  return options;
}

}  // namespace mcpread::test
