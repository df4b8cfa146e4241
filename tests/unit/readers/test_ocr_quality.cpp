// OCR quality on real documents: born-digital pages of gnuplot's manual (Debian's gnuplot-doc, as
// the real-file corpus fetches it into ~/.cache/mcp-read-corpus) rendered at 150 DPI must give
// at least 95 % of the words of the PDF's own text layer, and the very text the `tesseract`
// command line gives for the same image with the same settings. Without the corpus or the
// command line the test says so and checks nothing.
#include "fixtures.hpp"

#include "mcpread/readers/ocr.hpp"
#include "pdf/pdf_loader.hpp"

#include <doctest/doctest.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace mcpread::readers;

namespace {

std::filesystem::path corpus_pdf() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::filesystem::path cache = xdg != nullptr && *xdg != '\0' ? std::filesystem::path(xdg)
                                      : home != nullptr             ? std::filesystem::path(home) / ".cache"
                                                                    : std::filesystem::path("/nonexistent");
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(cache / "mcp-read-corpus", ec))
    if (entry.path().filename().string().starts_with("gnuplot-doc_")) {
      const auto pdf = entry.path() / "usr/share/doc/gnuplot/gnuplot.pdf";
      if (std::filesystem::exists(pdf)) return pdf;
    }
  return {};
}

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::string w;
  for (const char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!w.empty()) {
      out.push_back(std::move(w));
      w.clear();
    }
  }
  if (!w.empty()) out.push_back(w);
  return out;
}

// The share of the reference's words found in the OCR text (each found word used once).
double word_accuracy(const std::string& reference, const std::string& ocr) {
  std::map<std::string, int> have;
  for (const auto& w : words(ocr)) ++have[w];
  const auto ref = words(reference);
  std::size_t hit = 0;
  for (const auto& w : ref)
    if (auto it = have.find(w); it != have.end() && it->second > 0) {
      --it->second;
      ++hit;
    }
  return ref.empty() ? 0 : static_cast<double>(hit) / static_cast<double>(ref.size());
}

// Lines without trailing blanks, no blank runs, none at the ends (the form feed the command
// line ends a page with included): the reader's layout of Tesseract's text.
std::string tidy(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  bool gap = false;
  while (std::getline(in, line)) {
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())) != 0) line.pop_back();
    if (line.find_first_not_of(" \t\f") == std::string::npos) {
      gap = true;
      continue;
    }
    if (!out.empty()) out += gap ? "\n\n" : "\n";
    gap = false;
    out += line;
  }
  return out;
}

std::string run(const std::string& command) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

}  // namespace

TEST_CASE("ocr quality: born-digital pages at 150 DPI against their text layer and the tesseract CLI") {
  const auto path = corpus_pdf();
  if (path.empty() || std::system("command -v tesseract >/dev/null 2>&1") != 0) {
    // The test command runs this again after the corpus phase with MCPREAD_REQUIRE_OCR_CORPUS=1
    // set, when the cache is there on any machine: then a missing file is a failure.
    REQUIRE_MESSAGE(std::getenv("MCPREAD_REQUIRE_OCR_CORPUS") == nullptr,
                    "needs gnuplot-doc in the corpus cache (tests/corpus) and the tesseract command");
    MESSAGE("skipped: needs gnuplot-doc in the corpus cache (tests/corpus) and the tesseract command");
    return;
  }
  std::string why;
  const pdf::Api* api = pdf::api(&why);
  REQUIRE_MESSAGE(api != nullptr, why);
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  mcpread_pdf_doc* handle = nullptr;
  pdf::ErrorBuffer e;
  REQUIRE(api->open(bytes.data(), bytes.size(), "", &handle, e.text, sizeof e.text) == MCPREAD_PDF_OK);
  const pdf::Document doc(api, handle);
  const OcrLanguages langs = choose_ocr_languages("eng", "");
  REQUIRE(langs.used == std::vector<std::string>{"eng"});
  mcpread::test::TempDir dir;
  for (const int page : {30, 100}) {
    CAPTURE(page);
    std::string reference, png;
    int w = 0, h = 0;
    REQUIRE(api->page_text(doc.get(), page, nullptr, pdf::append_to_string, &reference, e.text, sizeof e.text) == MCPREAD_PDF_OK);
    REQUIRE(api->render_png(doc.get(), page, 150, &w, &h, pdf::append_to_string, &png, e.text, sizeof e.text) ==
            MCPREAD_PDF_OK);
    const auto result = ocr_image({png, 150, 40'000'000, "page"}, langs, CancelToken{}, nullptr);
    REQUIRE(std::holds_alternative<OcrPage>(result));
    const std::string& text = std::get<OcrPage>(result).text;
    const double accuracy = word_accuracy(reference, text);
    MESSAGE("page " << page << ": word accuracy " << accuracy * 100 << " % over " << words(reference).size() << " words");
    CHECK(accuracy >= 0.95);
    const auto file = dir.write("page.png", png);
    CHECK(tidy(run("tesseract '" + file.string() + "' stdout --dpi 150 -l eng 2>/dev/null")) == text);
  }
}
