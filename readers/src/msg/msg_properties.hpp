#pragma once
// The properties of one object of an Outlook message (the message, a recipient, an attachment),
// each read from the storage that holds them: variable-size ones (strings, binary) from their own
// streams, fixed-size ones (numbers, times) from the object's __properties_version1.0 stream.
// Internal to the .msg reader.
#include "ole2/ole2_file.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace mcpread::readers::msg {

inline constexpr std::uint16_t kUnicode = 0x001F;  // PT_UNICODE: UTF-16LE
inline constexpr std::uint16_t kString8 = 0x001E;  // PT_STRING8: the message's code page
inline constexpr std::uint16_t kBinary = 0x0102;
inline constexpr std::uint16_t kObject = 0x000D;  // a storage (an attached message)
inline constexpr std::uint16_t kLong = 0x0003;
inline constexpr std::uint16_t kTime = 0x0040;  // FILETIME

// "__substg1.0_0037001F"
std::string stream_name(std::uint16_t id, std::uint16_t type);

class Properties {
 public:
  // The object at `storage`; `header` is the size of its property stream's header (32 bytes for
  // the top message, 24 for an attached one, 8 for recipients and attachments); `code_page`
  // decodes its PT_STRING8 strings ("windows-1252").
  Properties(const ole2::CompoundFile& file, ole2::Path storage, std::size_t header, std::string code_page);

  // A string property, PT_UNICODE or PT_STRING8, as UTF-8 without the trailing NULs; nullopt when
  // missing or over `cap` bytes.
  std::optional<std::string> text(std::uint16_t id, std::uint64_t cap = 1u << 20) const;
  // A fixed-size property's 8 value bytes as a number (PT_LONG, PT_SYSTIME), by its id.
  std::optional<std::uint64_t> fixed(std::uint16_t id) const;
  // The stream of a property of `type`, whole.
  std::optional<std::string> raw(std::uint16_t id, std::uint16_t type, std::uint64_t cap, std::string* error) const;
  std::optional<std::uint64_t> raw_size(std::uint16_t id, std::uint16_t type) const;
  bool has_storage(std::uint16_t id, std::uint16_t type) const;

  const ole2::Path& storage() const { return storage_; }
  const std::string& code_page() const { return code_page_; }
  void set_code_page(std::string code_page) { code_page_ = std::move(code_page); }

 private:
  const ole2::CompoundFile& file_;
  ole2::Path storage_;
  std::string code_page_;
  std::map<std::uint16_t, std::uint64_t> fixed_;  // id -> the value's first 8 bytes, little-endian
};

// The charset a Windows code page number names, as the charset code knows it ("windows-1252" for
// 1252, "shift_jis" for 932); windows-1252 when it names none known.
std::string code_page_charset(std::uint64_t code_page);

// bytes decoded from `charset` to UTF-8 (invalid sequences as U+FFFD).
std::string to_utf8(std::string_view bytes, const std::string& charset);

// A FILETIME (100 ns since 1601) as an RFC 5322 date in UTC: "Mon, 02 Jan 2006 15:04:05 +0000".
std::string rfc5322_date(std::uint64_t filetime);

}  // namespace mcpread::readers::msg
