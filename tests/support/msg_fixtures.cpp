#include "msg_fixtures.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace mcpread::test {

namespace {

constexpr std::size_t kSector = 512, kMiniSector = 64, kMiniCutoff = 4096;
constexpr std::uint32_t kEndOfChain = 0xFFFFFFFE, kFree = 0xFFFFFFFF, kFatSector = 0xFFFFFFFD, kNone = 0xFFFFFFFF;

void put32(std::string& b, std::size_t at, std::uint64_t v, std::size_t n = 4) {
  if (b.size() < at + n) b.resize(at + n, '\0');
  for (std::size_t i = 0; i < n; ++i) b[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}
void add(std::string& b, std::uint64_t v, std::size_t n = 4) { put32(b, b.size(), v, n); }
std::size_t sectors(std::size_t bytes, std::size_t size) { return (bytes + size - 1) / size; }

struct Entry {
  const Ole2Node* node = nullptr;  // null: the root
  std::uint32_t right = kNone, child = kNone, start = kEndOfChain;
  std::uint64_t size = 0;
};

// The entries of `nodes` appended, each storage's children chained by their right siblings.
std::uint32_t flatten(const std::vector<Ole2Node>& nodes, std::vector<Entry>& out) {
  std::uint32_t first = kNone, previous = kNone;
  for (const Ole2Node& node : nodes) {
    const auto index = static_cast<std::uint32_t>(out.size());
    out.push_back(Entry{&node});
    if (previous != kNone) out[previous].right = index;
    else first = index;
    previous = index;
    if (node.storage) {
      const std::uint32_t child = flatten(node.children, out);
      out[index].child = child;
    }
  }
  return first;
}

std::string entry_bytes(const Entry& e, int type) {
  std::string b(128, '\0');
  const std::string name = e.node == nullptr ? "Root Entry" : e.node->name;
  for (std::size_t i = 0; i < name.size() && i < 31; ++i) put32(b, 2 * i, static_cast<unsigned char>(name[i]), 2);
  put32(b, 0x40, 2 * (std::min<std::size_t>(name.size(), 31) + 1), 2);
  b[0x42] = static_cast<char>(type);
  b[0x43] = 1;  // black
  put32(b, 0x44, kNone);
  put32(b, 0x48, e.right);
  put32(b, 0x4C, e.child);
  put32(b, 0x74, e.start);
  put32(b, 0x78, e.size, 8);
  return b;
}

}  // namespace

std::string ole2_file(const std::vector<Ole2Node>& top) {
  std::vector<Entry> entries(1);
  entries[0].child = flatten(top, entries);
  // Small streams in the mini stream, 64-byte sectors; the others in 512-byte sectors.
  std::vector<std::uint32_t> minifat;
  std::string mini;
  std::vector<std::size_t> big;  // entries whose streams take regular sectors
  for (std::size_t i = 1; i < entries.size(); ++i) {
    const Ole2Node& n = *entries[i].node;
    if (n.storage || n.bytes.empty()) continue;
    entries[i].size = n.bytes.size();
    if (n.bytes.size() >= kMiniCutoff) {
      big.push_back(i);
      continue;
    }
    const std::size_t count = sectors(n.bytes.size(), kMiniSector);
    entries[i].start = static_cast<std::uint32_t>(minifat.size());
    for (std::size_t s = 0; s < count; ++s)
      minifat.push_back(s + 1 == count ? kEndOfChain : static_cast<std::uint32_t>(minifat.size() + 1));
    std::string padded = n.bytes;
    padded.resize(count * kMiniSector, '\0');
    mini += padded;
  }
  const std::size_t n_dir = sectors(entries.size() * 128, kSector);
  const std::size_t n_minifat = sectors(minifat.size() * 4, kSector);
  const std::size_t n_mini = sectors(mini.size(), kSector);
  std::size_t n_big = 0;
  for (std::size_t i : big) n_big += sectors(entries[i].size, kSector);
  const std::size_t n_other = n_dir + n_minifat + n_mini + n_big;
  std::size_t n_fat = 1;
  while (n_fat * (kSector / 4) < n_other + n_fat) ++n_fat;
  if (n_fat > 109) throw std::length_error("ole2_file: too large");

  std::vector<std::uint32_t> fat(n_fat, kFatSector);
  const auto chain = [&fat](std::size_t count) {
    const auto first = static_cast<std::uint32_t>(fat.size());
    for (std::size_t s = 0; s < count; ++s)
      fat.push_back(s + 1 == count ? kEndOfChain : static_cast<std::uint32_t>(fat.size() + 1));
    return count == 0 ? kEndOfChain : first;
  };
  const std::uint32_t dir_start = chain(n_dir);
  const std::uint32_t minifat_start = chain(n_minifat);
  entries[0].start = chain(n_mini);
  entries[0].size = mini.size();
  std::string data;
  for (std::size_t i : big) {
    entries[i].start = chain(sectors(entries[i].size, kSector));
    std::string padded = entries[i].node->bytes;
    padded.resize(sectors(padded.size(), kSector) * kSector, '\0');
    data += padded;
  }

  std::string out(kSector, '\0');
  out.replace(0, 8, "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8);
  put32(out, 0x18, 0x003E, 2);
  put32(out, 0x1A, 0x0003, 2);
  put32(out, 0x1C, 0xFFFE, 2);
  put32(out, 0x1E, 9, 2);
  put32(out, 0x20, 6, 2);
  put32(out, 0x2C, n_fat);
  put32(out, 0x30, dir_start);
  put32(out, 0x38, kMiniCutoff);
  put32(out, 0x3C, minifat_start);
  put32(out, 0x40, n_minifat);
  put32(out, 0x44, kEndOfChain);
  put32(out, 0x48, 0);
  for (std::size_t i = 0; i < 109; ++i) put32(out, 0x4C + 4 * i, i < n_fat ? i : kFree);

  std::string fat_bytes;
  for (std::size_t i = 0; i < n_fat * kSector / 4; ++i) add(fat_bytes, i < fat.size() ? fat[i] : kFree);
  std::string dir;
  for (std::size_t i = 0; i < entries.size(); ++i)
    dir += entry_bytes(entries[i], i == 0 ? 5 : entries[i].node->storage ? 1 : 2);
  while (dir.size() < n_dir * kSector) {
    std::string e(128, '\0');
    put32(e, 0x44, kNone);
    put32(e, 0x48, kNone);
    put32(e, 0x4C, kNone);
    dir += e;
  }
  std::string minifat_bytes;
  for (std::uint32_t v : minifat) add(minifat_bytes, v);
  minifat_bytes.resize(n_minifat * kSector, '\xFF');
  mini.resize(n_mini * kSector, '\0');
  return out + fat_bytes + dir + minifat_bytes + mini + data;
}

namespace {

std::string u16(const std::u16string& s) {
  std::string b;
  for (char16_t c : s) add(b, c, 2);
  return b;
}

std::string prop_name(std::uint16_t id, std::uint16_t type) {
  char name[32];
  std::snprintf(name, sizeof name, "__substg1.0_%04X%04X", static_cast<unsigned>(id), static_cast<unsigned>(type));
  return name;
}

Ole2Node stream(std::uint16_t id, std::uint16_t type, std::string bytes) { return {prop_name(id, type), std::move(bytes), {}, false}; }

// A __properties_version1.0 stream: `header` bytes, then the fixed properties (tag, value).
Ole2Node properties(std::size_t header, const std::vector<std::pair<std::uint32_t, std::uint64_t>>& fixed) {
  std::string b(header, '\0');
  for (const auto& [tag, value] : fixed) {
    add(b, tag);
    add(b, 6);  // readable, writable
    add(b, value, 8);
  }
  return {"__properties_version1.0", b, {}, false};
}

std::string numbered(const char* prefix, std::size_t n) {
  char name[64];
  std::snprintf(name, sizeof name, "%s%08X", prefix, static_cast<unsigned>(n));
  return name;
}

}  // namespace

std::vector<Ole2Node> msg_nodes(const MsgSpec& spec, bool embedded) {
  std::vector<Ole2Node> nodes;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> fixed;
  if (!spec.subject.empty()) nodes.push_back(stream(0x0037, 0x001F, u16(spec.subject)));
  if (!spec.sender_name.empty()) nodes.push_back(stream(0x0C1A, 0x001F, u16(spec.sender_name)));
  if (!spec.sender_smtp.empty()) nodes.push_back(stream(0x5D01, 0x001F, u16(spec.sender_smtp)));
  if (!spec.body.empty()) nodes.push_back(stream(0x1000, 0x001F, u16(spec.body)));
  if (!spec.body8.empty()) nodes.push_back(stream(0x1000, 0x001E, spec.body8));
  if (!spec.html.empty()) nodes.push_back(stream(0x1013, 0x0102, spec.html));
  if (!spec.rtf_compressed.empty()) nodes.push_back(stream(0x1009, 0x0102, spec.rtf_compressed));
  if (!spec.transport_headers.empty()) nodes.push_back(stream(0x007D, 0x001E, spec.transport_headers));
  if (spec.code_page != 0) fixed.emplace_back(0x3FFD0003u, spec.code_page);
  if (spec.submit_time != 0) fixed.emplace_back(0x00390040u, spec.submit_time);
  nodes.push_back(properties(embedded ? 24 : 32, fixed));
  for (std::size_t i = 0; i < spec.recipients.size(); ++i) {
    const MsgRecipient& r = spec.recipients[i];
    Ole2Node storage{numbered("__recip_version1.0_#", i), {}, {}, true};
    if (!r.name.empty()) storage.children.push_back(stream(0x3001, 0x001F, u16(r.name)));
    if (!r.smtp.empty()) storage.children.push_back(stream(0x39FE, 0x001F, u16(r.smtp)));
    storage.children.push_back(properties(8, {{0x0C150003u, r.type}}));
    nodes.push_back(std::move(storage));
  }
  for (std::size_t i = 0; i < spec.attachments.size(); ++i) {
    const MsgAttach& a = spec.attachments[i];
    Ole2Node storage{numbered("__attach_version1.0_#", i), {}, {}, true};
    if (!a.long_name.empty()) storage.children.push_back(stream(0x3707, 0x001F, u16(a.long_name)));
    if (!a.mime.empty()) storage.children.push_back(stream(0x370E, 0x001E, a.mime));
    if (a.message.empty()) {
      storage.children.push_back(stream(0x3701, 0x0102, a.data));
      storage.children.push_back(properties(8, {{0x37050003u, 1}}));
    } else {
      storage.children.push_back(Ole2Node{prop_name(0x3701, 0x000D), {}, msg_nodes(a.message.front(), true), true});
      storage.children.push_back(properties(8, {{0x37050003u, 5}}));
    }
    nodes.push_back(std::move(storage));
  }
  return nodes;
}

}  // namespace mcpread::test
