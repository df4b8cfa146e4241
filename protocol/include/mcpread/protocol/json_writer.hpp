#pragma once
// Compact JSON serialization for messages we send. Equivalent to nlohmann's dump() without
// indentation, but its strings are copied as they are scanned, 16 bytes at a time: a read's
// answer is one large string (tens of kilobytes of numbered lines), and escaping it byte by byte
// was the largest cost of a tools/call. Invalid UTF-8 in strings becomes U+FFFD, so the output is always valid UTF-8.
//
// Binary values (nlohmann::json::binary) are written as a JSON string of their base64
// (RFC 4648, padded): a result carries an image's, a recording's or a PDF's bytes as they are,
// and their base64 is encoded once, straight into the outgoing message, instead of living first
// as a JSON string that is then copied and scanned for characters to escape.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace mcpread::protocol {

void append_json(const nlohmann::json& value, std::string& out);
void append_json_string(std::string_view text, std::string& out);

// About the size of append_json's output for `value` (exact for binary values, strings counted
// without escapes): lets a serializer reserve a message of megabytes once instead of growing it.
std::size_t wire_size_hint(const nlohmann::json& value);

}  // namespace mcpread::protocol
