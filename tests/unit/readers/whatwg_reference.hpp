#pragma once
// The WHATWG Encoding Standard's decoders, written from the algorithms of its text
// (https://encoding.spec.whatwg.org/, "Legacy ... encodings" and "shared UTF-16 decoder") over
// its index files (tests/data/whatwg-encoding/), to test mcp-read's decoders against: nothing
// here uses encoding_rs, iconv or ICU. Slow and plain on purpose.
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::test::whatwg {

// The encodings the standard defines but UTF-8, replacement and x-user-defined, by its names.
const std::vector<std::string>& legacy_encodings();

// The UTF-8 of `bytes` (the whole stream, end-of-queue after them) decoded by the standard's
// decoder for `encoding` (one of those, or "UTF-8") in replacement mode (every error one U+FFFD), with no BOM sniffing.
std::string decode(std::string_view encoding, std::string_view bytes);

}  // namespace mcpread::test::whatwg
