// Archives through the binary: a tar.gz listed, a text member and a Word document inside a zip
// read by their readers, a member of an archive inside an archive, an encrypted member refused;
// every message schema-valid.
#include "archive_fixtures.hpp"
#include "fixtures.hpp"
#include "mcp_client.hpp"
#include "office_fixtures.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::test;
using nlohmann::json;

TEST_CASE("archives through the binary: listed, members read by their readers") {
  TempDir root;
  root.write("bundle.tar.gz", archive_bytes({{"docs/readme.txt", "first\nsecond\n"}, {"b.txt", "b\n"}}, "ustar", "gzip"));
  const std::string docx = docx_bytes("<w:p><w:r><w:t>Packed report</w:t></w:r></w:p>");
  const std::string inner = archive_bytes({{"x.txt", "deep\n"}}, "ustar");
  root.write("files.zip", zip_bytes({{"report.docx", docx}, {"inner.tar", inner}, {"secret.txt", "s", false, true}}));
  const std::string p = root.path().string();
  for (const char* version : {"2024-11-05", "2025-11-25"}) {
    CAPTURE(version);
    McpClient client({{p}});
    client.initialize(version);

    const json listing = client.call("read", {{"file_path", "bundle.tar.gz"}, {"limit", 1}});
    CHECK_FALSE(listing.contains("isError"));
    CHECK(listing["content"][0]["text"] ==
          "Archive " + p + kSep + "bundle.tar.gz (POSIX ustar format, gzip-compressed): 2 entries (0 directories, 2 files; "
          "15 bytes unpacked)\ndocs/readme.txt  13 bytes\n[Entries 1-1 of 2. To list more, call read again with "
          "offset=2.]\n[To read a member, read the archive's path followed by the member's path, e.g. " + p + kSep +
          "bundle.tar.gz/docs/readme.txt; archives inside archives the same way.]");

    const json text = client.call("read", {{"file_path", "bundle.tar.gz/docs/readme.txt"}});
    CHECK_FALSE(text.contains("isError"));
    CHECK(text["content"][0]["text"].get<std::string>().starts_with("     1\tfirst\n     2\tsecond"));

    const json word = client.call("read", {{"file_path", p + "/files.zip/report.docx"}});
    CHECK_FALSE(word.contains("isError"));
    CHECK(word["content"][0]["text"].get<std::string>().find("Packed report") != std::string::npos);

    const json deep = client.call("read", {{"file_path", "files.zip/inner.tar/x.txt"}});
    CHECK_FALSE(deep.contains("isError"));
    CHECK(deep["content"][0]["text"].get<std::string>().starts_with("     1\tdeep"));

    const json secret = client.call("read", {{"file_path", "files.zip/secret.txt"}});
    CHECK(secret["isError"] == true);
    CHECK(secret["content"][0]["text"] ==
          "Cannot read " + p + kSep + "files.zip/secret.txt: it is encrypted; mcp-read cannot read encrypted members.");
  }
}
