#pragma once
// A MOBI, AZW or AZW3 e-book as libmobi takes it apart: the EXTH metadata, the book's HTML parts
// (one for a MOBI 6 book, one per file for KF8) with their image links rewritten to the
// resources' names ("resource00012.jpg"), and the images. Internal to the MOBI reader.
#include "mcpread/readers/cancel.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::mobi {

inline constexpr std::size_t kMaxHtmlBytes = 64u << 20;  // the book's markup, all parts
inline constexpr std::size_t kMaxImageBytes = 96u << 20;  // its images, all of them

struct MobiBook {
  std::string title, author, publisher;
  bool kf8 = false;                          // a Kindle Format 8 book (AZW3, or a hybrid's KF8 part)
  std::vector<std::string> html;             // the markup parts in reading order, UTF-8
  std::map<std::string, std::string> images;  // "resource00012.jpg" → its bytes
  std::size_t images_left_out = 0;           // over kMaxImageBytes
};

// Loads libmobi (once); false with the clause saying what to install when it cannot be loaded.
bool load_libmobi(std::string* error);

// Takes the book apart in this process; false with a sentence in *error (not a MOBI book,
// DRM-protected, a Print Replica book, damaged, libmobi missing).
bool parse_mobi(std::string_view bytes, MobiBook* book, std::string* error);

// The same in a child process (libmobi is C code reading hostile files): a crash or a hang costs
// this read only.
bool read_mobi(std::string_view bytes, MobiBook* book, std::string* error, const CancelToken& cancel);

// The book as one message and back, for the child's pipe; from_message is false on a message
// that is not one (cut short, damaged).
std::string to_message(const MobiBook& book);
bool from_message(std::string_view message, MobiBook* book);

}  // namespace mcpread::readers::mobi
