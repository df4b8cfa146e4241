// OCR through the built server: a scanned PDF's pages, an image's text with file_type="text", and
// the text stand-in beside images for hosts whose models may get none.
#include "fixtures.hpp"
#include "http_client.hpp"
#include "mcp_client.hpp"
#include "ocr_fixtures.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::test;
using nlohmann::json;

namespace {

const std::vector<std::string> letter = {"The quick brown fox jumps over the lazy dog.",
                                         "Pack my box with five dozen liquor jugs."};
const std::string read_back = "The quick brown fox jumps over the lazy dog.\nPack my box with five dozen liquor jugs.";

std::vector<std::string> types(const json& result) {
  std::vector<std::string> t;
  for (const auto& b : result["content"]) t.push_back(b["type"]);
  return t;
}

}  // namespace

// The mean confidence Tesseract gives the test image (a point higher on Windows: ocr_fixtures.hpp).
const std::string image_confidence = std::to_string(kPictureConfidence) + "%";

TEST_CASE("ocr through the server") {
  TempDir root;
  const std::string d = root.path().string();
  root.write("scan.pdf", scanned_pdf({TextPicture{letter}}));
  root.write("note.png", text_png(TextPicture{letter}));
  SUBCASE("a scanned PDF page comes as text marked as OCR") {
    McpClient client({{d}});
    client.initialize();
    const json r = client.call("read", {{"file_path", "scan.pdf"}, {"file_type", "text"}, {"ocr_lang", "eng"}});
    const std::string text = r["content"][0]["text"];
    CHECK(text.ends_with("\u2500\u2500 Page 1 of 1 \u2500\u2500 [OCR, eng, mean confidence 95%]\n" + read_back));
    CHECK(r["_meta"]["ocr_languages"] == json::array({"eng"}));
  }
  SUBCASE("--ocr off leaves the page as it was") {
    McpClient client({{"--ocr", "off", d}});
    client.initialize();
    const json r = client.call("read", {{"file_path", "scan.pdf"}, {"file_type", "text"}});
    const std::string text = r["content"][0]["text"];
    CHECK(text.ends_with("[Page 1 has no text layer; call read with file_type=\"image\" and pages=\"1\" to see it.]"));
  }
  SUBCASE("file_type=text on an image gives its text") {
    McpClient client({{d}});
    client.initialize();
    const json r = client.call("read", {{"file_path", "note.png"}, {"file_type", "text"}});
    CHECK(r["content"][0]["text"] ==
          "Text of " + d + kSep + "note.png read with OCR [OCR, eng, mean confidence " +
              image_confidence + "]:\n\n" + read_back);
  }
  SUBCASE("/metrics counts OCR'd pages and images, by the engine or from the cache") {
    http::ServerProcess server({d});
    http::McpHttp mcp(server.port());
    mcp.initialize();
    mcp.call("read", {{"file_path", "scan.pdf"}, {"file_type", "text"}});
    mcp.call("read", {{"file_path", "scan.pdf"}, {"file_type", "text"}});  // the same page: cached
    mcp.call("read", {{"file_path", "note.png"}, {"file_type", "text"}});
    mcp.call("read", {{"file_path", "note.png"}});  // the image itself: no OCR
    http::Client ops(server.port());
    const std::string metrics = ops.send("GET", "/metrics").body;
    CHECK(http::metric_sample(metrics, R"(mcpread_ocr_pages_total{source="engine"})") == 2);
    CHECK(http::metric_sample(metrics, R"(mcpread_ocr_pages_total{source="cache"})") == 1);
  }
  SUBCASE("a bad ocr_lang is refused with what it must be") {
    McpClient client({{d}});
    client.initialize();
    const json r = client.call("read", {{"file_path", "note.png"}, {"file_type", "text"}, {"ocr_lang", 7}});
    CHECK(r["isError"] == true);
    CHECK(r["content"][0]["text"] ==
          "The \"ocr_lang\" argument must be Tesseract language names such as \"eng\" or \"eng+deu\".");
  }
  SUBCASE("a host whose models may get no images: the image's text follows it") {
    McpClient client({{"--host-profile", "ai-sdk", d}});
    client.initialize();
    const json r = client.call("read", {{"file_path", "note.png"}});
    CHECK(types(r) == std::vector<std::string>{"text", "image", "text"});
    CHECK(r["content"][2]["text"] == "[Text in the image above [OCR, eng, mean confidence " + image_confidence +
                                         "]:\n" + read_back + "]");
  }
  SUBCASE("other hosts get the image alone") {
    McpClient client({{"--host-profile", "generic", d}});
    client.initialize();
    const json r = client.call("read", {{"file_path", "note.png"}});
    CHECK(types(r) == std::vector<std::string>{"text", "image"});
  }
}
