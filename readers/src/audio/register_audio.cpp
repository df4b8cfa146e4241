// The audio reader: WAV, MP3, FLAC, Ogg, M4A and AAC sent as audio; other audio is refused by
// read.cpp with how to convert it.
#include "mcpread/readers/audio.hpp"
#include "mcpread/readers/registry.hpp"
#include "audio/audio_signatures.hpp"
#include "resource_contents.hpp"

namespace mcpread::readers {
namespace {

ReadOutcome read_as_audio(const ReaderCall& call) {
  return read_audio(call.file, call.classification, call.limits.audio_max_bytes, call.cancel);
}

ResourceReadResult audio_resource(const ResourceCall& call) {
  return resource_from_outcome(
      read_audio(call.file, call.classification, call.limits.audio_max_bytes, call.cancel), false);
}

std::string describe_audio(const ReadLimits&) { return "sent as audio."; }

}  // namespace

bool register_audio_reader(ReaderRegistry& registry) {
  return registry.add(Reader{
      .kind = FileKind::audio,
      .article = "an audio file",
      .noun = "audio",
      .describe = describe_audio,
      .extensions = {{"mp3", "audio/mpeg"}, {"wav", "audio/wav"},  {"flac", "audio/flac"},
                     {"ogg", "audio/ogg"},  {"oga", "audio/ogg"},  {"opus", "audio/ogg"},
                     {"m4a", "audio/mp4"},  {"m4b", "audio/mp4"},  {"aac", "audio/aac"}},
      .sniff = audio_signatures::sniff,
      .options = {limit_option<&ReadLimits::audio_max_bytes>("--audio-max-bytes",
                                                             "larger audio files are refused", 1, UINT64_MAX)},
      .read = read_as_audio,
      .resource = audio_resource,
  });
}

}  // namespace mcpread::readers
