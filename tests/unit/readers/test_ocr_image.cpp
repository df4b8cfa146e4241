// file_type="text" on an image: its text read with Tesseract, lines in reading order; blank and
// noisy images, sideways ones, the pixel guard, and languages without data.
#include "fixtures.hpp"
#include "image_fixtures.hpp"
#include "ocr_fixtures.hpp"

#include "mcpread/readers/read.hpp"

#include <doctest/doctest.h>

using namespace mcpread::readers;
using namespace mcpread::test;

namespace {

ReadOutcome read_text(const TempDir& dir, const std::string& name, const std::string& lang = "eng",
                      ReadLimits limits = {}) {
  Roots roots;
  std::string error;
  REQUIRE(Roots::from_paths({dir.path().string()}, &roots, &error));
  ReadRequest request;
  request.file_path = name;
  request.forced_kind = FileKind::text;
  request.ocr_lang = lang;
  return read_file(roots, request, limits, CancelToken{});
}

const std::string& text(const ReadOutcome& o) {
  REQUIRE(o.blocks.size() == 1);
  REQUIRE(std::holds_alternative<TextBlock>(o.blocks[0]));
  return std::get<TextBlock>(o.blocks[0]).text;
}

const std::vector<std::string> letter = {"The quick brown fox jumps over the lazy dog.",
                                         "Pack my box with five dozen liquor jugs."};

const std::string read_back = "The quick brown fox jumps over the lazy dog.\nPack my box with five dozen liquor jugs.";

}  // namespace

TEST_CASE("ocr image: file_type=text reads the text in an image") {
  ocr_cache_clear();
  TempDir dir;
  const std::string d = dir.path().string();
  SUBCASE("lines in reading order, the languages and the mean confidence") {
    dir.write("a.png", text_png(TextPicture{letter}));
    const auto o = read_text(dir, "a.png");
    REQUIRE_FALSE(o.is_error);
    CHECK(text(o) == "Text of " + d + kSep + "a.png read with OCR [OCR, eng, mean confidence " +
                         std::to_string(kPictureConfidence) + "%]:\n\n" + read_back);
    CHECK(o.meta["ocr"]["languages"] == nlohmann::json::array({"eng"}));
    CHECK(o.meta["ocr"]["confidence"] == kPictureConfidence);
    CHECK(o.meta["ocr"]["cached"] == false);
    SUBCASE("the second read comes from the cache") {
      const auto again = read_text(dir, "a.png");
      CHECK(text(again) == text(o));
      CHECK(again.meta["ocr"]["cached"] == true);
    }
    SUBCASE("a language without data is named, the others read") {
      const auto mixed = read_text(dir, "a.png", "rus+eng");
      CHECK(text(mixed) == text(o) + "\n\n[" + missing_language_note("rus") + " Installed: eng.]");
    }
    SUBCASE("only languages without data: an error that says what to install") {
      const auto none = read_text(dir, "a.png", "chi_sim");
      CHECK(none.is_error);
      CHECK(text(none) == missing_language_note("chi_sim") + " Installed: eng.");
    }
    SUBCASE("a name that is no language never reaches Tesseract") {
      const auto bad = read_text(dir, "a.png", "../../etc/passwd");
      CHECK(bad.is_error);
      CHECK(text(bad) == "\"../../etc/passwd\" is not a Tesseract language name (such as eng, deu, chi_sim). "
                         "Installed: eng.");
    }
  }
  SUBCASE("a sideways scan is read (Tesseract's layout analysis finds the vertical lines; a page "
          "turned the other way needs orientation detection, test_ocr_pdf.cpp)") {
    dir.write("b.png", text_png(TextPicture{letter, 12, 150, 60, 1}));
    const auto o = read_text(dir, "b.png");
    CHECK(text(o) == "Text of " + d + kSep + "b.png read with OCR [OCR, eng, mean confidence " +
                         std::to_string(kPictureConfidence) + "%]:\n\n" + read_back);
    CHECK(o.meta["ocr"]["rotated"] == 0);
  }
  SUBCASE("random noise: no text, said at once") {
    dir.write("c.png", text_png(TextPicture{{}, 12, 150, 60, 0, true, false, 800, 600}));
    CHECK(text(read_text(dir, "c.png")) ==
          d + kSep + "c.png has no text: it is texture all over (noise or a photograph). [OCR, eng: no text, only texture "
              "(noise or a photograph)]");
  }
  SUBCASE("a blank image") {
    dir.write("d.png", text_png(TextPicture{{}, 12, 150, 60, 0, false, false, 800, 600}));
    CHECK(text(read_text(dir, "d.png")) == d + kSep + "d.png has no text: the image is one flat colour. [OCR, eng: blank page]");
  }
  SUBCASE("the pixel guard refuses a 30,000 x 30,000 scan before decoding it") {
    dir.write("e.png", png_claiming(30000, 30000));
    const auto o = read_text(dir, "e.png");
    CHECK(o.is_error);
    CHECK(text(o) == d + kSep + "e.png is 30000\u00D730000 px (900.0 megapixels), more than the limit of 40.0 megapixels "
                         "for OCR, so it was not decoded.");
  }
  SUBCASE("a format Leptonica does not read goes through libvips") {
    // An ICO: libvips decodes it (through ImageMagick's coder) for a verdict on its picture, a
    // smooth gradient with no text, instead of a refusal of the format.
    dir.write("f.ico", ico_with_sizes({64}));
    const auto o = read_text(dir, "f.ico");
#if defined(_WIN32)
    // sharp's libvips has no ImageMagick loader: refused, named for what it is.
    CHECK(o.is_error);
    CHECK(text(o) == d + kSep + "f.ico looks like an ICO image, which this build of libvips cannot decode (it has no "
                                "ImageMagick loader, which reads ICO files); convert it to PNG to read it.");
#else
    CHECK_FALSE(o.is_error);
    CAPTURE(text(o));
    CHECK(text(o).starts_with(d + kSep + "f.ico "));
    CHECK(text(o).ends_with("]"));
    CHECK(text(o).find("[OCR, eng: ") != std::string::npos);
#endif
  }
  SUBCASE("an SVG is text: file_type=text gives its source, not OCR of its picture") {
    dir.write("f.svg", svg_text(200, 100));
    CHECK(text(read_text(dir, "f.svg")).starts_with("     1\t"));
  }
  SUBCASE("a photograph: said at a glance, never handed to Tesseract") {
    dir.write("g.png", text_png(TextPicture{{}, 12, 150, 60, 0, false, true, 1200, 800}));
    const auto o = read_text(dir, "g.png");
    CHECK(text(o) == d + kSep + "g.png looks like a photograph or shading, not a picture of text, so it was not OCR'd; read it with "
                         "file_type=\"image\" to see it. [OCR, eng: not run, a photograph or shading]");
    CHECK(o.meta["ocr"]["photograph"] == true);
  }
  SUBCASE("a photograph mostly of one tone: nothing sharp in it, so not handed to Tesseract") {
    dir.write("h.png", text_png(TextPicture{{}, 12, 150, 60, 0, false, false, 1600, 1200, true}));
    const auto o = read_text(dir, "h.png");
    CHECK(text(o) == d + kSep + "h.png looks like a photograph or shading, not a picture of text, so it was not OCR'd; read "
                         "it with file_type=\"image\" to see it. [OCR, eng: not run, a photograph or shading]");
    CHECK(o.meta["ocr"]["photograph"] == true);
  }
}

