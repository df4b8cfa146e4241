// Audio through read_file: the bytes unchanged as an audio block, with a describing text block.
#include "fixtures.hpp"
#include "reader_fixtures.hpp"

#include "mcpread/readers/base64.hpp"
#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

using namespace mcpread::readers;
using mcpread::test::TempDir;

namespace {

// A valid PCM WAV file: 8-bit mono, 8 kHz, `samples` samples of a square wave.
std::string wav(std::uint32_t samples) {
  auto le32 = [](std::uint32_t v) {
    return std::string{static_cast<char>(v), static_cast<char>(v >> 8), static_cast<char>(v >> 16),
                       static_cast<char>(v >> 24)};
  };
  auto le16 = [](std::uint16_t v) { return std::string{static_cast<char>(v), static_cast<char>(v >> 8)}; };
  std::string data;
  for (std::uint32_t i = 0; i < samples; ++i) data.push_back(static_cast<char>((i / 20) % 2 ? 0xC0 : 0x40));
  return "RIFF" + le32(36 + samples) + "WAVE" + "fmt " + le32(16) + le16(1) + le16(1) + le32(8000) +
         le32(8000) + le16(1) + le16(8) + "data" + le32(samples) + data;
}

ReadOutcome read(const TempDir& dir, const std::string& name, ReadLimits limits = {}) {
  const Roots roots = mcpread::test::roots_of(dir);
  ReadRequest request;
  request.file_path = name;
  return read_file(roots, request, limits, CancelToken{});
}

}  // namespace

TEST_CASE("audio") {
  TempDir dir;
  const std::string d = dir.path().string();
  SUBCASE("a WAV file is sent unchanged as audio/wav, its length measured") {
    const std::string bytes = wav(4000);
    dir.write("beep.wav", bytes);
    const auto o = read(dir, "beep.wav");
    REQUIRE_FALSE(o.is_error);
    REQUIRE(o.blocks.size() == 2);
    const auto& text = std::get<TextBlock>(o.blocks[0]).text;
    CHECK(text.rfind("Audio " + d + "/beep.wav: ", 0) == 0);
    CHECK(text.find("(audio/wav), 3.9 KB, 0.50 s.") != std::string::npos);
    CHECK(o.meta["duration_s"] == 0.5);
    const auto& audio = std::get<AudioBlock>(o.blocks[1]);
    CHECK(audio.mime_type == "audio/wav");
    CHECK(audio.base64 == base64_encode(bytes));
    CHECK(o.meta["size"] == bytes.size());
    CHECK(o.meta["sent_bytes"] == audio.base64.size());
  }
  SUBCASE("the name does not matter, the bytes do") {
    dir.write("recording", wav(100));
    const auto o = read(dir, "recording");
    REQUIRE_FALSE(o.is_error);
    CHECK(std::get<AudioBlock>(o.blocks[1]).mime_type == "audio/wav");
  }
  SUBCASE("over the size limit") {
    dir.write("long.wav", wav(5000));
    ReadLimits limits;
    limits.audio_max_bytes = 1000;
    const auto o = read(dir, "long.wav", limits);
    CHECK(o.is_error);
    CHECK(std::get<TextBlock>(o.blocks[0]).text ==
          d + "/long.wav is 4.9 KB of audio (audio/wav), over the limit of 1000 bytes for one "
              "answer (--audio-max-bytes).");
    CHECK(o.meta["kind"] == "audio");
  }
  SUBCASE("an empty file with an audio name") {
    dir.write("silence.mp3", "");
    const auto o = read(dir, "silence.mp3");
    CHECK(o.is_error);
    CHECK(std::get<TextBlock>(o.blocks[0]).text == d + "/silence.mp3 is empty (0 bytes), not an audio file.");
  }
}
