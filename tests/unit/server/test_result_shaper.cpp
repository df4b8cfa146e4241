// The shaping stage: one neutral answer, shaped for each host profile: limits for the read, audio
// described where the host drops it, images within the host's per-answer budget or moved after
// the text where the host moves them, errors that say so where the host loses isError, and
// structuredContent only where the host keeps the text.
#include "mcpread/server/host_profile.hpp"
#include "result_shaper.hpp"

#include "mcpread/readers/base64.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread;
using nlohmann::json;
using readers::AudioBlock;
using readers::ImageBlock;
using readers::ReadOutcome;
using readers::TextBlock;

namespace {

const server::HostProfile& profile(const std::string& name) {
  static const server::HostProfiles profiles = server::HostProfiles::builtin();
  const auto* p = profiles.find(name);
  REQUIRE(p != nullptr);
  return *p;
}

const protocol::VersionFeatures modern = protocol::features_of("2025-11-25");

ReadOutcome audio_outcome() {
  ReadOutcome o;
  o.blocks.emplace_back(TextBlock{"Audio /r/a.wav: WAVE audio (audio/wav), 3.9 KB, 0.50 s."});
  o.blocks.emplace_back(AudioBlock{"audio/wav", readers::bytes_of("RIFF")});
  o.meta = {{"path", "/r/a.wav"}, {"mime", "audio/wav"}, {"sent_bytes", 8}};
  return o;
}

ReadOutcome images(int n, std::size_t text_bytes = 10) {
  ReadOutcome o;
  o.blocks.emplace_back(TextBlock{std::string(text_bytes, 'x')});
  for (int i = 0; i < n; ++i) {
    o.blocks.emplace_back(TextBlock{"image " + std::to_string(i + 1)});
    o.blocks.emplace_back(ImageBlock{"image/png", readers::bytes_of("PNG " + std::to_string(i))});
  }
  o.blocks.emplace_back(TextBlock{"end"});
  return o;
}

std::string all_text(const json& result) {
  std::string s;
  for (const auto& b : result["content"])
    if (b["type"] == "text") s += b["text"].get<std::string>() + "\n";
  return s;
}

int count(const json& result, const std::string& type) {
  int n = 0;
  for (const auto& b : result["content"]) n += b["type"] == type ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("shaping: limits for the read") {
  const readers::ReadLimits base;
  SUBCASE("generic keeps the server's limits") {
    const auto l = server::limits_for(base, profile("generic"));
    CHECK(l.text.max_output_bytes == base.text.max_output_bytes);
    CHECK(l.image.max_base64_bytes == base.image.max_base64_bytes);
    CHECK(l.image.max_tiles == 0);
    CHECK(l.pdf_default_mode == readers::PdfMode::text_and_blob);
  }
  SUBCASE("claude-code: images it passes unchanged, PDFs without a blob, text beside images") {
    const auto l = server::limits_for(base, profile("claude-code"));
    CHECK(l.image.max_base64_bytes == readers::base64_size(500000));
    CHECK(l.image.max_edge == 2000);
    CHECK(l.image.max_tiles == 4761);
    CHECK(l.pdf_default_mode == readers::PdfMode::text_and_page_images);
    CHECK(l.media_max_output_bytes == 40000);
    CHECK(l.text.max_output_bytes == base.text.max_output_bytes);  // the tool's _meta lifts the host's cap
  }
  SUBCASE("gemini-cli and codex: text under the length they cut at") {
    CHECK(server::limits_for(base, profile("gemini-cli")).text.max_output_bytes == 38000);
    CHECK(server::limits_for(base, profile("codex")).text.max_output_bytes == 11000);
  }
  SUBCASE("a server cap below the profile's stays") {
    readers::ReadLimits small;
    small.text.max_output_bytes = 4096;
    CHECK(server::limits_for(small, profile("gemini-cli")).text.max_output_bytes == 4096);
  }
}

TEST_CASE("shaping: audio") {
  SUBCASE("generic: the audio block, and the text says it was sent") {
    const json r = server::shape_result(audio_outcome(), profile("generic"), modern, false);
    REQUIRE(count(r, "audio") == 1);
    CHECK(r["content"][0]["text"] == "Audio /r/a.wav: WAVE audio (audio/wav), 3.9 KB, 0.50 s. Sent unchanged.");
    CHECK_FALSE(r["_meta"].contains("host_profile"));
  }
  SUBCASE("claude-code: described, not attached, and the text says why") {
    const json r = server::shape_result(audio_outcome(), profile("claude-code"), modern, false);
    CHECK(count(r, "audio") == 0);
    CHECK(all_text(r) ==
          "Audio /r/a.wav: WAVE audio (audio/wav), 3.9 KB, 0.50 s. [The audio itself is not attached: "
          "this host (claude-code) does not pass audio content on to the model.]\n");
    CHECK(r["_meta"]["audio_attached"] == false);
    CHECK(r["_meta"]["sent_bytes"] == 0);
    CHECK(r["_meta"]["host_profile"] == "claude-code");
  }
  SUBCASE("2024-11-05 has no audio: an error, whatever the host") {
    const json r = server::shape_result(audio_outcome(), profile("generic"), protocol::features_of("2024-11-05"), false);
    CHECK(r["isError"] == true);
    CHECK(all_text(r).find("cannot carry audio content") != std::string::npos);
  }
}

TEST_CASE("shaping: images") {
  SUBCASE("claude-code: images past the per-answer budget are left out from the end, with a note") {
    const json r = server::shape_result(images(16), profile("claude-code"), modern, false);
    CHECK(count(r, "image") == 12);  // 12 × 1,600 = 19,200 of 20,000 tokens
    CHECK(r["_meta"]["images_left_out"] == 4);
    CHECK(r["content"][2]["type"] == "image");  // the first ones stay in place
    CHECK(all_text(r).find("[An image was left out here") != std::string::npos);
  }
  SUBCASE("the text counts against the same budget") {
    const json r = server::shape_result(images(8, 40000), profile("claude-code"), modern, false);
    CHECK(count(r, "image") == 6);  // 10,000 tokens of text + 6 × 1,600
  }
  SUBCASE("generic sends every image") {
    CHECK(count(server::shape_result(images(16), profile("generic"), modern, false), "image") == 16);
  }
  SUBCASE("gemini-cli: images after all the text, each place saying which one belongs there") {
    const json r = server::shape_result(images(2), profile("gemini-cli"), modern, false);
    const auto& c = r["content"];
    REQUIRE(c.size() == 6);
    CHECK(c[0]["text"] == std::string(10, 'x'));
    CHECK(c[1]["text"] == "image 1\n[Image 1 of 2 belongs here; this host attaches images after all the text, and gives none to some models.]");
    CHECK(c[2]["text"] == "image 2\n[Image 2 of 2 belongs here; this host attaches images after all the text, and gives none to some models.]");
    CHECK(c[3]["text"] == "end");
    CHECK(c[4]["data"] == json::binary(readers::bytes_of("PNG 0")));
    CHECK(c[5]["data"] == json::binary(readers::bytes_of("PNG 1")));
  }
}

TEST_CASE("shaping: errors and structuredContent") {
  SUBCASE("hosts that lose isError get the word in the text") {
    for (const char* host : {"codex", "ai-sdk"}) {
      CAPTURE(host);
      const json r = server::shape_result(ReadOutcome::error("/r/x.txt does not exist."), profile(host), modern, false);
      CHECK(r["isError"] == true);
      CHECK(r["content"][0]["text"] == "Error: /r/x.txt does not exist.");
    }
    const json kept = server::shape_result(ReadOutcome::error("gone."), profile("claude-code"), modern, false);
    CHECK(kept["content"][0]["text"] == "gone.");
  }
  SUBCASE("structuredContent only when asked for, and never where it replaces the text") {
    ReadOutcome o;
    o.blocks.emplace_back(TextBlock{"     1\thello"});
    o.meta = {{"path", "/r/a.txt"}};
    CHECK(server::shape_result(o, profile("generic"), modern, true).contains("structuredContent"));
    CHECK_FALSE(server::shape_result(o, profile("generic"), modern, false).contains("structuredContent"));
    CHECK_FALSE(server::shape_result(o, profile("claude-code"), modern, true).contains("structuredContent"));
    CHECK_FALSE(server::shape_result(o, profile("generic"), protocol::features_of("2025-03-26"), true)
                    .contains("structuredContent"));
  }
}
