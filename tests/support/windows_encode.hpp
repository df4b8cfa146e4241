#pragma once
// Windows only: iconv_encode's work (fixtures.hpp) through the system's code pages, as Windows
// has no iconv. A charset with no Windows code page (BIG5-HKSCS, the JIS X 0213 ones) throws,
// as iconv_open fails for a charset iconv lacks.
#if defined(_WIN32)
#include <string>

namespace mcpread::test {

std::string windows_encode(const std::string& utf8_text, const std::string& charset, bool skip_unencodable);

}  // namespace mcpread::test
#endif
