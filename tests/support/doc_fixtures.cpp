#include "doc_fixtures.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string_view>

namespace mcpread::test {

namespace {

constexpr std::size_t kSector = 512;
constexpr std::uint32_t kEndOfChain = 0xFFFFFFFE;
constexpr std::uint32_t kFree = 0xFFFFFFFF;
constexpr std::uint32_t kFatSector = 0xFFFFFFFD;
constexpr std::uint32_t kNoStream = 0xFFFFFFFF;

void put16(std::string& b, std::size_t at, std::uint32_t v) {
  if (b.size() < at + 2) b.resize(at + 2, '\0');
  b[at] = static_cast<char>(v & 0xff);
  b[at + 1] = static_cast<char>((v >> 8) & 0xff);
}

void put32(std::string& b, std::size_t at, std::uint32_t v) {
  put16(b, at, v & 0xffff);
  put16(b, at + 2, v >> 16);
}

void add16(std::string& b, std::uint32_t v) { put16(b, b.size(), v); }
void add32(std::string& b, std::uint32_t v) { put32(b, b.size(), v); }

std::string directory_entry(const std::u16string& name, int type, std::uint32_t right, std::uint32_t child,
                            std::uint32_t start, std::uint32_t size) {
  std::string e(128, '\0');
  for (std::size_t i = 0; i < name.size() && i < 31; ++i) put16(e, 2 * i, name[i]);
  put16(e, 0x40, name.empty() ? 0 : static_cast<std::uint32_t>(2 * (name.size() + 1)));
  e[0x42] = static_cast<char>(type);
  e[0x43] = 1;  // black
  put32(e, 0x44, kNoStream);
  put32(e, 0x48, right);
  put32(e, 0x4C, child);
  put32(e, 0x74, start);
  put32(e, 0x78, size);
  return e;
}

// A paragraph style: its STD (base, name, a PAPX of its istd alone, an empty CHPX).
std::string style(unsigned sti, unsigned istd_base, const std::u16string& name, unsigned istd) {
  std::string std_;
  add16(std_, sti);
  add16(std_, 1 | (istd_base << 4));  // sgc 1: a paragraph style
  add16(std_, 2 | (0u << 4));         // two UPXs, next style "Normal"
  add16(std_, 0);                     // bchUpe
  add16(std_, 0);
  add16(std_, static_cast<std::uint32_t>(name.size()));
  for (char16_t c : name) add16(std_, c);
  add16(std_, 0);
  add16(std_, 2);  // the PAPX UPX: its istd
  add16(std_, istd);
  add16(std_, 0);  // the CHPX UPX: empty
  std::string out;
  add16(out, static_cast<std::uint32_t>(std_.size()));
  return out + std_;
}

std::string stylesheet() {
  std::string s;
  add16(s, 18);  // cbStshi
  add16(s, 2);   // cstd
  add16(s, 10);  // cbSTDBaseInFile
  add16(s, 1);   // fStdStylenamesWritten
  add16(s, 0x5B);
  add16(s, 15);
  add16(s, 0);
  for (int i = 0; i < 3; ++i) add16(s, 0);
  return s + style(0, 0x0FFF, u"Normal", 0) + style(1, 0, u"heading 1", 1);
}

}  // namespace

std::string compound_file(std::vector<std::pair<std::u16string, std::string>> streams) {
  std::sort(streams.begin(), streams.end(), [](const auto& a, const auto& b) {
    return a.first.size() != b.first.size() ? a.first.size() < b.first.size() : a.first < b.first;
  });
  std::vector<std::uint32_t> fat = {kFatSector, kEndOfChain};  // sector 0: the FAT; 1: the directory
  std::string data;
  std::string directory;
  std::vector<std::string> entries;
  for (std::size_t i = 0; i < streams.size(); ++i) {
    std::string& bytes = streams[i].second;
    if (bytes.size() < 4096) bytes.resize(4096, '\0');
    const auto first = static_cast<std::uint32_t>(fat.size());
    const std::size_t sectors = (bytes.size() + kSector - 1) / kSector;
    for (std::size_t s = 0; s < sectors; ++s)
      fat.push_back(s + 1 == sectors ? kEndOfChain : static_cast<std::uint32_t>(fat.size() + 1));
    std::string padded = bytes;
    padded.resize(sectors * kSector, '\0');
    data += padded;
    const std::uint32_t right = i + 1 < streams.size() ? static_cast<std::uint32_t>(i + 2) : kNoStream;
    entries.push_back(directory_entry(streams[i].first, 2, right, kNoStream, first,
                                      static_cast<std::uint32_t>(bytes.size())));
  }
  if (fat.size() > kSector / 4 || entries.size() > 3) throw std::length_error("compound_file: too large");
  directory = directory_entry(u"Root Entry", 5, kNoStream, streams.empty() ? kNoStream : 1, kEndOfChain, 0);
  for (const auto& e : entries) directory += e;
  while (directory.size() < kSector) directory += directory_entry(u"", 0, kNoStream, kNoStream, 0, 0);
  std::string fat_sector;
  for (std::size_t i = 0; i < kSector / 4; ++i) add32(fat_sector, i < fat.size() ? fat[i] : kFree);

  std::string header(kSector, '\0');
  std::memcpy(header.data(), "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8);
  put16(header, 0x18, 0x003E);
  put16(header, 0x1A, 0x0003);
  put16(header, 0x1C, 0xFFFE);
  put16(header, 0x1E, 9);
  put16(header, 0x20, 6);
  put32(header, 0x2C, 1);  // one FAT sector
  put32(header, 0x30, 1);  // the directory at sector 1
  put32(header, 0x38, 0x1000);
  put32(header, 0x3C, kEndOfChain);
  put32(header, 0x44, kEndOfChain);
  put32(header, 0x4C, 0);  // DIFAT[0]: the FAT at sector 0
  for (std::size_t i = 1; i < 109; ++i) put32(header, 0x4C + 4 * i, kFree);
  return header + fat_sector + directory + data;
}

std::string word_document(const WordDocSpec& spec) {
  constexpr std::uint32_t kTextAt = 0x400;
  // The text, the paragraphs' ends (CPs past their marks) and the special characters' CPs.
  std::u16string text;
  std::vector<std::pair<std::uint32_t, const WordParagraph*>> ends;
  std::vector<std::uint32_t> specials;
  const auto add = [&](const std::vector<WordParagraph>& paragraphs) {
    for (const WordParagraph& p : paragraphs) {
      for (std::size_t s = 0; s < p.text.size(); ++s)
        if (std::u16string_view(u"\x01\x02\x05\x08\x13\x14\x15").find(p.text[s]) != std::u16string_view::npos)
          specials.push_back(static_cast<std::uint32_t>(text.size() + s));
      text += p.text;
      if (p.text.empty() || p.text.back() != u'\x07') text += u'\r';
      ends.emplace_back(static_cast<std::uint32_t>(text.size()), &p);
    }
  };
  add(spec.main);
  const auto ccp_text = static_cast<std::uint32_t>(text.size());
  add(spec.footnotes);
  const auto ccp_ftn = static_cast<std::uint32_t>(text.size()) - ccp_text;
  static const WordParagraph kLast{};
  if (ccp_ftn > 0) {  // Word ends the subdocuments with one more paragraph mark
    text += u'\r';
    ends.emplace_back(static_cast<std::uint32_t>(text.size()), &kLast);
  }
  const std::uint32_t width = spec.compressed ? 1 : 2;
  const auto fc = [&](std::uint32_t cp) { return kTextAt + cp * width; };

  std::string word;
  word.resize(kTextAt, '\0');
  for (char16_t c : text) {
    if (spec.compressed) word += static_cast<char>(c & 0xff);
    else add16(word, c);
  }
  word.resize((word.size() + kSector - 1) / kSector * kSector, '\0');

  // The paragraphs' FKP: their end FCs, a BX each pointing at a PAPX (istd and sprms).
  if (ends.size() > 28 || specials.size() > 40) throw std::length_error("word_document: too many runs");
  const auto papx_page = static_cast<std::uint32_t>(word.size() / kSector);
  std::string page(kSector, '\0');
  put32(page, 0, fc(0));
  std::size_t free_end = 511;
  for (std::size_t i = 0; i < ends.size(); ++i) {
    const WordParagraph& p = *ends[i].second;
    put32(page, 4 * (i + 1), fc(ends[i].first));
    std::string grp;
    add16(grp, p.istd);
    if (p.in_table) grp += std::string("\x16\x24\x01", 3);  // sprmPFInTable 1
    if (p.row_end) grp += std::string("\x17\x24\x01", 3);   // sprmPFTtp 1
    std::string papx;
    if (grp.size() % 2 == 1) papx = std::string(1, static_cast<char>((grp.size() + 1) / 2)) + grp;
    else papx = std::string(1, '\0') + std::string(1, static_cast<char>(grp.size() / 2)) + grp;
    std::size_t at = (free_end - papx.size()) & ~std::size_t{1};
    page.replace(at, papx.size(), papx);
    free_end = at;
    page[4 * (ends.size() + 1) + 13 * i] = static_cast<char>(at / 2);
  }
  page[511] = static_cast<char>(ends.size());
  word += page;

  // The characters' FKP: runs split around each special character, which gets sprmCFSpec.
  const auto chpx_page = static_cast<std::uint32_t>(word.size() / kSector);
  std::vector<std::pair<std::uint32_t, bool>> runs;  // (end CP, special)
  std::uint32_t cp = 0;
  std::sort(specials.begin(), specials.end());
  for (std::uint32_t s : specials) {
    if (s > cp) runs.emplace_back(s, false);
    runs.emplace_back(s + 1, true);
    cp = s + 1;
  }
  if (cp < text.size()) runs.emplace_back(static_cast<std::uint32_t>(text.size()), false);
  page.assign(kSector, '\0');
  put32(page, 0, fc(0));
  const std::string spec_chpx("\x03\x55\x08\x01", 4);  // cb 3: sprmCFSpec 1
  const std::size_t spec_at = 500;
  page.replace(spec_at, spec_chpx.size(), spec_chpx);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    put32(page, 4 * (i + 1), fc(runs[i].first));
    page[4 * (runs.size() + 1) + i] = runs[i].second ? static_cast<char>(spec_at / 2) : '\0';
  }
  page[511] = static_cast<char>(runs.size());
  word += page;

  // The table stream: the piece table, the stylesheet, the bin tables.
  std::string table;
  const auto clx_at = static_cast<std::uint32_t>(table.size());
  table += '\x02';
  add32(table, 16);
  add32(table, 0);
  add32(table, static_cast<std::uint32_t>(text.size()));
  add16(table, 0);
  add32(table, spec.compressed ? (kTextAt * 2) | 0x40000000u : kTextAt);
  add16(table, 0);
  const auto clx_size = static_cast<std::uint32_t>(table.size()) - clx_at;
  const auto stsh_at = static_cast<std::uint32_t>(table.size());
  table += stylesheet();
  const auto stsh_size = static_cast<std::uint32_t>(table.size()) - stsh_at;
  const auto bin_table = [&](std::uint32_t page_number) {
    const auto at = static_cast<std::uint32_t>(table.size());
    add32(table, fc(0));
    add32(table, fc(static_cast<std::uint32_t>(text.size())));
    add32(table, page_number);
    return at;
  };
  const std::uint32_t chpx_bte = bin_table(chpx_page);
  const std::uint32_t papx_bte = bin_table(papx_page);

  // The FIB: base, 14 shorts, 22 longs (the CP counts), 93 (fc, lcb) pairs.
  std::string fib(0x384, '\0');
  put16(fib, 0x00, 0xA5EC);
  put16(fib, 0x02, spec.nfib);
  put16(fib, 0x04, 0x6A62);
  put16(fib, 0x06, 0x0409);
  put16(fib, 0x0A, 0x1200 | (spec.encrypted ? 0x0100 : 0));  // fWhichTblStm, fExtChar
  put16(fib, 0x0C, 0x00BF);
  put32(fib, 0x18, fc(0));
  put32(fib, 0x1C, fc(static_cast<std::uint32_t>(text.size())));
  put16(fib, 0x20, 14);
  put16(fib, 0x3E, 22);
  put32(fib, 0x40, static_cast<std::uint32_t>(word.size()));
  put32(fib, 0x4C, ccp_text);
  put32(fib, 0x50, ccp_ftn);
  put16(fib, 0x98, 93);
  const auto pair = [&](int index, std::uint32_t at, std::uint32_t size) {
    put32(fib, 0x9A + 8 * index, at);
    put32(fib, 0x9A + 8 * index + 4, size);
  };
  pair(1, stsh_at, stsh_size);  // fcStshf
  pair(12, chpx_bte, 12);       // fcPlcfBteChpx
  pair(13, papx_bte, 12);       // fcPlcfBtePapx
  pair(33, clx_at, clx_size);   // fcClx
  word.replace(0, fib.size(), fib);
  return compound_file({{u"WordDocument", word}, {u"1Table", table}});
}

}  // namespace mcpread::test
