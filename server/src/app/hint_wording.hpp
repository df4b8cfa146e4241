#pragma once
// The one place readers' hints are said in terms of the read tool's arguments.
#include "mcpread/readers/hint.hpp"

#include <string>

namespace mcpread::server {

// `file_type="image" and pages="3"`, `call read again with offset=51`, ...: the wording the read
// tool hands to each read (parse_read_arguments) and resources/read to each resource read.
std::string hint_wording(const readers::Hint& hint, readers::HintForm form);

}  // namespace mcpread::server
