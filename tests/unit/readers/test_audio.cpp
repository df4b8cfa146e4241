// Audio through read_file: the bytes unchanged as an audio block, with a describing text block.
#include "fixtures.hpp"
#include "reader_fixtures.hpp"

#include "mcpread/readers/base64.hpp"
#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

using namespace mcpread::readers;
using mcpread::test::kSep;
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
    CHECK(text.rfind("Audio " + d + kSep + "beep.wav: ", 0) == 0);
    CHECK(text.find("(audio/wav), 3.9 KB, 0.50 s, 8000 Hz, mono.") != std::string::npos);
    CHECK(o.meta["duration_s"] == 0.5);
    const auto& audio = std::get<AudioBlock>(o.blocks[1]);
    CHECK(audio.mime_type == "audio/wav");
    CHECK(view_of(audio.data) == bytes);
    CHECK(o.meta["size"] == bytes.size());
    CHECK(o.meta["sent_bytes"] == mcpread::readers::base64_size(audio.data.size()));
  }
  SUBCASE("length, rate and channels from each container's header") {
    struct Row {
      const char* name;
      std::string bytes;
      double seconds;
      unsigned rate;
      unsigned channels;
    };
    const std::string zeros(64, '\0');
    // FLAC: STREAMINFO with 44.1 kHz, 2 channels, 16 bits, 441,000 samples.
    const std::string flac = std::string("fLaC\x80\x00\x00\x22", 8) + std::string(10, '\0') +
                             std::string("\x0A\xC4\x42\xF0\x00\x06\xBA\xA8", 8) + std::string(16, '\0');
    // MPEG 1 layer III, 128 kbit/s, 44.1 kHz, stereo, a Xing header counting 1,000 frames.
    std::string mp3 = std::string("ID3\x03\x00\x00\x00\x00\x00\x00", 10);
    for (int frame = 0; frame < 3; ++frame) {
      std::string f = std::string("\xFF\xFB\x90\x00", 4) + std::string(413, '\0');
      if (frame == 0) f.replace(36, 12, std::string("Xing\x00\x00\x00\x01\x00\x00\x03\xE8", 12));
      mp3 += f;
    }
    // Ogg Vorbis: identification header (2 channels, 48 kHz), a last page at granule 96,000.
    const std::string vorbis_id = std::string("\x01vorbis\x00\x00\x00\x00\x02\x80\xBB\x00\x00", 16) + std::string(14, '\0');
    const std::string ogg = std::string("OggS\x00\x02", 6) + std::string(20, '\0') + std::string("\x01\x1E", 2) +
                            vorbis_id + std::string("OggS\x00\x04\x00\x77\x01\x00", 10) + zeros;
    for (const Row& row : {Row{"a.flac", flac, 10.0, 44100, 2}, Row{"a.mp3", mp3, 1000 * 1152 / 44100.0, 44100, 2},
                           Row{"a.ogg", ogg, 2.0, 48000, 2}}) {
      CAPTURE(row.name);
      dir.write(row.name, row.bytes);
      const auto o = read(dir, row.name);
      REQUIRE_FALSE(o.is_error);
      CHECK(o.meta["duration_s"].get<double>() == doctest::Approx(row.seconds));
      CHECK(o.meta["sample_rate"] == row.rate);
      CHECK(o.meta["channels"] == row.channels);
    }
  }
  SUBCASE("a header it cannot read gives no length rather than a guess") {
    dir.write("odd.wav", "RIFF\x10\x00\x00\x00WAVEjunk\x00\x00\x00\x00");
    const auto o = read(dir, "odd.wav");
    if (!o.is_error) CHECK_FALSE(o.meta.contains("duration_s"));
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
          d + kSep + "long.wav is 4.9 KB of audio (audio/wav), over the limit of 1000 bytes for one "
              "answer (--audio-max-bytes).");
    CHECK(o.meta["kind"] == "audio");
  }
  SUBCASE("an empty file with an audio name") {
    dir.write("silence.mp3", "");
    const auto o = read(dir, "silence.mp3");
    CHECK(o.is_error);
    CHECK(std::get<TextBlock>(o.blocks[0]).text == d + kSep + "silence.mp3 is empty (0 bytes), not an audio file.");
  }
}
