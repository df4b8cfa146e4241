// Readers' hints (read as another kind, go on from an offset, select pages, use a charset) and
// how a read says them: in the wording its caller passes (the tool host's, server::hint_wording,
// which this executable compiles to assert the texts the server sends), else in the readers' plain
// words. The wording travels with each read: there is no process-wide one.
#include "hint_wording.hpp"
#include "reader_fixtures.hpp"

#include "mcpread/readers/hint.hpp"
#include "mcpread/readers/read.hpp"
#include "mcpread/readers/resources.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace mcpread::readers;
using mcpread::server::hint_wording;
using mcpread::test::first_text;
using mcpread::test::roots_of;
using mcpread::test::TempDir;

TEST_CASE("hint wording: without a tool host the values are said in plain words") {
  const Wording plain;  // what a read gets unless its caller says otherwise
  CHECK(plain.say({.as = FileKind::image, .offset = 3, .pages = "2-4"}) == "read it again as image, from 3, pages 2-4");
  CHECK(plain.say({.encoding = "EUC-JP"}, HintForm::Call) == "Read it again decoded from EUC-JP");
  CHECK(Wording{nullptr}.say({.offset = 3}) == "read it again from 3");
  CHECK(ReadRequest{}.wording.say({.offset = 3}) == "read it again from 3");
}

TEST_CASE("hint wording: each read says its hints in its own wording, in one process") {
  TempDir dir;
  dir.write("three.txt", "a\nb\nc\n");
  dir.write("d/one.txt", "1");
  dir.write("d/two.txt", "2");
  // Reads that follow one another, as a tool host's and a plain caller's would in one process:
  // each answer is worded as its own read asked, whichever read came before.
  auto read = [&](const std::string& name, Wording wording) {
    ReadRequest request;
    request.file_path = (dir.path() / name).string();
    request.limit = 1;
    request.wording = wording;
    return first_text(read_file(roots_of(dir), request, ReadLimits{}, CancelToken{}));
  };
  SUBCASE("read") {
    const std::string tool = read("three.txt", hint_wording);
    const std::string plain = read("three.txt", {});
    const std::string tool_again = read("three.txt", hint_wording);
    CHECK(tool.ends_with("[Lines 1-1 of 3. To read more, call read again with offset=2.]"));
    CHECK(plain.ends_with("[Lines 1-1 of 3. To read more, read it again from 2.]"));
    CHECK(tool_again == tool);
    CHECK(read("d", {}).ends_with("To list more, read it again from 2.]"));
    CHECK(read("d", hint_wording).ends_with("To list more, call read again with offset=2.]"));
  }
  SUBCASE("resources/read") {
    ReadLimits limits;
    limits.max_directory_entries = 1;
    auto listing = [&](Wording wording) {
      const ResourceReadResult r =
          read_resource(roots_of(dir), (dir.path() / "d").string(), limits, CancelToken{}, wording);
      REQUIRE(r.status == ResourceStatus::ok);
      REQUIRE(r.contents.size() == 1);
      return r.contents.front().text;
    };
    CHECK(listing(hint_wording).ends_with("To list more, call read again with offset=2.]"));
    CHECK(listing({}).ends_with("To list more, read it again from 2.]"));
  }
}
