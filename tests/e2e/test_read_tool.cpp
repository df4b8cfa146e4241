// The read tool through the binary: text results and their metadata, paths and roots, and the
// errors a model meets (missing files, escapes, FIFOs, binaries), for every protocol version.
#include "fixtures.hpp"
#include "mcp_client.hpp"
#include "symlinks.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

using mcpread::test::McpClient;
using mcpread::test::TempDir;
using nlohmann::json;

namespace {

std::string text_of(const json& result) { return result["content"][0]["text"].get<std::string>(); }

}  // namespace

TEST_CASE("read: text files") {
  TempDir root;
  root.write("two.txt", "line one\nline two\n");
  McpClient client({{root.path().string()}});
  client.initialize();

  SUBCASE("cat -n lines, a closing note and _meta") {
    const json r = client.call("read", {{"file_path", (root.path() / "two.txt").string()}});
    CHECK_FALSE(r.contains("isError"));
    REQUIRE(r["content"].size() == 1);
    CHECK(r["content"][0]["type"] == "text");
    CHECK(text_of(r) == "     1\tline one\n     2\tline two\n\n[Lines 1-2 of 2. End of file.]");
    const json& meta = r["_meta"];
    CHECK(meta["path"] == (root.path() / "two.txt").string());
    CHECK(meta["mime"] == "text/plain");
    CHECK(meta["size"] == 18);
    CHECK(meta["charset"] == "UTF-8");
    CHECK(meta["total_lines"] == 2);
    CHECK(meta["start_line"] == 1);
    CHECK(meta["end_line"] == 2);
    CHECK(meta["truncated"] == false);
    CHECK_FALSE(meta.contains("next_offset"));
    CHECK(meta["mtime"].get<std::string>().size() == 20);
    CHECK_FALSE(r.contains("structuredContent"));
  }
  SUBCASE("relative paths resolve against the first root; `path` is not an alias") {
    const json a = client.call("read", {{"file_path", "two.txt"}});
    CHECK(text_of(a).rfind("     1\tline one\n", 0) == 0);
    const json b = client.call("read", {{"path", "two.txt"}});
    CHECK(b["isError"] == true);
    CHECK(text_of(b) == "Unknown argument \"path\": the read tool names the file with \"file_path\". "
                        "Call read with file_path instead.");
  }
  SUBCASE("offset and limit page through, and say where to continue") {
    std::string content;
    for (int i = 1; i <= 10; ++i) content += "row " + std::to_string(i) + "\n";
    root.write("ten.txt", content);
    const json r = client.call("read", {{"file_path", "ten.txt"}, {"offset", 4}, {"limit", 3}});
    CHECK(text_of(r) == "     4\trow 4\n     5\trow 5\n     6\trow 6\n\n"
                        "[Lines 4-6 of 10. To read more, call read again with offset=7.]");
    CHECK(r["_meta"]["next_offset"] == 7);
    CHECK(r["_meta"]["truncated"] == true);
  }
  SUBCASE("offset past the end says how many lines there are") {
    const json r = client.call("read", {{"file_path", "two.txt"}, {"offset", 50}});
    CHECK(r["isError"] == true);
    CHECK(text_of(r) == "Offset 50 is past the end of " + (root.path() / "two.txt").string() +
                            ": the file has 2 lines. Use an offset from 1 to 2.");
  }
  SUBCASE("an empty file") {
    root.write("empty.txt", "");
    const json r = client.call("read", {{"file_path", "empty.txt"}});
    CHECK_FALSE(r.contains("isError"));
    CHECK(text_of(r) == "[The file is empty (0 bytes).]");
  }
  SUBCASE("read_image gives the same answer as read") {
    CHECK(client.call("read_image", {{"file_path", "two.txt"}}) == client.call("read", {{"file_path", "two.txt"}}));
  }
  SUBCASE("a legacy charset is decoded and named") {
    // "Grüße aus Köln" and more, in Windows-1252.
    std::string latin;
    for (int i = 0; i < 20; ++i) latin += "Gr\xFC\xDF" "e aus K\xF6ln, sch\xF6ne Gr\xFC\xDF" "e an die Stra\xDF" "e.\n";
    root.write("latin.txt", latin);
    const json r = client.call("read", {{"file_path", "latin.txt"}, {"limit", 1}, {"encoding", "windows-1252"}});
    CHECK(text_of(r).rfind("     1\tGrüße aus Köln, schöne Grüße an die Straße.\n", 0) == 0);
    CHECK(r["_meta"]["charset"] == "WINDOWS-1252");
  }
  SUBCASE("Korean CP949 that libmagic calls a DOS program is read as text, and Shift_JIS as browsers do") {
    const std::string korean = "똠방각하는 오늘도 펲시콜라를 마시며 햏자들과 함께 뷁을 외쳤다. 마을 사람들은 웃었다.\n";
    root.write("hangul", mcpread::test::iconv_encode(korean, "CP949"));
    const json r = client.call("read", {{"file_path", "hangul"}});
    CHECK_FALSE(r.contains("isError"));
    CHECK(text_of(r) == "     1\t" + korean + "\n[Lines 1-1 of 1. End of file.]\n[Decoded from CP949 to UTF-8.]");
    CHECK(r["_meta"]["charset"] == "CP949");
    root.write("menu.vim", "User\\ Manual \x83\x81\x83\x6A\x83\x85\x81\x5B ~~~~\n");
    const json m = client.call("read", {{"file_path", "menu.vim"}, {"encoding", "shift_jis"}});
    CHECK(text_of(m) == "     1\tUser\\ Manual メニュー ~~~~\n\n[Lines 1-1 of 1. End of file.]\n"
                        "[Decoded from CP932 (the decoder browsers use for shift_jis) to UTF-8.]");
    CHECK(m["_meta"]["charset_label"] == "shift_jis");
  }
  SUBCASE("file_type=text reads a binary file as text") {
    root.write("blob.bin", std::string("\x7f" "ELF\x02\x01\x01\x00\x00\xff\xfe", 11));
    const json r = client.call("read", {{"file_path", "blob.bin"}, {"file_type", "text"}});
    CHECK_FALSE(r.contains("isError"));
    CHECK(text_of(r).rfind("     1\t\x7f" "ELF", 0) == 0);
  }
  SUBCASE("invalid bytes in a UTF-8 file become U+FFFD, and the answer says so") {
    std::string content;
    for (int i = 0; i < 40; ++i) content += "caf\xC3\xA9 na\xC3\xAFve \xE2\x9C\x93\n";
    content += "bad \xFF byte\n";
    root.write("mostly.txt", content);
    const json r = client.call("read", {{"file_path", "mostly.txt"}, {"offset", 41}});
    CHECK(text_of(r) == "    41\tbad \xEF\xBF\xBD byte\n\n[Lines 41-41 of 41. End of file.]\n"
                        "[1 byte sequence not valid in UTF-8 is shown as U+FFFD.]");
    CHECK(r["_meta"]["charset"] == "UTF-8");
  }
}

