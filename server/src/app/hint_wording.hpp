#pragma once
// The one place readers' hints are said in terms of the read tool's arguments.
#include "mcpread/readers/hint.hpp"

#include <string>

namespace mcpread::server {

// `file_type="image" and pages="3"`, `call read again with offset=51`, ...
std::string hint_wording(const readers::Hint& hint, readers::HintForm form);

// Makes the readers use hint_wording (idempotent).
void install_hint_wording();

}  // namespace mcpread::server
