// fuzz_media: the image and audio readers' own parsers on arbitrary bytes, the code that decides
// without libvips whether an image file is sent as it is: the PNG and JPEG header reader
// (image_header::plain_header, pass_through), the completeness and PNG chunk checks
// (image_checks), and the audio headers a host without audio still gets a length from
// (audio_info: WAV, FLAC, MPEG, Ogg) with the audio signatures.
//
// Checked: a header read has a format and a size; what is passed through is the input itself,
// with the size its header gave, complete and with intact chunks; a critical PNG problem has a
// sentence; an audio length is finite and not negative.
//
// Readers fuzzed: image, audio.
#include "audio/audio_info.hpp"
#include "audio/audio_signatures.hpp"
#include "fuzz_check.hpp"
#include "image/image_checks.hpp"
#include "image/image_header.hpp"
#include "mcpread/readers/registry.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace readers = mcpread::readers;
  using mcpread::fuzz::check;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);

  const auto header = readers::image_header::plain_header(bytes);
  if (header) {
    check(header->format == "PNG" || header->format == "JPEG", "a plain header is a PNG's or a JPEG's");
    check(header->width > 0 && header->height > 0, "a plain header has a size");
  }
  for (const std::string_view format : {"PNG", "JPEG", "GIF", "WEBP"}) (void)readers::image_checks::looks_complete(format, bytes);
  const auto chunks = readers::image_checks::png_chunk_problem(bytes);
  check(!chunks.critical || !chunks.text.empty(), "a critical chunk problem says what it is");
  if (const auto sent = readers::image_header::pass_through(bytes, readers::ImageLimits{}, nullptr)) {
    check(header.has_value(), "only a file with a plain header is passed through");
    check(sent->passed_through && std::string_view(reinterpret_cast<const char*>(sent->data.data()), sent->data.size()) == bytes,
          "what is passed through is the file itself");
    check(sent->width == header->width && sent->height == header->height, "it is sent at its header's size");
    check(readers::image_checks::looks_complete(header->format, bytes), "only a complete file is passed through");
    check(header->format != "PNG" || chunks.text.empty(), "a PNG passed through has intact chunks");
  }

  const readers::AudioInfo audio = readers::audio_info(bytes);
  if (audio.seconds) {
    check(std::isfinite(*audio.seconds) && *audio.seconds >= 0, "an audio length is finite and not negative");
  }
  readers::SniffInput in{std::span(data, size), "", false};
  if (const auto sniffed = readers::audio_signatures::sniff(in)) check(!sniffed->mime.empty(), "a sniffed recording has a MIME type");
  return 0;
}
