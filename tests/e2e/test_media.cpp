// Images and audio through the binary: the blocks a client receives, for every protocol version.
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "mcp_client.hpp"

#include <doctest/doctest.h>

#include <boost/beast/core/detail/base64.hpp>

#include <string>

using namespace mcpread::test;
using nlohmann::json;

namespace {

std::string base64(const std::string& bytes) {
  std::string out(boost::beast::detail::base64::encoded_size(bytes.size()), '\0');
  out.resize(boost::beast::detail::base64::encode(out.data(), bytes.data(), bytes.size()));
  return out;
}

}  // namespace

TEST_CASE("images through the binary") {
  TempDir root;
  const std::string small_png = encode_picture({64, 48, 3, Pattern::gradient}, ".png");
  REQUIRE_FALSE(small_png.empty());
  root.write("small.png", small_png);
  McpClient client({{root.path().string()}});
  client.initialize("2025-11-25");

  SUBCASE("within the limits: the original bytes, after a describing text block") {
    const json r = client.call("read", {{"file_path", "small.png"}});
    CHECK_FALSE(r.contains("isError"));
    REQUIRE(r["content"].size() == 2);
    CHECK(r["content"][0]["type"] == "text");
    const std::string text = r["content"][0]["text"];
    CHECK(text.rfind("Image " + (root.path() / "small.png").string() + ": PNG, 64\u00d748 px, ", 0) == 0);
    CHECK(text.ends_with(" KB. Sent unchanged."));
    CHECK(r["content"][1]["type"] == "image");
    CHECK(r["content"][1]["mimeType"] == "image/png");
    CHECK(r["content"][1]["data"] == base64(small_png));
    CHECK(r["_meta"]["passed_through"] == true);
    CHECK(r["_meta"]["width"] == 64);
  }
  SUBCASE("read_image answers exactly as read") {
    CHECK(client.call("read_image", {{"file_path", "small.png"}}) == client.call("read", {{"file_path", "small.png"}}));
  }
  SUBCASE("too large: downscaled to 2000 px and within 5 MB of base64") {
    root.write("wide.jpg", encode_picture({3000, 1500, 3, Pattern::photo}, ".jpg"));
    const json r = client.call("read", {{"file_path", "wide.jpg"}});
    REQUIRE(r["content"].size() == 2);
    CHECK(r["content"][1]["mimeType"] == "image/jpeg");
    const std::string data = r["content"][1]["data"];
    CHECK(data.size() <= 5242880);
    const auto decoded = decode_image(base64_decode(data));
    CHECK(decoded.width == 2000);
    CHECK(decoded.height == 1000);
    CHECK(r["_meta"]["scale"] == doctest::Approx(1.5));
    CHECK(r["content"][0]["text"].get<std::string>().find("3000\u00d71500") != std::string::npos);
  }
  SUBCASE("a format models reject is converted") {
    const std::string tiff = encode_picture({120, 80, 3, Pattern::gradient}, ".tif");
    REQUIRE_FALSE(tiff.empty());
    root.write("scan.TIFF", tiff);
    const json r = client.call("read", {{"file_path", "scan.TIFF"}});
    REQUIRE(r["content"].size() == 2);
    const std::string mime = r["content"][1]["mimeType"];
    CHECK((mime == "image/png" || mime == "image/jpeg"));
    CHECK(decode_image(base64_decode(r["content"][1]["data"].get<std::string>())).width == 120);
    CHECK(r["_meta"]["original_format"] == "TIFF");
  }
  SUBCASE("a corrupt image is an error that names the file") {
    root.write("broken.png", small_png.substr(0, small_png.size() / 2));
    const json r = client.call("read", {{"file_path", "broken.png"}});
    CHECK(r["isError"] == true);
    CHECK(r["content"][0]["text"].get<std::string>().find((root.path() / "broken.png").string()) != std::string::npos);
  }
  SUBCASE("PGM and OpenEXR, which libvips reads from files only, are read") {
#if defined(_WIN32)
    MESSAGE("skipped: on Windows libvips' file-only loaders (Netpbm, OpenEXR) get no file to read, "
            "and sharp's libvips has no Netpbm loader (docs/portability.md)");
    return;
#endif
    root.write("scan.pgm", netpbm(30, 20, 1));
    root.write("light.exr", exr_rgb(16, 8, 2.0f));
    for (const char* name : {"scan.pgm", "light.exr"}) {
      CAPTURE(name);
      const json r = client.call("read", {{"file_path", name}});
      CHECK_FALSE(r.contains("isError"));
      REQUIRE(r["content"].size() == 2);
      CHECK(r["content"][1]["type"] == "image");
      CHECK(decode_image(base64_decode(r["content"][1]["data"].get<std::string>())).ok);
    }
  }
  SUBCASE("file_type=image on a text file is an error") {
    root.write("notes.txt", "hello\n");
    const json r = client.call("read", {{"file_path", "notes.txt"}, {"file_type", "image"}});
    CHECK(r["isError"] == true);
  }
}

TEST_CASE("images and audio on 2024-11-05") {
  TempDir root;
  const std::string png = encode_picture({32, 32, 4, Pattern::gradient}, ".png");
  root.write("icon.png", png);
  root.write("beep.wav", wav_file(800));
  McpClient client({{root.path().string()}});
  client.initialize("2024-11-05");
  const json image = client.call("read", {{"file_path", "icon.png"}});
  CHECK(image["content"][1]["type"] == "image");
  const json audio = client.call("read", {{"file_path", "beep.wav"}});
  CHECK(audio["isError"] == true);
  CHECK(audio["content"].size() == 1);
  CHECK(audio["content"][0]["text"] ==
        (root.path() / "beep.wav").string() + " is audio (audio/wav), but this session's protocol "
        "version (2024-11-05) cannot carry audio content. Audio needs a client that speaks MCP "
        "2025-03-26 or later.");
}

TEST_CASE("audio from 2025-03-26 on") {
  TempDir root;
  const std::string bytes = wav_file(1200);
  root.write("beep.wav", bytes);
  for (const char* version : {"2025-03-26", "2025-06-18", "2025-11-25"}) {
    CAPTURE(version);
    McpClient client({{root.path().string()}});
    client.initialize(version);
    const json r = client.call("read", {{"file_path", "beep.wav"}});
    CHECK_FALSE(r.contains("isError"));
    REQUIRE(r["content"].size() == 2);
    CHECK(r["content"][1]["type"] == "audio");
    CHECK(r["content"][1]["mimeType"] == "audio/wav");
    CHECK(r["content"][1]["data"] == base64(bytes));
  }
}
