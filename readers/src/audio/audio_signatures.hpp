#pragma once
// The audio reader's signatures: WAVE, FLAC, Ogg (not Theora video), M4A, MP3 and ADTS AAC.
#include "mcpread/readers/registry.hpp"

#include <optional>

namespace mcpread::readers::audio_signatures {

std::optional<Sniffed> sniff(const SniffInput& in);

}  // namespace mcpread::readers::audio_signatures