TEST_CASE("read: directories, missing files, roots") {
  TempDir root;
  TempDir outside;
  root.write("README.md", "# hi\n");
  root.write("src/main.cpp", "int main() {}\n");
  outside.write("secret.txt", "top secret\n");
  McpClient client({{root.path().string()}});
  client.initialize();

  SUBCASE("a directory is listed, sorted, directories marked") {
    const json r = client.call("read", {{"file_path", root.path().string()}});
    CHECK_FALSE(r.contains("isError"));
    CHECK(text_of(r) == "Directory " + root.path().string() + ": 2 entries (1 directory, 1 file)\n"
                        "README.md\nsrc/");
    CHECK(r["_meta"]["entries"] == 2);
  }
  SUBCASE("offset and limit page through a listing, and the note says how to go on") {
    for (const char* name : {"sub/b", "sub/a", "sub/d", "sub/c", "sub/e/x"}) root.write(name, "");
    const std::string head = "Directory " + (root.path() / "sub").string() +
                             ": 5 entries (1 directory, 4 files)\n";
    const json page = client.call("read", {{"file_path", "sub"}, {"offset", 2}, {"limit", 2}});
    CHECK_FALSE(page.contains("isError"));
    CHECK(text_of(page) ==
          head + "b\nc\n[Entries 2-3 of 5 entries. To list more, call read again with offset=4.]");
    CHECK(page["_meta"]["next_offset"] == 4);
    CHECK(page["_meta"]["truncated"] == true);
    const json rest = client.call("read", {{"file_path", "sub"}, {"offset", 4}});
    CHECK(text_of(rest) == head + "d\ne/\n[Entries 4-5 of 5 entries. End of listing.]");
    const json past = client.call("read", {{"file_path", "sub"}, {"offset", 9}});
    CHECK(past["isError"] == true);
    CHECK(text_of(past) == "Offset 9 is past the end of the directory " + (root.path() / "sub").string() +
                               ": it has 5 entries. Use an offset from 1 to 5.");
  }
  SUBCASE("a missing file suggests similar names") {
    const json r = client.call("read", {{"file_path", "REAMDE.md"}});
    CHECK(r["isError"] == true);
    CHECK(text_of(r) == "File not found: " + (root.path() / "REAMDE.md").string() +
                            ". Did you mean: " + (root.path() / "README.md").string() + "?");
  }
  SUBCASE("a path outside the roots is refused") {
    const json r = client.call("read", {{"file_path", (outside.path() / "secret.txt").string()}});
    CHECK(r["isError"] == true);
    CHECK(text_of(r).rfind("Access denied: ", 0) == 0);
    CHECK(text_of(r).find("top secret") == std::string::npos);
    const json dotdot = client.call("read", {{"file_path", "../" + outside.path().filename().string() + "/secret.txt"}});
    CHECK(dotdot["isError"] == true);
    CHECK(text_of(dotdot).rfind("Access denied: ", 0) == 0);
  }
  SUBCASE("a symlink leading out of the roots is refused") {
    if (!mcpread::test::make_symlink(outside.path() / "secret.txt", root.path() / "link.txt")) return;
    const json r = client.call("read", {{"file_path", "link.txt"}});
    CHECK(r["isError"] == true);
    CHECK(text_of(r).find("symbolic link") != std::string::npos);
    CHECK(text_of(r).find("top secret") == std::string::npos);
  }
#if !defined(_WIN32)  // Windows has no FIFOs in its file system
  SUBCASE("a FIFO is refused without blocking") {
    REQUIRE(::mkfifo((root.path() / "pipe").c_str(), 0600) == 0);
    const json r = client.call("read", {{"file_path", "pipe"}});
    CHECK(r["isError"] == true);
    CHECK(text_of(r) == (root.path() / "pipe").string() +
                            " is a FIFO (named pipe); only regular files and directories can be read.");
  }
#endif
  SUBCASE("a binary file is refused, naming its type and size") {
    std::string elf("\x7f" "ELF\x02\x01\x01", 7);
    elf += std::string(200, '\0');
    root.write("tool", elf);
    const json r = client.call("read", {{"file_path", "tool"}});
    CHECK(r["isError"] == true);
    CHECK(text_of(r).rfind((root.path() / "tool").string() + " is a binary file (", 0) == 0);
    CHECK(text_of(r).find("207 bytes") != std::string::npos);
    CHECK(text_of(r).find("file_type=\"text\"") != std::string::npos);
  }
  SUBCASE("an image is recognised by its bytes, whatever its name") {
    // A PNG signature and header without pixel data: recognised as PNG, refused as truncated.
    const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0", 29);
    root.write("picture.dat", png);
    const json r = client.call("read", {{"file_path", "picture.dat"}});
    CHECK(r["isError"] == true);
    CHECK(text_of(r).find((root.path() / "picture.dat").string()) != std::string::npos);
    CHECK(r["_meta"]["mime"] == "image/png");
    CHECK(r["_meta"]["kind"] == "image");
  }
  SUBCASE("a text file with an image name says what it really is") {
    root.write("fake.png", "just some text\n");
    const json r = client.call("read", {{"file_path", "fake.png"}});
    CHECK(r["isError"] == true);
    CHECK(text_of(r).find("is named like an image but is not one") != std::string::npos);
    CHECK(text_of(r).find("file_type=\"text\"") != std::string::npos);
  }
}

TEST_CASE("read: every protocol version gets schema-valid results") {
  TempDir root;
  root.write("a.txt", "alpha\nbeta\n");
  for (const char* version : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
    CAPTURE(version);
    McpClient client({{"--structured-content", root.path().string()}});
    client.initialize(version);
    const json ok = client.call("read", {{"file_path", "a.txt"}});
    const json missing = client.call("read", {{"file_path", "nope.txt"}});
    CHECK(missing["isError"] == true);
    // structuredContent only where the version has it, and only on success.
    CHECK(ok.contains("structuredContent") == (std::string(version) >= "2025-06-18"));
    CHECK_FALSE(missing.contains("structuredContent"));
    if (ok.contains("structuredContent")) CHECK(ok["structuredContent"] == ok["_meta"]);
  }
}
