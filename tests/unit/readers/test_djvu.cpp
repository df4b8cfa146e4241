// DjVu documents through read_file: each page's hidden text under its marker, the title from the
// metadata, `pages` and paging on, pages without text OCR'd or said how to see, pages rendered
// with file_type="image", bundled, single-page and indirect documents, a document inside an
// archive, and damaged files refused with the reason. The documents are made with djvulibre's
// own tools (djvulibre-bin: cjb2, djvm, djvmcvt, djvused).
#include "archive_fixtures.hpp"
#include "djvu/djvu_open.hpp"
#include "file_io.hpp"
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "ocr_fixtures.hpp"
#include "reader_fixtures.hpp"
#include "tool_wording.hpp"

#include "mcpread/readers/access.hpp"
#include "mcpread/readers/caches.hpp"
#include "mcpread/readers/ocr.hpp"
#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <variant>
#include <vector>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

void run(const std::string& command) { REQUIRE_MESSAGE(std::system(command.c_str()) == 0, command); }

// A page of `width` x `height` pixels at 150 DPI showing `picture` (white when it has no lines),
// with `layer` as its hidden text, one line each.
struct Page {
  std::vector<std::string> layer;
  TextPicture picture{};
};

// Page files p1.djvu, p2.djvu... in `dir`, bundled as `name` (a single page: the page file itself).
std::string make_djvu(const TempDir& dir, const std::string& name, const std::vector<Page>& pages,
                      const std::string& title = "") {
  const std::string d = dir.path().string() + "/";
  std::string files;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    const Page& p = pages[i];
    int w = 300, h = 200;
    std::string grey;
    if (!p.picture.lines.empty()) grey = text_pixels(p.picture, &w, &h);
    std::string pbm = "P4\n" + std::to_string(w) + " " + std::to_string(h) + "\n";
    const int row = (w + 7) / 8;
    std::string bits(static_cast<std::size_t>(row * h), '\0');
    for (int y = 0; !grey.empty() && y < h; ++y)
      for (int x = 0; x < w; ++x)
        if (static_cast<unsigned char>(grey[static_cast<std::size_t>(y * w + x)]) < 128)
          bits[static_cast<std::size_t>(y * row + x / 8)] |= static_cast<char>(0x80 >> (x % 8));
    const std::string stem = d + "p" + std::to_string(i + 1);
    dir.write("p" + std::to_string(i + 1) + ".pbm", pbm + bits);
    run("cjb2 -dpi 150 " + stem + ".pbm " + stem + ".djvu");
    if (!p.layer.empty()) {
      std::string txt = "(page 0 0 " + std::to_string(w) + " " + std::to_string(h);
      for (const std::string& line : p.layer) txt += "\n (line 0 0 10 10 \"" + line + "\")";
      dir.write("t.txt", txt + ")\n");
      run("djvused " + stem + ".djvu -e 'select 1; set-txt " + d + "t.txt' -s");
    }
    files += " " + stem + ".djvu";
  }
  if (pages.size() == 1) run("cp" + files + " " + d + name);
  else run("djvm -c " + d + name + files);
  if (!title.empty()) {
    dir.write("meta.txt", "title \"" + title + "\"\n");
    run("djvused " + d + name + " -e '" + (pages.size() == 1 ? "select 1" : "create-shared-ant") + "; set-meta " + d +
        "meta.txt' -s");
  }
  std::ifstream in(d + name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

ReadOutcome read_djvu(const TempDir& dir, const std::string& name, const std::string& pages = "",
                      std::optional<FileKind> kind = {}, ReadLimits limits = {}) {
  ReadRequest request = tool_worded(ReadRequest{});
  request.file_path = name;
  request.pages = pages;
  request.forced_kind = kind;
  request.ocr_lang = "eng";
  return read_file(roots_of(dir), request, limits, CancelToken{});
}

ReadLimits ocr_off() {
  ReadLimits l;
  l.ocr_mode = OcrMode::off;
  return l;
}

}  // namespace

