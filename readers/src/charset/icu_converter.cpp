// Decoders glibc's iconv lacks (HZ-GB-2312), through ICU's converters. libicuuc is opened with
// dlopen on the first file that needs it, so that reading anything else never loads it. ICU
// exports its functions with the major version of its soname appended (ucnv_open_72).
#include "charset_internal.hpp"
#include "mcpread/common/lazy_library.hpp"
#include "utf8_internal.hpp"

#include <array>
#include <cstdint>

namespace mcpread::readers::charset_detail {
namespace {

// ICU's C types, declared here so that building needs no ICU headers (ABI-stable in ICU's C API).
using UChar = char16_t;
using UErrorCode = int;  // > 0 is a failure; U_BUFFER_OVERFLOW_ERROR is 15
using UBool = std::int8_t;
struct UConverter;
constexpr UErrorCode kBufferOverflow = 15;

struct Api {
  UConverter* (*open)(const char*, UErrorCode*) = nullptr;
  void (*close)(UConverter*) = nullptr;
  void (*to_unicode)(UConverter*, UChar**, const UChar*, const char**, const char*, std::int32_t*,
                     UBool, UErrorCode*) = nullptr;
  void (*reset)(UConverter*) = nullptr;
};

// The ICU installed where mcp-read was built (readers/CMakeLists.txt): 72 on Debian bookworm.
#define MCPREAD_ICU_STR2(x) #x
#define MCPREAD_ICU_STR(x) MCPREAD_ICU_STR2(x)
#define MCPREAD_ICU_MAJOR_STR MCPREAD_ICU_STR(MCPREAD_ICU_MAJOR)
constexpr const char* kSoname = "libicuuc.so." MCPREAD_ICU_MAJOR_STR;

const Api* api(std::string* error) {
#if defined(_WIN32)
  // ICU is not in the Windows bundle (cmake/windows-readers.cmake): said as it is, rather than
  // as a DLL to reinstall.
  *error = "Decoding this charset needs ICU, which the Windows build of mcp-read does not include; "
           "convert the file to UTF-8 (for example with iconv -f HZ-GB-2312 -t UTF-8) and read that.";
  return nullptr;
#endif
  static const LazyLibrary<Api> lib(
      {.needs = "Decoding this charset needs ICU " MCPREAD_ICU_MAJOR_STR
                " (Debian package libicu" MCPREAD_ICU_MAJOR_STR ")",
       .candidates = {kSoname},
       .symbol_suffix = "_" MCPREAD_ICU_MAJOR_STR},  // the soname's major version
      [](SymbolBinder& bind, Api& a) {
        return bind(&a.open, "ucnv_open") && bind(&a.close, "ucnv_close") &&
               bind(&a.to_unicode, "ucnv_toUnicode") && bind(&a.reset, "ucnv_reset");
      });
  const Api* a = lib.get(error);
  if (a == nullptr) *error += ".";
  return a;
}

class Decoder final : public IcuDecoder {
 public:
  Decoder(const Api& api, UConverter* cnv) : api_(api), cnv_(cnv) {}
  ~Decoder() override { api_.close(cnv_); }
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  void convert(std::string_view in, std::string& out, bool last) override {
    const char* src = in.data();
    const char* const src_end = in.data() + in.size();
    for (;;) {
      UChar* dst = buf_.data();
      UErrorCode err = 0;
      // ICU keeps an incomplete sequence and the shift state between calls until `flush`.
      api_.to_unicode(cnv_, &dst, buf_.data() + buf_.size(), &src, src_end, nullptr,
                      static_cast<UBool>(last), &err);
      emit(buf_.data(), dst, out);
      if (err == kBufferOverflow) continue;
      if (err > 0) out.append(utf8::detail::kReplacement);  // no other failure is expected
      break;
    }
    if (last) {
      units_.finish(out);
      api_.reset(cnv_);
    }
  }

 private:
  // UTF-16 to UTF-8.
  void emit(const UChar* p, const UChar* end, std::string& out) {
    for (; p < end; ++p) units_.add(*p, out);
  }

  const Api& api_;
  UConverter* cnv_;
  std::array<UChar, 4096> buf_{};
  utf8::detail::Utf16Units units_;  // a surrogate pair may be split between two calls
};

}  // namespace

std::unique_ptr<IcuDecoder> IcuDecoder::open(const std::string& name, std::string* error) {
  const Api* a = api(error);
  if (a == nullptr) return nullptr;
  UErrorCode err = 0;
  UConverter* cnv = a->open(name.c_str(), &err);
  if (cnv == nullptr || err > 0) {
    if (cnv != nullptr) a->close(cnv);
    *error = "ICU (" + std::string(kSoname) + ") has no converter for " + name +
             " (error " + std::to_string(err) + ").";
    return nullptr;
  }
  return std::make_unique<Decoder>(*a, cnv);
}

}  // namespace mcpread::readers::charset_detail
