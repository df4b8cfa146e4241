#include "audio/audio_signatures.hpp"

#include "byte_signatures.hpp"

#include <array>

namespace mcpread::readers::audio_signatures {
namespace {

using sig::Bytes;
using sig::has_at;

// MPEG audio layer III frame header at `at`; returns the frame length, 0 when not a header.
std::size_t mp3_frame(Bytes b, std::size_t at) {
  static constexpr std::array<unsigned, 15> kV1{0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320};
  static constexpr std::array<unsigned, 15> kV2{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160};
  static constexpr std::array<unsigned, 3> kRate{44100, 48000, 32000};
  if (b.size() < at + 4 || b[at] != 0xFF || (b[at + 1] & 0xE0) != 0xE0) return 0;
  const unsigned version = (b[at + 1] >> 3) & 3;  // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const unsigned layer = (b[at + 1] >> 1) & 3;    // 1: layer III
  const unsigned bitrate = b[at + 2] >> 4;
  const unsigned rate = (b[at + 2] >> 2) & 3;
  if (version == 1 || layer != 1 || bitrate == 0 || bitrate == 15 || rate == 3) return 0;
  const unsigned padding = (b[at + 2] >> 1) & 1;
  const unsigned hz = kRate[rate] >> (version == 3 ? 0 : version == 2 ? 1 : 2);
  if (version == 3) return 144000 * kV1[bitrate] / hz + padding;
  return 72000 * kV2[bitrate] / hz + padding;
}

bool is_mp3(Bytes b) {
  if (b.size() >= 10 && has_at(b, 0, "ID3") && b[3] >= 2 && b[3] <= 4 && b[4] != 0xFF &&
      b[6] < 0x80 && b[7] < 0x80 && b[8] < 0x80 && b[9] < 0x80)
    return true;
  const std::size_t len = mp3_frame(b, 0);
  if (len == 0) return false;
  // The next frame must follow when the sample holds it.
  return b.size() < len + 4 || mp3_frame(b, len) != 0;
}

bool is_adts(Bytes b) {
  return b.size() >= 7 && b[0] == 0xFF && (b[1] & 0xF6) == 0xF0 && ((b[2] >> 2) & 0xF) < 13;
}

// M4A/M4B among ISO base media files, unless a brand says it is an image (HEIC and AVIF files
// may list MPEG-4 brands too); a generic MPEG-4 brand counts when the name says .m4a or .m4b.
bool is_m4a(Bytes b, std::string_view ext) {
  const auto brands = sig::iso_brands(b);
  if (!brands) return false;
  bool image = false;
  brands->each([&](std::string_view br) {
    image |= br == "avif" || br == "avis" || br == "heic" || br == "heix" || br == "heim" ||
             br == "heis" || br == "hevc" || br == "hevx" || br == "mif1" || br == "msf1";
  });
  const std::string_view major = brands->major;
  return !image && (major == "M4A " || major == "M4B " || major == "M4P " ||
                    ((major == "mp42" || major == "isom" || major == "mp41") && (ext == "m4a" || ext == "m4b")));
}

}  // namespace

std::optional<Sniffed> sniff(const SniffInput& in) {
  const Bytes b = in.head;
  if ((has_at(b, 0, "RIFF") || has_at(b, 0, "RIFX") || has_at(b, 0, "RF64")) && has_at(b, 8, "WAVE"))
    return Sniffed{"audio/wav", "WAVE audio"};
  if (has_at(b, 0, "fLaC")) return Sniffed{"audio/flac", "FLAC audio"};
  if (has_at(b, 0, "OggS") && !sig::find(b, "\x80theora", 128)) return Sniffed{"audio/ogg", "Ogg audio"};
  if (is_m4a(b, in.extension)) return Sniffed{"audio/mp4", "MPEG-4 audio (M4A)"};
  if (is_mp3(b)) return Sniffed{"audio/mpeg", "MPEG audio (MP3)"};
  if (is_adts(b)) return Sniffed{"audio/aac", "AAC audio (ADTS)"};
  return std::nullopt;
}

}  // namespace mcpread::readers::audio_signatures