TEST_CASE("djvu: each page's hidden text") {
  TempDir dir;
  const std::string d = dir.path().string() + kSep;
  SUBCASE("a single page: its lines under its marker, the page count and size in the header") {
    const std::string bytes = make_djvu(dir, "one.djvu", {{.layer = {"Hello world", "Second line"}}});
    const auto o = read_djvu(dir, "one.djvu");
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o) == "DjVu document " + d + "one.djvu: 1 page, " + std::to_string(bytes.size()) +
                               " bytes. Page 1 follows.\n\n── Page 1 of 1 ──\nHello world\nSecond line");
    CHECK(o.meta["kind"] == "djvu");
    CHECK(o.meta["pages"] == 1);
    CHECK(o.blocks.size() == 1);
  }
  SUBCASE("a bundled document: the title from its metadata, `pages` picks them") {
    make_djvu(dir, "two.djvu", {{.layer = {"First page"}}, {.layer = {"Second page"}}, {.layer = {"Third page"}}},
              "A Title");
    const auto o = read_djvu(dir, "two.djvu", "2-3");
    REQUIRE_FALSE(o.is_error);
    const std::string t = first_text(o);
    CHECK(t.starts_with("DjVu document " + d + "two.djvu: \"A Title\", 3 pages, "));
    CHECK(t.ends_with(" Pages 2-3 follow.\n\n── Page 2 of 3 ──\nSecond page\n\n── Page 3 of 3 ──\nThird page"));
    CHECK(o.meta["title"] == "A Title");
    CHECK(o.meta["metadata"]["title"] == "A Title");
    CHECK(o.meta["selected"] == nlohmann::json::array({2, 3}));
    SUBCASE("read again, the same answer (from what the first read kept)") {
      CHECK(first_text(read_djvu(dir, "two.djvu", "2-3")) == t);
      CHECK(release_caches() > 0);
      CHECK(first_text(read_djvu(dir, "two.djvu", "2-3")) == t);
    }
    SUBCASE("a page past the end is refused") {
      const auto past = read_djvu(dir, "two.djvu", "4");
      CHECK(past.is_error);
      CHECK(first_text(past).find("3 pages") != std::string::npos);
    }
  }
  SUBCASE("more pages than a call reads: where to go on") {
    ReadLimits limits;
    limits.pdf_max_pages = 2;
    make_djvu(dir, "three.djvu", {{.layer = {"a"}}, {.layer = {"b"}}, {.layer = {"c"}}});
    const auto o = read_djvu(dir, "three.djvu", "", {}, limits);
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).ends_with("── Page 2 of 3 ──\nb\n\n[Page 3 not shown; call read with pages=\"3\" to continue "
                                  "(at most 2 pages per call).]"));
    CHECK(o.meta["next_pages"] == "3");
  }
  SUBCASE("an indirect document: its page files are never opened, each page says so") {
    make_djvu(dir, "two.djvu", {{.layer = {"First page"}}, {.layer = {"Second page"}}});
    run("mkdir " + d + "ind && djvmcvt -i " + d + "two.djvu " + d + "ind index.djvu");
    const auto o = read_djvu(dir, "ind/index.djvu");
    REQUIRE_FALSE(o.is_error);
    const std::string why = "it is an indirect DjVu document, whose pages are separate files, which are not read; "
                            "bundle it (djvmcvt -b INDEX.djvu BUNDLED.djvu) and read the bundled document.]";
    CHECK(first_text(o).find("── Page 1 of 2 ──\n[Page 1 could not be read: " + why) != std::string::npos);
    CHECK(first_text(o).ends_with("── Page 2 of 2 ──\n[Page 2 could not be read: " + why));
    CHECK(first_text(o).find("First page") == std::string::npos);
  }
  SUBCASE("a bundled document inside an archive is read from memory") {
    const std::string bytes = make_djvu(dir, "two.djvu", {{.layer = {"First page"}}, {.layer = {"Second page"}}});
    dir.write("a.zip", archive_bytes({{.name = "doc.djvu", .data = bytes}}, "zip"));
    const auto o = read_djvu(dir, "a.zip/doc.djvu");
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).ends_with("── Page 1 of 2 ──\nFirst page\n\n── Page 2 of 2 ──\nSecond page"));
  }
}

TEST_CASE("djvu: what a read kept of a page that failed") {
  // What an earlier read kept, put in the cache by hand: a page djvulibre ran out of time on
  // cannot be made on demand without waiting out its deadline.
  TempDir dir;
  make_djvu(dir, "two.djvu", {{.layer = {"First page"}}, {.layer = {"Second page"}}});
  auto opened = open_in_roots(roots_of(dir), "two.djvu");
  REQUIRE(std::holds_alternative<OpenedFile>(opened));
  const std::string key = file_io::identity_key(std::get<OpenedFile>(opened));
  auto kept = std::make_shared<djvu::OpenDjvu>();
  kept->pages = 2;
  kept->texts[2] = {2, 300, 200, 150, "Second page", "", false};
  SUBCASE("a page not read in time is read again") {
    kept->texts[1] = {1, 0, 0, 0, "", "djvulibre did not finish reading page 1 in time", true};
    djvu::OpenDjvuCache::instance().put(key, kept);
    CHECK(first_text(read_djvu(dir, "two.djvu", "1")).ends_with("── Page 1 of 2 ──\nFirst page"));
    CHECK_FALSE(kept->texts.at(1).late);  // and what it found is kept
  }
  SUBCASE("a page djvulibre could not read keeps its reason") {
    kept->texts[1] = {1, 0, 0, 0, "", "djvulibre cannot read page 1: kept", false};
    djvu::OpenDjvuCache::instance().put(key, kept);
    CHECK(first_text(read_djvu(dir, "two.djvu", "1"))
              .ends_with("── Page 1 of 2 ──\n[Page 1 could not be read: djvulibre cannot read page 1: kept.]"));
  }
  release_caches();
}

