#include "audio_info.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace mcpread::readers {
namespace {

std::uint32_t byte(std::string_view b, std::size_t at) { return static_cast<unsigned char>(b[at]); }
std::uint32_t le32(std::string_view b, std::size_t at) {
  return byte(b, at) | byte(b, at + 1) << 8 | byte(b, at + 2) << 16 | byte(b, at + 3) << 24;
}
std::uint32_t be32(std::string_view b, std::size_t at) {
  return byte(b, at) << 24 | byte(b, at + 1) << 16 | byte(b, at + 2) << 8 | byte(b, at + 3);
}
std::uint64_t le64(std::string_view b, std::size_t at) {
  return le32(b, at) | static_cast<std::uint64_t>(le32(b, at + 4)) << 32;
}

AudioInfo wav(std::string_view b) {
  AudioInfo info;
  std::uint32_t byte_rate = 0;
  for (std::size_t at = 12; at + 8 <= b.size();) {
    const std::uint32_t size = le32(b, at + 4);
    if (b.substr(at, 4) == "fmt " && size >= 16 && at + 24 <= b.size()) {
      info.channels = byte(b, at + 10) | byte(b, at + 11) << 8;
      info.sample_rate = le32(b, at + 12);
      byte_rate = le32(b, at + 16);
    }
    if (b.substr(at, 4) == "data") {
      if (byte_rate != 0) info.seconds = static_cast<double>(std::min<std::uint64_t>(size, b.size() - at - 8)) / byte_rate;
      break;
    }
    at += 8 + static_cast<std::size_t>(size) + (size & 1);
  }
  return info;
}

AudioInfo flac(std::string_view b) {
  AudioInfo info;
  // "fLaC", then the STREAMINFO block's 4-byte header and 10 bytes of block and frame sizes.
  if (b.size() < 26 || (byte(b, 4) & 0x7F) != 0) return info;
  const std::uint64_t packed = static_cast<std::uint64_t>(be32(b, 18)) << 32 | be32(b, 22);
  info.sample_rate = static_cast<unsigned>(packed >> 44);
  info.channels = static_cast<unsigned>((packed >> 41) & 0x7) + 1;
  const std::uint64_t samples = packed & 0xFFFFFFFFFull;
  if (info.sample_rate != 0 && samples != 0) info.seconds = static_cast<double>(samples) / info.sample_rate;
  return info;
}

AudioInfo mpeg(std::string_view b) {
  AudioInfo info;
  std::size_t at = 0;
  if (b.size() >= 10 && b.substr(0, 3) == "ID3")  // ID3v2: a syncsafe size after 6 bytes
    at = 10 + (byte(b, 6) << 21 | byte(b, 7) << 14 | byte(b, 8) << 7 | byte(b, 9));
  for (const std::size_t end = std::min(b.size(), at + 65536); at + 4 <= end; ++at)
    if (byte(b, at) == 0xFF && (byte(b, at + 1) & 0xE0) == 0xE0) break;
  if (at + 4 > b.size()) return info;
  const std::uint32_t h = be32(b, at);
  const unsigned version = (h >> 19) & 3;  // 0: MPEG 2.5, 2: MPEG 2, 3: MPEG 1
  const unsigned layer = (h >> 17) & 3;    // 1: III, 2: II, 3: I
  const unsigned rate_index = (h >> 10) & 3, bitrate_index = (h >> 12) & 0xF;
  if (version == 1 || layer == 0 || rate_index == 3 || bitrate_index == 0 || bitrate_index == 15) return info;
  constexpr std::array<unsigned, 3> rates{44100, 48000, 32000};
  info.sample_rate = rates[rate_index] >> (version == 3 ? 0 : version == 2 ? 1 : 2);
  const bool mono = ((h >> 6) & 3) == 3;
  info.channels = mono ? 1 : 2;
  constexpr std::array<std::array<unsigned, 15>, 2> kbps{{
      {0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320},  // MPEG 1 layer III
      {0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160},     // MPEG 2/2.5 layer III
  }};
  const unsigned samples_per_frame = layer == 3 ? 384 : (layer == 1 && version != 3) ? 576 : 1152;
  // A Xing or Info header in the first frame counts the frames (VBR files); else the bit rate.
  const std::size_t side = version == 3 ? (mono ? 17 : 32) : (mono ? 9 : 17);
  const std::size_t tag = at + 4 + side;
  if (tag + 12 <= b.size() && (b.substr(tag, 4) == "Xing" || b.substr(tag, 4) == "Info") && (be32(b, tag + 4) & 1)) {
    info.seconds = static_cast<double>(be32(b, tag + 8)) * samples_per_frame / info.sample_rate;
  } else if (layer == 1) {
    const unsigned rate = kbps[version == 3 ? 0 : 1][bitrate_index];
    info.seconds = static_cast<double>(b.size() - at) * 8 / (rate * 1000.0);
  }
  return info;
}

AudioInfo ogg(std::string_view b) {
  AudioInfo info;
  if (b.size() < 28) return info;
  const std::size_t data = 27 + byte(b, 26);  // after the segment table
  std::uint64_t rate_for_granule = 0;
  if (data + 16 <= b.size() && b.substr(data, 7) == "\x01vorbis") {
    info.channels = byte(b, data + 11);
    info.sample_rate = le32(b, data + 12);
    rate_for_granule = info.sample_rate;
  } else if (data + 16 <= b.size() && b.substr(data, 8) == "OpusHead") {
    info.channels = byte(b, data + 9);
    info.sample_rate = le32(b, data + 12);  // the input's rate, as the encoder was told
    rate_for_granule = 48000;  // Opus granules count 48 kHz samples whatever the input rate
  } else {
    return info;
  }
  // The last page's granule position is the stream's length in samples.
  const std::size_t last = b.rfind("OggS");
  if (last != std::string_view::npos && last > 0 && last + 14 <= b.size()) {
    const std::uint64_t granule = le64(b, last + 6);
    if (granule != ~std::uint64_t{0}) info.seconds = static_cast<double>(granule) / static_cast<double>(rate_for_granule);
  }
  return info;
}

}  // namespace

AudioInfo audio_info(std::string_view b) {
  if (b.size() >= 12 && b.substr(0, 4) == "RIFF" && b.substr(8, 4) == "WAVE") return wav(b);
  if (b.size() >= 4 && b.substr(0, 4) == "fLaC") return flac(b);
  if (b.size() >= 4 && b.substr(0, 4) == "OggS") return ogg(b);
  if ((b.size() >= 3 && b.substr(0, 3) == "ID3") || (b.size() >= 2 && byte(b, 0) == 0xFF && (byte(b, 1) & 0xE0) == 0xE0))
    return mpeg(b);
  return {};
}

}  // namespace mcpread::readers
