#include "mcpread/readers/audio.hpp"

#include "audio_info.hpp"
#include "file_io.hpp"
#include "human_size.hpp"
#include "mcpread/readers/base64.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace mcpread::readers {

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
  auto bytes = file_io::read_whole_bytes(file.fd.get(), size, max_bytes);
  if (!bytes) {
    return ReadOutcome::error("Cannot read " + path + ": " +
                              (errno == EFBIG ? std::string("it grew past the audio size limit while being read")
                                              : std::string(std::strerror(errno))) + ".");
  }
  if (cancel.cancelled()) return ReadOutcome::stopped();
  ReadOutcome o;
  o.meta = {{"path", path},
            {"mime", c.mime},
            {"size", bytes->size()},
            {"description", c.description},
            {"sent_bytes", base64_size(bytes->size())}};
  std::string text = "Audio " + path + ": " + c.description + " (" + c.mime + "), " + human_size(bytes->size());
  const AudioInfo info = audio_info(view_of(*bytes));
  if (info.seconds) {
    char d[32];
    std::snprintf(d, sizeof d, "%.2f", *info.seconds);
    text += std::string(", ") + d + " s";
    o.meta["duration_s"] = *info.seconds;
  }
  if (info.sample_rate != 0) {
    text += ", " + std::to_string(info.sample_rate) + " Hz";
    o.meta["sample_rate"] = info.sample_rate;
  }
  if (info.channels != 0) {
    text += info.channels == 1 ? ", mono" : info.channels == 2 ? ", stereo" : ", " + std::to_string(info.channels) + " channels";
    o.meta["channels"] = info.channels;
  }
  // Whether the audio itself goes along is the host's matter: the server says so after this.
  o.blocks.emplace_back(TextBlock{text + "."});
  o.blocks.emplace_back(AudioBlock{c.mime, std::move(*bytes)});
  return o;
}

}  // namespace mcpread::readers