TEST_CASE("djvu: pages without text") {
  ocr_cache_clear();
  TempDir dir;
  const std::string d = dir.path().string() + kSep;
  const TextPicture scan{.lines = {"The quick brown fox jumps over the lazy dog."}, .points = 16, .dpi = 150};
  make_djvu(dir, "scan.djvu", {{.layer = {"Typed"}}, {.layer = {}, .picture = scan}});
  SUBCASE("with OCR off, a note says how to see the page") {
    const auto o = read_djvu(dir, "scan.djvu", "2", {}, ocr_off());
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).ends_with("── Page 2 of 2 ──\n[Page 2 has no text layer; call read with file_type=\"image\" "
                                  "and pages=\"2\" to see it.]"));
  }
  SUBCASE("OCR reads the page; the layer's page is not OCR'd") {
    const auto o = read_djvu(dir, "scan.djvu");
    REQUIRE_FALSE(o.is_error);
    const std::string t = first_text(o);
    CHECK(t.find("── Page 1 of 2 ──\nTyped\n\n── Page 2 of 2 ── [OCR, eng, mean confidence ") != std::string::npos);
    CHECK(t.ends_with("%]\nThe quick brown fox jumps over the lazy dog."));
    REQUIRE(o.meta["ocr_pages"].size() == 1);
    CHECK(o.meta["ocr_pages"][0]["page"] == 2);
  }
  SUBCASE("file_type=image renders the pages, sized for the model") {
    const auto o = read_djvu(dir, "scan.djvu", "2", FileKind::image);
    REQUIRE_FALSE(o.is_error);
    REQUIRE(o.blocks.size() == 3);
    CHECK(first_text(o).ends_with(" Page 2 follows as an image."));
    CHECK(std::get<TextBlock>(o.blocks[1]).text == "── Page 2 of 2 ──");
    REQUIRE(std::holds_alternative<ImageBlock>(o.blocks[2]));
    // 150 DPI drawn at --pdf-dpi's 120: four fifths of the scan's pixels on each side.
    int w = 0, h = 0;
    text_pixels(scan, &w, &h);
    CHECK(o.meta["rendered"][0]["width"] == (w * 4 + 2) / 5);
    const DecodedImage img = decode_image(view_of(std::get<ImageBlock>(o.blocks[2]).data));
    CHECK(img.height == (h * 4 + 2) / 5);
  }
}

TEST_CASE("djvu: damaged files are refused with the reason") {
  TempDir dir;
  const std::string d = dir.path().string() + kSep;
  SUBCASE("empty") {
    const auto o = read_written(dir, "e.djvu", "");
    CHECK(o.is_error);
    CHECK(first_text(o) == d + "e.djvu is empty (0 bytes), not a DjVu document.");
  }
  SUBCASE("a DjVu header over garbage") {
    dir.write("h.djvu", std::string("AT&TFORM\0\0\1\0DJVM", 16) + std::string(500, '\x7f'));
    const auto o = read_djvu(dir, "h.djvu");
    CHECK(o.is_error);
    CHECK(first_text(o) == "Cannot read the DjVu document " + d + "h.djvu: djvulibre cannot read it: Corrupted IFF file "
                           "(Mangled chunk boundaries).");
  }
  SUBCASE("garbage named .djvu") {
    dir.write("g.djvu", std::string(2000, 'x'));
    const auto o = read_djvu(dir, "g.djvu", "", FileKind{"djvu"});
    CHECK(o.is_error);
    CHECK(first_text(o).starts_with("Cannot read the DjVu document " + d + "g.djvu: djvulibre cannot read it"));
  }
  SUBCASE("cut after its header, or claiming 2 GiB: refused, naming DjVu, never PDF") {
    const std::string bytes = make_djvu(dir, "one.djvu", {{.layer = {"Hello"}}});
    dir.write("c.djvu", bytes.substr(0, 16));
    const auto cut = read_djvu(dir, "c.djvu");
    CHECK(cut.is_error);
    CHECK(first_text(cut).starts_with("Cannot read the DjVu document " + d + "c.djvu: djvulibre cannot read it"));
    std::string huge = bytes;
    huge[8] = '\x7f';
    huge[9] = huge[10] = huge[11] = '\xff';
    dir.write("huge.djvu", huge);
    const auto claimed = read_djvu(dir, "huge.djvu");
    CHECK(first_text(claimed).find("DjVu document " + d + "huge.djvu") != std::string::npos);
    for (const ReadOutcome* o : {&cut, &claimed}) CHECK(first_text(*o).find("PDF") == std::string::npos);
  }
  SUBCASE("a bundled document cut short") {
    const std::string bytes = make_djvu(dir, "two.djvu", {{.layer = {"First page"}}, {.layer = {"Second page"}}});
    // Its directory is whole, its pages are not: each page says so, the answer is no refusal.
    dir.write("cut.djvu", bytes.substr(0, bytes.size() / 2));
    const auto o = read_djvu(dir, "cut.djvu");
    REQUIRE_FALSE(o.is_error);
    CHECK(first_text(o).ends_with("── Page 2 of 2 ──\n[Page 2 could not be read: djvulibre cannot read page 2: "
                                  "Unexpected End Of File.]"));
  }
}
