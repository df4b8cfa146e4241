#pragma once
// MOBI 6 books written for the tests: a Palm database ("BOOKMOBI") whose record 0 holds the
// PalmDOC header, a 232-byte MOBI header and EXTH metadata, then the text in uncompressed records
// of 4096 bytes, the images, and the end-of-file record. PalmDOC text ("TEXtREAd") the same way
// without the MOBI header. Header only, so that the fuzz targets can make their seeds with it.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mcpread::test {

struct MobiFixture {
  std::string title = "A Small Book";
  std::vector<std::pair<std::uint32_t, std::string>> exth = {{100, "Ann Author"}, {101, "Small Press"}};
  std::string text;                  // the book's markup (or PalmDOC's text)
  std::vector<std::string> images;   // records after the text; <img recindex="00001"> is the first
  std::uint32_t encoding = 65001;    // 1252 or 65001
  std::uint16_t encryption = 0;      // 2: Mobipocket DRM
  bool palmdoc = false;              // TEXtREAd, no MOBI header
  std::uint16_t claimed_records = 0;  // when not 0: the record count the header claims
};

namespace mobi_detail {
inline void be(std::string& out, std::uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
}
inline void put_be(std::string& out, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * (bytes - 1 - i))) & 0xFF);
}
}  // namespace mobi_detail

inline std::string mobi_book(const MobiFixture& f) {
  using mobi_detail::be;
  using mobi_detail::put_be;
  std::vector<std::string> text_records;
  for (std::size_t at = 0; at < f.text.size(); at += 4096) text_records.push_back(f.text.substr(at, 4096));
  const std::uint32_t first_image = 1 + static_cast<std::uint32_t>(text_records.size());

  std::string r0;
  be(r0, 1, 2);  // no compression
  be(r0, 0, 2);
  be(r0, f.text.size(), 4);
  be(r0, text_records.size(), 2);
  be(r0, 4096, 2);
  be(r0, f.encryption, 2);
  be(r0, 0, 2);
  if (!f.palmdoc) {
    std::string h(232, '\0');
    h.replace(0, 4, "MOBI");
    put_be(h, 4, 232, 4);
    put_be(h, 8, 2, 4);  // a book
    put_be(h, 12, f.encoding, 4);
    put_be(h, 16, 0x1234, 4);
    put_be(h, 20, 6, 4);  // file version
    for (std::size_t at = 24; at < 64; at += 4) put_be(h, at, 0xFFFFFFFF, 4);  // no indexes
    put_be(h, 64, first_image, 4);  // first record that is not text
    put_be(h, 76, 9, 4);            // English
    put_be(h, 88, 6, 4);            // minimum version
    put_be(h, 92, f.images.empty() ? 0xFFFFFFFF : first_image, 4);
    put_be(h, 112, 0x40, 4);  // EXTH present
    put_be(h, 148, 0xFFFFFFFF, 4);
    put_be(h, 152, 0xFFFFFFFF, 4);  // no DRM
    put_be(h, 176, 1, 2);
    put_be(h, 178, text_records.size(), 2);
    put_be(h, 180, 1, 4);
    put_be(h, 184, 0xFFFFFFFF, 4);  // no FCIS
    put_be(h, 192, 0xFFFFFFFF, 4);  // no FLIS
    put_be(h, 208, 0xFFFFFFFF, 4);
    put_be(h, 216, 0xFFFFFFFF, 4);
    put_be(h, 220, 0xFFFFFFFF, 4);
    put_be(h, 228, 0xFFFFFFFF, 4);  // no NCX
    r0 += h;
    std::string records;
    for (const auto& [tag, value] : f.exth) {
      be(records, tag, 4);
      be(records, 8 + value.size(), 4);
      records += value;
    }
    const std::size_t pad = (4 - records.size() % 4) % 4;
    r0 += "EXTH";
    be(r0, 12 + records.size() + pad, 4);
    be(r0, f.exth.size(), 4);
    r0 += records + std::string(pad, '\0');
    put_be(r0, 16 + 68, r0.size(), 4);  // full name offset
    put_be(r0, 16 + 72, f.title.size(), 4);
    r0 += f.title + std::string(2, '\0');
    r0.resize((r0.size() + 3) / 4 * 4, '\0');
  }

  std::vector<std::string> records = {r0};
  records.insert(records.end(), text_records.begin(), text_records.end());
  records.insert(records.end(), f.images.begin(), f.images.end());
  records.push_back(std::string("\xE9\x8E\x0D\x0A", 4));  // end of file

  std::string out = f.title.substr(0, 31);
  out.resize(32, '\0');
  be(out, 0, 2);
  be(out, 0, 2);
  for (int i = 0; i < 6; ++i) be(out, 0, 4);
  out += f.palmdoc ? "TEXtREAd" : "BOOKMOBI";
  be(out, 0, 4);
  be(out, 0, 4);
  be(out, f.claimed_records != 0 ? f.claimed_records : records.size(), 2);
  std::size_t offset = 78 + 8 * records.size() + 2;
  for (std::size_t i = 0; i < records.size(); ++i) {
    be(out, offset, 4);
    be(out, 2 * i, 4);  // attributes 0, uid
    offset += records[i].size();
  }
  be(out, 0, 2);
  for (const std::string& r : records) out += r;
  return out;
}

}  // namespace mcpread::test
