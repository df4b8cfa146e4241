#include "pdf_fixtures.hpp"

#include <qpdf/Pl_String.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFWriter.hh>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>

namespace mcpread::test {
namespace {

#if !defined(_WIN32)
// The PDF reader finds its plugin through this variable: test executables live in a
// subdirectory of the build tree, while the plugin sits at its top, next to mcp-read. The Windows
// suites sit at the top, beside libmcpread_pdf.dll: the executable's folder, where the reader
// also looks.
const bool plugin_dir_set = [] {
  ::setenv("MCP_READ_PDF_PLUGIN_DIR", MCPREAD_TEST_PDF_PLUGIN_DIR, 0);
  return true;
}();
#endif

std::string literal(std::string_view s) {
  std::string out = "(";
  for (char c : s) {
    if (c == '(' || c == ')' || c == '\\') out += '\\';
    out += c;
  }
  return out + ")";
}

// ASCII as a literal string; anything else as UTF-16BE with a byte order mark (BMP only).
std::string text_string(std::string_view utf8) {
  bool ascii = true;
  for (char c : utf8) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
  if (ascii) return literal(utf8);
  std::string hex = "<FEFF";
  char buf[8];
  for (std::size_t i = 0; i < utf8.size();) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    unsigned cp = c;
    int extra = c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    if (extra) cp = c & (extra == 2 ? 0x0F : 0x1F);
    for (int k = 1; k <= extra; ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    i += 1 + static_cast<std::size_t>(extra);
    std::snprintf(buf, sizeof buf, "%04X", cp);
    hex += buf;
  }
  return hex + ">";
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// A composite font whose glyphs map to no character: Identity-H codes, CIDs of a collection no
// table maps (Adobe-Unknown), no /ToUnicode, no font program: the state of CJK text when the
// CMaps are missing.
const std::string unmapped_font =
    "<< /Type /Font /Subtype /Type0 /BaseFont /Unmapped /Encoding /Identity-H /DescendantFonts "
    "[<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Unmapped /CIDSystemInfo << /Registry "
    "(Adobe) /Ordering (Unknown) /Supplement 0 >> /FontDescriptor << /Type /FontDescriptor "
    "/FontName /Unmapped /Flags 4 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 1000 "
    "/Descent 0 /CapHeight 1000 /StemV 80 >> /DW 600 >>] >>";

std::string content_of(const PdfPage& p) {
  switch (p.kind) {
    case PdfPage::Kind::drawing:
      return "1 0 0 rg 100 100 200 200 re f\n";
    case PdfPage::Kind::blank:
      return {};
    case PdfPage::Kind::text:
      if (!p.content.empty()) return p.content;
      break;
    case PdfPage::Kind::scan:  // an inline image, uncompressed
      return "q " + number(p.width) + " 0 0 " + number(p.height) + " 0 0 cm\nBI /W " +
             std::to_string(p.scan_width) + " /H " + std::to_string(p.scan_height) +
             " /CS /G /BPC 8 ID\n" + p.scan + "\nEI Q\n";
    case PdfPage::Kind::unmapped_text: {
      std::string s = "BT /F2 12 Tf 14 TL 72 " + number(p.height - 72) + " Td\n";
      for (std::size_t i = 0; i < p.lines.size(); ++i) {
        s += i ? "T* <" : "<";
        char cid[8];
        for (const char c : p.lines[i]) {
          std::snprintf(cid, sizeof cid, "%04X", static_cast<unsigned char>(c));
          s += cid;
        }
        s += "> Tj\n";
      }
      return s + "ET\n";
    }
  }
  std::string s = "BT /F1 12 Tf 14 TL 72 " + number(p.height - 72) + " Td\n";
  for (std::size_t i = 0; i < p.lines.size(); ++i)
    s += (i ? "T* " : "") + literal(p.lines[i]) + " Tj\n";
  return s + "ET\n";
}

}  // namespace

std::string make_pdf(const std::vector<PdfPage>& pages, const std::string& title, bool nested_tree,
                     bool inherited) {
  const int n = static_cast<int>(pages.size());
  const int half = nested_tree ? n / 2 : n;  // pages under the first intermediate node
  const auto kids_of = [](int from, int to) {
    std::string kids;
    for (int i = from; i < to; ++i) kids += (i > from ? " " : "") + std::to_string(5 + 2 * i) + " 0 R";
    return kids;
  };
  // Nested: the root holds two /Pages nodes (objects 5+2n and 6+2n), as big documents' trees do.
  const auto parent_of = [&](int i) { return !nested_tree ? 2 : i < half ? 5 + 2 * n : 6 + 2 * n; };
  std::vector<std::string> objects;  // object k+1 at index k
  objects.push_back("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push_back("<< /Type /Pages /Kids [" +
                    (nested_tree ? std::to_string(5 + 2 * n) + " 0 R " + std::to_string(6 + 2 * n) + " 0 R"
                                 : kids_of(0, n)) +
                    "] /Count " + std::to_string(n) + " >>");
  objects.push_back(
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  objects.push_back("<< /Producer (mcp-read tests)" +
                    (title.empty() ? std::string() : " /Title " + text_string(title)) + " >>");
  inherited = inherited && nested_tree;
  // A page's /MediaBox, /Resources and /Rotate, on the page or on its node.
  // Pages with fonts of their own: those objects follow all others, in page order.
  std::vector<std::string> own_fonts;
  std::vector<int> own_font_of(static_cast<std::size_t>(n), 0);
  const int first_own = 5 + 2 * n + (nested_tree ? 2 : 0);
  for (int i = 0; i < n; ++i) {
    const PdfPage& p = pages[static_cast<std::size_t>(i)];
    if (p.differences.empty()) continue;
    own_font_of[static_cast<std::size_t>(i)] = first_own + static_cast<int>(own_fonts.size());
    own_fonts.push_back("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Type /Encoding "
                        "/BaseEncoding /WinAnsiEncoding /Differences [" + p.differences + "] >> >>");
  }
  const auto attributes = [&](const PdfPage& p) {
    const auto i = static_cast<std::size_t>(&p - pages.data());
    const std::string f1 = own_font_of[i] != 0 ? std::to_string(own_font_of[i]) : "3";
    std::string a = " /MediaBox [0 0 " + number(p.width) + " " + number(p.height) + "] /Resources << /Font << /F1 " + f1 + " 0 R" +
                    (p.kind == PdfPage::Kind::unmapped_text ? " /F2 " + unmapped_font : "") + " >> >>";
    return p.rotate != 0 ? a + " /Rotate " + std::to_string(p.rotate) : a;
  };
  for (int i = 0; i < n; ++i) {
    const PdfPage& p = pages[static_cast<std::size_t>(i)];
    std::string page = "<< /Type /Page /Parent " + std::to_string(parent_of(i)) + " 0 R" +
                       (inherited ? std::string() : attributes(p));
    if (p.kind != PdfPage::Kind::blank) page += " /Contents " + std::to_string(6 + 2 * i) + " 0 R";
    objects.push_back(page + " >>");
    const std::string content = content_of(p);
    objects.push_back("<< /Length " + std::to_string(content.size()) + " >>\nstream\n" + content +
                      "endstream");
  }
  if (nested_tree) {
    const auto node_attributes = [&](int first) {
      return inherited && first < n ? attributes(pages[static_cast<std::size_t>(first)]) : std::string();
    };
    objects.push_back("<< /Type /Pages /Parent 2 0 R /Kids [" + kids_of(0, half) + "] /Count " +
                      std::to_string(half) + node_attributes(0) + " >>");
    objects.push_back("<< /Type /Pages /Parent 2 0 R /Kids [" + kids_of(half, n) + "] /Count " +
                      std::to_string(n - half) + node_attributes(half) + " >>");
  }
  for (std::string& font : own_fonts) objects.push_back(std::move(font));
  std::string out = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
  std::vector<std::size_t> offsets;
  for (std::size_t k = 0; k < objects.size(); ++k) {
    offsets.push_back(out.size());
    out += std::to_string(k + 1) + " 0 obj\n" + objects[k] + "\nendobj\n";
  }
  const std::size_t xref = out.size();
  out += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  char entry[32];
  for (std::size_t off : offsets) {
    std::snprintf(entry, sizeof entry, "%010zu 00000 n \n", off);
    out += entry;
  }
  out += "trailer\n<< /Size " + std::to_string(objects.size() + 1) +
         " /Root 1 0 R /Info 4 0 R >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return out;
}

std::string page_line(int k) {
  return "Page " + std::to_string(k) + ": the quick brown fox jumps over the lazy dog.";
}

std::string text_pdf(int count, const std::string& title) {
  std::vector<PdfPage> pages(static_cast<std::size_t>(count));
  for (int k = 1; k <= count; ++k) pages[static_cast<std::size_t>(k - 1)].lines = {page_line(k)};
  return make_pdf(pages, title);
}

std::string encrypt_pdf(const std::string& pdf, const std::string& user_password,
                        const std::string& owner_password, Cipher cipher) {
  QPDF in;
  in.processMemoryFile("fixture", pdf.data(), pdf.size());
  QPDFWriter w(in);
  w.setOutputMemory();
  if (cipher == Cipher::aes256) {
    w.setR6EncryptionParameters(user_password.c_str(), owner_password.c_str(), true, true, true,
                                true, true, true, qpdf_r3p_full, true);
  } else {
    w.setR4EncryptionParametersInsecure(user_password.c_str(), owner_password.c_str(), true, true,
                                        true, true, true, true, qpdf_r3p_full, true,
                                        cipher == Cipher::aes128);
  }
  w.write();
  const auto buffer = w.getBufferSharedPointer();
  return {reinterpret_cast<const char*>(buffer->getBuffer()), buffer->getSize()};
}

PdfSummary inspect_pdf(std::string_view bytes) {
  PdfSummary s;
  try {
    QPDF q;
    q.setSuppressWarnings(true);
    q.processMemoryFile("blob", bytes.data(), bytes.size());
    s.encrypted = q.isEncrypted();
    QPDFObjectHandle info = q.getTrailer().getKey("/Info");
    if (info.isDictionary() && info.getKey("/Title").isString())
      s.title = info.getKey("/Title").getUTF8Value();
    for (QPDFPageObjectHelper& page : QPDFPageDocumentHelper(q).getAllPages()) {
      std::string content;
      Pl_String sink("contents", nullptr, content);
      page.pipeContents(&sink);
      s.contents.push_back(std::move(content));
      s.media_boxes.push_back(page.getAttribute("/MediaBox", false).unparseResolved());
      QPDFObjectHandle rotate = page.getAttribute("/Rotate", false);
      s.rotations.push_back(rotate.isInteger() ? static_cast<int>(rotate.getIntValue()) : 0);
      QPDFObjectHandle fonts = page.getAttribute("/Resources", false).getKey("/Font");
      std::vector<std::string> names;
      if (fonts.isDictionary())
        for (const std::string& name : fonts.getKeys()) names.push_back(name);
      s.fonts.push_back(std::move(names));
    }
    s.pages = static_cast<int>(s.contents.size());
    s.ok = true;
  } catch (const std::exception& e) {
    s.error = e.what();
  }
  return s;
}

}  // namespace mcpread::test
