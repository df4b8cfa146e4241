#pragma once
// Compact JSON serialization for messages we send. Equivalent to nlohmann's dump() without
// indentation, but its strings are escaped 8 bytes at a time: a read's answer is one large string
// (tens of kilobytes of numbered lines), and escaping it byte by byte was the largest cost of a
// tools/call. Invalid UTF-8 in strings becomes U+FFFD, so the output is always valid UTF-8.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace mcpread::protocol {

void append_json(const nlohmann::json& value, std::string& out);
void append_json_string(std::string_view text, std::string& out);

}  // namespace mcpread::protocol
