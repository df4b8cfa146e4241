// See whatwg_reference.hpp. Each decoder is the standard's handler, step by step: it is given
// one byte (or end-of-queue) and returns continue, finished, error or code points, and may
// restore bytes to the front of the queue.
#include "whatwg_reference.hpp"
#include "whatwg_reference_internal.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace mcpread::test::whatwg {
using namespace detail;
namespace {

// index-<name>.txt: "pointer<TAB>0xCODE ..." lines; null where no line names the pointer.
using Index = std::vector<char32_t>;  // 0 for null (no index maps a pointer to U+0000)

const Index& load_index(const std::string& name) {
  static std::map<std::string, std::unique_ptr<Index>> loaded;
  auto& slot = loaded[name];
  if (slot) return *slot;
  const std::string path = std::string(MCPREAD_SOURCE_DIR) + "/tests/data/whatwg-encoding/index-" + name + ".txt";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  slot = std::make_unique<Index>();
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::size_t pointer = 0;
    std::string code;
    fields >> pointer >> code;
    if (slot->size() <= pointer) slot->resize(pointer + 1, 0);
    (*slot)[pointer] = static_cast<char32_t>(std::stoul(code, nullptr, 16));
  }
  return *slot;
}

}  // namespace

char32_t detail::code_point(const std::string& name, long pointer) {
  const Index& i = load_index(name);
  if (pointer < 0 || static_cast<std::size_t>(pointer) >= i.size()) return 0;
  return i[static_cast<std::size_t>(pointer)];
}

namespace {

// "index gb18030 ranges code point"; 0 for null.
char32_t ranges_code_point(long pointer) {
  if ((pointer > 39419 && pointer < 189000) || pointer > 1237575) return 0;
  if (pointer == 7457) return 0xE7C7;
  // index-gb18030-ranges.txt holds (pointer, code point) pairs in the same format.
  static const std::vector<std::pair<long, char32_t>> ranges = [] {
    std::vector<std::pair<long, char32_t>> r;
    const Index& i = load_index("gb18030-ranges");
    for (std::size_t p = 0; p < i.size(); ++p)
      if (i[p] != 0 || p == 0) r.emplace_back(static_cast<long>(p), i[p]);
    return r;
  }();
  auto it = std::upper_bound(ranges.begin(), ranges.end(), pointer,
                             [](long p, const auto& e) { return p < e.first; });
  --it;  // the last range starting at or before `pointer`
  return static_cast<char32_t>(it->second + static_cast<char32_t>(pointer - it->first));
}

class SingleByte final : public Decoder {
 public:
  explicit SingleByte(std::string name) : name_(std::move(name)) {}
  Result handle(Queue&, int b) override {
    if (b == kEnd) return finished();
    if (ascii(b)) return emit(static_cast<char32_t>(b));
    const char32_t c = code_point(name_, b - 0x80);
    return c == 0 ? error() : emit(c);
  }

 private:
  std::string name_;
};

class Gb18030 final : public Decoder {
 public:
  Result handle(Queue& q, int b) override {
    if (b == kEnd && first_ == 0 && second_ == 0 && third_ == 0) return finished();
    if (b == kEnd) {
      first_ = second_ = third_ = 0;
      return error();
    }
    if (third_ != 0) {
      if (!in(b, 0x30, 0x39)) {
        q.restore({second_, third_, b});
        first_ = second_ = third_ = 0;
        return error();
      }
      const char32_t c = ranges_code_point((first_ - 0x81L) * (10 * 126 * 10) + (second_ - 0x30L) * (10 * 126) +
                                           (third_ - 0x81L) * 10 + b - 0x30);
      first_ = second_ = third_ = 0;
      return c == 0 ? error() : emit(c);
    }
    if (second_ != 0) {
      if (in(b, 0x81, 0xFE)) {
        third_ = b;
        return cont();
      }
      q.restore({second_, b});
      first_ = second_ = 0;
      return error();
    }
    if (first_ != 0) {
      if (in(b, 0x30, 0x39)) {
        second_ = b;
        return cont();
      }
      const int leading = first_;
      first_ = 0;
      const int offset = b < 0x7F ? 0x40 : 0x41;
      const char32_t c = in(b, 0x40, 0x7E) || in(b, 0x80, 0xFE)
                             ? code_point("gb18030", (leading - 0x81L) * 190 + (b - offset))
                             : 0;
      if (c != 0) return emit(c);
      if (ascii(b)) q.restore({b});
      return error();
    }
    if (ascii(b)) return emit(static_cast<char32_t>(b));
    if (b == 0x80) return emit(0x20AC);
    if (in(b, 0x81, 0xFE)) {
      first_ = b;
      return cont();
    }
    return error();
  }

