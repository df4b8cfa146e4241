// fuzz_classify: file classification (magic bytes, text scan, libmagic) on arbitrary bytes. The
// input is the start of a file; it is classified under a name picked by the input's size (so the
// extension rules meet every kind of content), and its first half again as the sample of a
// larger file, the way the reader sees a file whose head was cut inside a character.
//
// Checked: a mime type is always given; everything reported is valid UTF-8 (it ends up in
// messages); the extension's kind is named only when it differs from the kind found; the same
// bytes classify the same way twice (libmagic handles are reused between calls); an audio length
// read from the headers is finite and not negative.
#include "fuzz_check.hpp"
#include "mcpread/readers/classify.hpp"
#include "audio/audio_info.hpp"
#include "mcpread/readers/utf8.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace {

using mcpread::fuzz::check;
namespace readers = mcpread::readers;

constexpr std::array<std::string_view, 12> kNames = {
    "data",      "notes.txt",  "photo.png", "scan.pdf",   "song.mp3",  "lab.ipynb",
    "icon.svg",  "Makefile",   "clip.m4a",  "image.heic", "dir/.bashrc", "archive.JPG"};

readers::Classification classified(std::string_view name, std::span<const std::uint8_t> head,
                                   std::uint64_t size) {
  readers::Classification c = readers::classify(name, head, size);
  check(!c.mime.empty(), "a mime type is always given");
  check(readers::utf8::is_valid(c.mime) && readers::utf8::is_valid(c.description),
        "what classify() reports is valid UTF-8");
  check(!c.extension_kind || *c.extension_kind != c.kind,
        "the extension's kind is named only when it differs");
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> head(data, size);
  const std::string_view name = kNames[size % kNames.size()];
  const readers::Classification c = classified(name, head, size);
  const readers::Classification again = classified(name, head, size);
  check(c.kind == again.kind && c.mime == again.mime && c.description == again.description,
        "classification is deterministic");
  classified("data", head.first(size / 2), size);
  // What a host that cannot take audio is told of it: read from the same bytes' headers.
  const readers::AudioInfo audio = readers::audio_info(std::string_view(reinterpret_cast<const char*>(data), size));
  check(!audio.seconds || (std::isfinite(*audio.seconds) && *audio.seconds >= 0), "an audio length is finite and not negative");
  return 0;
}
