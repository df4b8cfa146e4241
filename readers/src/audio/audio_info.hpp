#pragma once
// What a host that cannot take audio still tells the model about it: length, sample rate and
// channels, read from the container's own header (WAV fmt/data, FLAC STREAMINFO, the first MPEG
// audio frame and its Xing/Info count, Ogg Vorbis/Opus headers and the last page's granule).
// Unknown or damaged headers give an empty answer, never a guess.
#include <optional>
#include <string_view>

namespace mcpread::readers {

struct AudioInfo {
  std::optional<double> seconds;
  unsigned sample_rate = 0;  // 0: unknown
  unsigned channels = 0;     // 0: unknown
};

AudioInfo audio_info(std::string_view bytes);

}  // namespace mcpread::readers
