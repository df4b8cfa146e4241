#pragma once
// An Outlook message's compressed RTF body (PR_RTF_COMPRESSED, [MS-OXRTFCP]) made RTF again: the
// LZFu dictionary coding, or the stored "MELA" form. Internal to the .msg reader.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace mcpread::readers::msg {

// The RTF in `compressed`, at most `max_bytes` of it; nullopt with *error (a clause) when damaged.
std::optional<std::string> decompress_rtf(std::string_view compressed, std::size_t max_bytes, std::string* error);

}  // namespace mcpread::readers::msg
