#include "mcpread/readers/audio.hpp"

#include "file_io.hpp"
#include "human_size.hpp"
#include "mcpread/readers/base64.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <optional>
#include <cstring>

namespace mcpread::readers {
namespace {

std::uint32_t le32(const std::string& b, std::size_t at) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(b[at])) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 1])) << 8 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 2])) << 16 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + 3])) << 24;
}

// A RIFF/WAVE file's length in seconds: the data chunk's size over the fmt chunk's byte rate
// (libmagic names the format, channels and rate, not the length). Empty when not a WAV.
std::optional<double> wav_duration(const std::string& b) {
  if (b.size() < 12 || b.compare(0, 4, "RIFF") != 0 || b.compare(8, 4, "WAVE") != 0) return std::nullopt;
  std::uint32_t byte_rate = 0;
  for (std::size_t at = 12; at + 8 <= b.size();) {
    const std::uint32_t size = le32(b, at + 4);
    if (b.compare(at, 4, "fmt ") == 0 && size >= 16 && at + 16 <= b.size()) byte_rate = le32(b, at + 16);
    if (b.compare(at, 4, "data") == 0) {
      if (byte_rate == 0) return std::nullopt;
      const std::uint64_t data = std::min<std::uint64_t>(size, b.size() - at - 8);
      return static_cast<double>(data) / byte_rate;
    }
    at += 8 + static_cast<std::size_t>(size) + (size & 1);
  }
  return std::nullopt;
}

}  // namespace

ReadOutcome read_audio(const OpenedFile& file, const Classification& c, std::uint64_t max_bytes,
                       const CancelToken& cancel) {
  const std::string path = file.path.string();
  const auto size = static_cast<std::uint64_t>(file.st.st_size);
  if (size == 0) return ReadOutcome::error(path + " is empty (0 bytes), not an audio file.");
  if (size > max_bytes) {
    return ReadOutcome::error(path + " is " + human_size(size) + " of audio (" + c.mime +
                              "), over the limit of " + human_size(max_bytes) +
                              " for one answer (--audio-max-bytes).");
  }
  auto bytes = file_io::read_whole(file.fd.get(), size, max_bytes);
  if (!bytes) {
    return ReadOutcome::error("Cannot read " + path + ": " +
                              (errno == EFBIG ? std::string("it grew past the audio size limit while being read")
                                              : std::string(std::strerror(errno))) + ".");
  }
  if (cancel.cancelled()) return ReadOutcome::stopped();
  ReadOutcome o;
  std::string base64 = base64_encode(*bytes);
  o.meta = {{"path", path},
            {"mime", c.mime},
            {"size", bytes->size()},
            {"description", c.description},
            {"sent_bytes", base64.size()}};
  std::string text = "Audio " + path + ": " + c.description + " (" + c.mime + "), " + human_size(bytes->size());
  if (const auto seconds = wav_duration(*bytes)) {
    char d[32];
    std::snprintf(d, sizeof d, "%.2f", *seconds);
    text += std::string(", ") + d + " s";
    o.meta["duration_s"] = *seconds;
  }
  // Whether the audio itself goes along is the host's matter: the server says so after this.
  o.blocks.emplace_back(TextBlock{text + "."});
  o.blocks.emplace_back(AudioBlock{c.mime, std::move(base64)});
  return o;
}

}  // namespace mcpread::readers
