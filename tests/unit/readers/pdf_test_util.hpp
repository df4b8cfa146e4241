#pragma once
// Helpers shared by the PDF reader's tests: a read through the roots, and views of the answer.
#include "fixtures.hpp"
#include "tool_wording.hpp"
#include "mcpread/readers/base64.hpp"
#include "image_fixtures.hpp"
#include "pdf_fixtures.hpp"

#include "mcpread/readers/pdf.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <string>

namespace mcpread::test::pdf_util {

using namespace mcpread::readers;

inline ReadOutcome read(const TempDir& dir, const std::string& name, const PdfOptions& options = {},
                        const CancelToken& cancel = {}) {
  Roots roots;
  std::string error;
  REQUIRE(Roots::from_paths({dir.path().string()}, &roots, &error));
  auto opened = open_in_roots(roots, name);
  REQUIRE(std::holds_alternative<OpenedFile>(opened));
  return read_pdf(std::get<OpenedFile>(opened), tool_worded(options), cancel);  // the server's wording
}

inline const std::string& text(const ReadOutcome& o, std::size_t i = 0) {
  REQUIRE(o.blocks.size() > i);
  REQUIRE(std::holds_alternative<TextBlock>(o.blocks[i]));
  return std::get<TextBlock>(o.blocks[i]).text;
}

// The blob's PDF, as qpdf sees it.
inline PdfSummary blob(const ReadOutcome& o) {
  REQUIRE(o.blocks.size() == 2);
  REQUIRE(std::holds_alternative<BlobResourceBlock>(o.blocks[1]));
  const auto& b = std::get<BlobResourceBlock>(o.blocks[1]);
  CHECK(b.mime_type == "application/pdf");
  CHECK(o.meta["blob_bytes"] == mcpread::readers::base64_size(b.data.size()));
  return inspect_pdf(std::string(mcpread::readers::view_of(b.data)));
}

// A file size as the header writes it.
inline std::string size_text(std::size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f KB", static_cast<double>(bytes) / 1024);
  return bytes < 1024 ? std::to_string(bytes) + " bytes" : buf;
}

// A page's marker and text as they follow the header or the previous page.
inline std::string section(int k, int n, const std::string& body) {
  return "\n\n\u2500\u2500 Page " + std::to_string(k) + " of " + std::to_string(n) +
         " \u2500\u2500\n" + body;
}

// Whether the content of page `index` of a PDF made by text_pdf draws page_line(page).
inline bool holds_page(const PdfSummary& s, std::size_t index, int page) {
  return index < s.contents.size() &&
         s.contents[index].find("(" + page_line(page) + ")") != std::string::npos;
}

}  // namespace mcpread::test::pdf_util