TEST_CASE("ocr image: a short reading needs a higher confidence than a long one") {
  // What Tesseract made of a photograph of flowers (a JPEG of 4032x2268) and of the same photo in
  // a PDF: a few characters at 55-60 %.
  CHECK_FALSE(legible_reading("ese", 60));
  CHECK_FALSE(legible_reading("\u2014 <5 Oe \u2014\u2014\u2122", 55));
  CHECK_FALSE(legible_reading(" \n", 95));
  CHECK(legible_reading("Invoice 42", 88));
  // A long reading at a low confidence is still text (small print at 73 DPI read at 54 %).
  CHECK(legible_reading("CHAPTER 2. ABOUT PGFPLOTS: PRELIMINARIES 2.2.2 Old Features", 54));
  CHECK_FALSE(legible_reading("CHAPTER 2. ABOUT PGFPLOTS: PRELIMINARIES 2.2.2 Old Features", 29));
  const OcrLanguages eng = choose_ocr_languages("eng", "");
  OcrPage noise;
  noise.confidence = 55;
  noise.left_out_chars = 8;
  CHECK(ocr_label(noise, eng) == "[OCR, eng: no legible text; what it made out (8 characters, mean confidence 55%) was left out]");
  OcrPage nothing;
  nothing.confidence = 95;  // Tesseract's mean over no words: said nowhere beside "no legible text"
  CHECK(ocr_label(nothing, eng) == "[OCR, eng: no legible text]");
}

TEST_CASE("ocr image: a script the languages do not read gets a note on its language data") {
  ocr_cache_clear();
  TempDir dir;
  const std::string d = dir.path().string();
  dir.write("ru.png", text_png(TextPicture{{"Съешь же ещё этих мягких французских булок, да выпей же чаю.",
                                            "Широкая электрификация южных губерний даст мощный толчок."}}));
  const auto o = read_text(dir, "ru.png");
  // What eng makes of Cyrillic is kept (it may still help), with the note saying what to install.
  // The picture is drawn by another libvips build on Windows, and read a little differently.
#if defined(_WIN32)
  const std::string reading = "[OCR, eng, mean confidence 38%]:\n\n"
                              "CbeLlUb Ke CLUE STUX MAPKUX ChpaHLly3cKux 6ysOK, Ha BbINe Ke Yalo.\n"
                              "LUnpokaa anekTpudukalina tOKHbIX TyY6EPHUN DacT MOLJHbIN TONYOK.";
#else
  const std::string reading = "[OCR, eng, mean confidence 33%]:\n\n"
                              "Cbelb Ke ELLE STUX MAKUX CbpaHuy3ckux byNoK, Ja BbINeN Ke Halo.\n"
                              "LUnpokaa anekTpucpukalivA tOrKHbIX TYOEPHUM DacT MOLHbIN TONYOK.";
#endif
  CHECK(text(o) == "Text of " + d + kSep + "ru.png read with OCR " + reading +
                       "\n\n[The page looks like Cyrillic script, which eng does not read: install its language "
                       "data (e.g. " + language_data_source("rus") + ") and pass ocr_lang=\"rus\".]");
}
