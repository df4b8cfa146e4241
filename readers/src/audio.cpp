#include "mcpread/readers/audio.hpp"

#include "file_io.hpp"
#include "human_size.hpp"
#include "mcpread/readers/base64.hpp"

#include <cerrno>
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
            {"sent_bytes", base64.size()}};
  o.blocks.emplace_back(TextBlock{"Audio " + path + ": " + c.description + " (" + c.mime + "), " +
                                  human_size(bytes->size()) + ". Sent unchanged."});
  o.blocks.emplace_back(AudioBlock{c.mime, std::move(base64)});
  return o;
}

}  // namespace mcpread::readers
