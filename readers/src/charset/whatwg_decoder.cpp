// The C++ side of the encoding_rs shim (whatwg_decoder/src/lib.rs): which decoders it takes over
// and a stream wrapper around its C functions.
#include "whatwg_decoder.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

// whatwg_decoder/src/lib.rs
extern "C" {
MCPReadWhatwgDecoder* mcpread_whatwg_decoder_new(const unsigned char* label, std::size_t len);
void mcpread_whatwg_decoder_free(MCPReadWhatwgDecoder* decoder);
std::uint32_t mcpread_whatwg_decoder_decode(MCPReadWhatwgDecoder* decoder, const unsigned char* src,
                                            std::size_t src_len, unsigned char* dst, std::size_t dst_len,
                                            bool last, std::size_t* read, std::size_t* written);
}

namespace mcpread::readers::charset_detail {
namespace {

struct Mapping {
  std::string_view decoder;   // the name charset_labels.cpp and detection give
  std::string_view encoding;  // the standard's name
};

// Every decoder name of charset_labels.cpp whose label is one of the standard's encodings.
constexpr std::array kMappings{
    Mapping{"UTF-8", "UTF-8"},
    Mapping{"UTF-16LE", "UTF-16LE"},         Mapping{"UTF-16BE", "UTF-16BE"},
    Mapping{"CP932", "Shift_JIS"},           Mapping{"CP949", "EUC-KR"},
    Mapping{"GB18030", "gb18030"},           Mapping{"BIG5-HKSCS", "Big5"},
    Mapping{"EUC-JP", "EUC-JP"},             Mapping{"ISO-2022-JP", "ISO-2022-JP"},
    Mapping{"IBM866", "IBM866"},             Mapping{"KOI8-R", "KOI8-R"},
    Mapping{"KOI8-U", "KOI8-U"},             Mapping{"ISO-8859-2", "ISO-8859-2"},
    Mapping{"ISO-8859-3", "ISO-8859-3"},     Mapping{"ISO-8859-4", "ISO-8859-4"},
    Mapping{"ISO-8859-5", "ISO-8859-5"},     Mapping{"ISO-8859-6", "ISO-8859-6"},
    Mapping{"ISO-8859-7", "ISO-8859-7"},     Mapping{"ISO-8859-8", "ISO-8859-8"},
    Mapping{"ISO-8859-10", "ISO-8859-10"},   Mapping{"ISO-8859-13", "ISO-8859-13"},
    Mapping{"ISO-8859-14", "ISO-8859-14"},   Mapping{"ISO-8859-15", "ISO-8859-15"},
    Mapping{"ISO-8859-16", "ISO-8859-16"},   Mapping{"WINDOWS-874", "windows-874"},
    Mapping{"WINDOWS-1250", "windows-1250"}, Mapping{"WINDOWS-1251", "windows-1251"},
    Mapping{"WINDOWS-1252", "windows-1252"}, Mapping{"WINDOWS-1253", "windows-1253"},
    Mapping{"WINDOWS-1254", "windows-1254"}, Mapping{"WINDOWS-1255", "windows-1255"},
    Mapping{"WINDOWS-1256", "windows-1256"}, Mapping{"WINDOWS-1257", "windows-1257"},
    Mapping{"WINDOWS-1258", "windows-1258"}, Mapping{"MACINTOSH", "macintosh"},
    Mapping{"MAC-CYRILLIC", "x-mac-cyrillic"},
};

}  // namespace

std::string_view whatwg_encoding_of(std::string_view name) {
  for (const auto& m : kMappings)
    if (m.decoder == name) return m.encoding;
  return {};
}

std::unique_ptr<WhatwgDecoder> WhatwgDecoder::open(std::string_view encoding) {
  auto* handle = mcpread_whatwg_decoder_new(reinterpret_cast<const unsigned char*>(encoding.data()),
                                            encoding.size());
  if (handle == nullptr) return nullptr;
  return std::unique_ptr<WhatwgDecoder>(new WhatwgDecoder(handle));
}

WhatwgDecoder::~WhatwgDecoder() { mcpread_whatwg_decoder_free(handle_); }

void WhatwgDecoder::convert(std::string_view in, std::string& out, bool last) {
  const auto* src = reinterpret_cast<const unsigned char*>(in.data());
  std::size_t left = in.size();
  std::array<unsigned char, 16384> buf;  // written before read: no need to clear it per line
  for (;;) {
    std::size_t read = 0;
    std::size_t written = 0;
    const std::uint32_t full = mcpread_whatwg_decoder_decode(handle_, src, left, buf.data(), buf.size(),
                                                             last, &read, &written);
    out.append(reinterpret_cast<const char*>(buf.data()), written);
    src += read;
    left -= read;
    if (full == 0) break;
  }
}

}  // namespace mcpread::readers::charset_detail