 private:
  int first_ = 0, second_ = 0, third_ = 0;
};

// Big5, EUC-KR and Shift_JIS: one leading byte, then a pointer from the trailing byte.
class Big5 final : public Decoder {
 public:
  Result handle(Queue& q, int b) override {
    if (b == kEnd && leading_ != 0) {
      leading_ = 0;
      return error();
    }
    if (b == kEnd) return finished();
    if (leading_ != 0) {
      const int leading = leading_;
      leading_ = 0;
      const int offset = b < 0x7F ? 0x40 : 0x62;
      long pointer = -1;
      if (in(b, 0x40, 0x7E) || in(b, 0xA1, 0xFE)) pointer = (leading - 0x81L) * 157 + (b - offset);
      if (pointer == 1133) return emit(0x00CA, 0x0304);
      if (pointer == 1135) return emit(0x00CA, 0x030C);
      if (pointer == 1164) return emit(0x00EA, 0x0304);
      if (pointer == 1166) return emit(0x00EA, 0x030C);
      const char32_t c = pointer < 0 ? 0 : code_point("big5", pointer);
      if (c != 0) return emit(c);
      if (ascii(b)) q.restore({b});
      return error();
    }
    if (ascii(b)) return emit(static_cast<char32_t>(b));
    if (in(b, 0x81, 0xFE)) {
      leading_ = b;
      return cont();
    }
    return error();
  }

 private:
  int leading_ = 0;
};

class EucKr final : public Decoder {
 public:
  Result handle(Queue& q, int b) override {
    if (b == kEnd && leading_ != 0) {
      leading_ = 0;
      return error();
    }
    if (b == kEnd) return finished();
    if (leading_ != 0) {
      const int leading = leading_;
      leading_ = 0;
      const char32_t c = in(b, 0x41, 0xFE) ? code_point("euc-kr", (leading - 0x81L) * 190 + (b - 0x41)) : 0;
      if (c != 0) return emit(c);
      if (ascii(b)) q.restore({b});
      return error();
    }
    if (ascii(b)) return emit(static_cast<char32_t>(b));
    if (in(b, 0x81, 0xFE)) {
      leading_ = b;
      return cont();
    }
    return error();
  }

 private:
  int leading_ = 0;
};

class ShiftJis final : public Decoder {
 public:
  Result handle(Queue& q, int b) override {
    if (b == kEnd && leading_ != 0) {
      leading_ = 0;
      return error();
    }
    if (b == kEnd) return finished();
    if (leading_ != 0) {
      const int leading = leading_;
      leading_ = 0;
      const int offset = b < 0x7F ? 0x40 : 0x41;
      const int leading_offset = leading < 0xA0 ? 0x81 : 0xC1;
      long pointer = -1;
      if (in(b, 0x40, 0x7E) || in(b, 0x80, 0xFC)) pointer = (leading - leading_offset) * 188L + b - offset;
      if (pointer >= 8836 && pointer <= 10715) return emit(static_cast<char32_t>(0xE000 - 8836 + pointer));
      const char32_t c = pointer < 0 ? 0 : code_point("jis0208", pointer);
      if (c != 0) return emit(c);
      if (ascii(b)) q.restore({b});
      return error();
    }
    if (ascii(b) || b == 0x80) return emit(static_cast<char32_t>(b));
    if (in(b, 0xA1, 0xDF)) return emit(static_cast<char32_t>(0xFF61 - 0xA1 + b));
    if (in(b, 0x81, 0x9F) || in(b, 0xE0, 0xFC)) {
      leading_ = b;
      return cont();
    }
    return error();
  }

 private:
  int leading_ = 0;
};

class EucJp final : public Decoder {
 public:
  Result handle(Queue& q, int b) override {
    if (b == kEnd && leading_ != 0) {
      leading_ = 0;
      return error();
    }
    if (b == kEnd) return finished();
    if (leading_ == 0x8E && in(b, 0xA1, 0xDF)) {
      leading_ = 0;
      return emit(static_cast<char32_t>(0xFF61 - 0xA1 + b));
    }
    if (leading_ == 0x8F && in(b, 0xA1, 0xFE)) {
      jis0212_ = true;
      leading_ = b;
      return cont();
    }
    if (leading_ != 0) {
      const int leading = leading_;
      leading_ = 0;
      char32_t c = 0;
      if (in(leading, 0xA1, 0xFE) && in(b, 0xA1, 0xFE))
        c = code_point(jis0212_ ? "jis0212" : "jis0208", (leading - 0xA1L) * 94 + b - 0xA1);
      jis0212_ = false;
      if (c != 0) return emit(c);
      if (ascii(b)) q.restore({b});
      return error();
    }
    if (ascii(b)) return emit(static_cast<char32_t>(b));
    if (b == 0x8E || b == 0x8F || in(b, 0xA1, 0xFE)) {
      leading_ = b;
      return cont();
    }
    return error();
  }

 private:
  bool jis0212_ = false;
  int leading_ = 0;
};

}  // namespace

namespace {

void append_utf8(char32_t c, std::string& out) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// The single-byte encodings, each decoded with the index of its own name (ISO-8859-8-I shares
// ISO-8859-8's).
constexpr std::array kSingleByte{
    "IBM866",       "ISO-8859-2",   "ISO-8859-3",   "ISO-8859-4",   "ISO-8859-5",   "ISO-8859-6",
    "ISO-8859-7",   "ISO-8859-8",   "ISO-8859-10",  "ISO-8859-13",  "ISO-8859-14",  "ISO-8859-15",
    "ISO-8859-16",  "KOI8-R",       "KOI8-U",       "macintosh",    "windows-874",  "windows-1250",
    "windows-1251", "windows-1252", "windows-1253", "windows-1254", "windows-1255", "windows-1256",
    "windows-1257", "windows-1258", "x-mac-cyrillic",
};

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return r;
}

std::unique_ptr<Decoder> decoder_for(std::string_view encoding) {
  const std::string name = lower(encoding);
  for (std::string_view single : kSingleByte)
    if (lower(single) == name) return std::make_unique<SingleByte>(name);
  if (name == "utf-8") return make_utf_8();
  if (name == "gbk" || name == "gb18030") return std::make_unique<Gb18030>();
  if (name == "big5") return std::make_unique<Big5>();
  if (name == "euc-jp") return std::make_unique<EucJp>();
  if (name == "iso-2022-jp") return make_iso_2022_jp();
  if (name == "shift_jis") return std::make_unique<ShiftJis>();
  if (name == "euc-kr") return std::make_unique<EucKr>();
  if (name == "utf-16be") return make_utf_16(true);
  if (name == "utf-16le") return make_utf_16(false);
  throw std::invalid_argument("no reference decoder for " + std::string(encoding));
}

}  // namespace

const std::vector<std::string>& legacy_encodings() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> r(kSingleByte.begin(), kSingleByte.end());
    for (const char* e : {"gb18030", "Big5", "EUC-JP", "ISO-2022-JP", "Shift_JIS", "EUC-KR", "UTF-16BE", "UTF-16LE"})
      r.emplace_back(e);
    return r;
  }();
  return all;
}

// The standard's "process a queue" in replacement mode.
std::string decode(std::string_view encoding, std::string_view bytes) {
  auto decoder = decoder_for(encoding);
  Queue queue(bytes);
  std::string out;
  for (;;) {
    const Result r = decoder->handle(queue, queue.read());
    if (r.kind == Result::Finished) break;
    if (r.kind == Result::Error) append_utf8(0xFFFD, out);
    if (r.kind == Result::Emit) {
      append_utf8(r.first, out);
      if (r.second != 0) append_utf8(r.second, out);
    }
  }
  return out;
}

}  // namespace mcpread::test::whatwg
