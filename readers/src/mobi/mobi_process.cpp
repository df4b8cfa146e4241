// read_mobi: parse_mobi in a child process (child_process.hpp). libmobi is C code reading hostile
// files (its decompressors and index parsers have had out-of-bounds reads). The child sends the
// book back through the pipe (to_message).
#include "mobi/mobi_book.hpp"

#if defined(_WIN32)
namespace mcpread::readers::mobi {
bool read_mobi(std::string_view bytes, MobiBook* book, std::string* error, const CancelToken&) {
  return parse_mobi(bytes, book, error);
}
}  // namespace mcpread::readers::mobi
#else
#include "child_process.hpp"

#include <chrono>

namespace mcpread::readers::mobi {

bool read_mobi(std::string_view bytes, MobiBook* book, std::string* error, const CancelToken& cancel) {
  // libmobi is loaded here, once, so that every child has it; what is too short for a header
  // needs no child.
  if (!load_libmobi(error)) return false;
  if (bytes.size() < 78) return parse_mobi(bytes, book, error);
  child_process::Limits limits;
  limits.cpu_seconds = 30;
  limits.wall = std::chrono::seconds(30);
  limits.max_message = kMaxHtmlBytes + kMaxImageBytes + (1u << 20);
  // The message starts with '+' for a book, '-' for a refusal's sentence.
  const child_process::Outcome child = child_process::run(
      [bytes] {
        MobiBook parsed;
        std::string why;
        return parse_mobi(bytes, &parsed, &why) ? "+" + to_message(parsed) : "-" + why;
      },
      limits, cancel);
  if (child.ending != child_process::Ending::sent)
    return *error = child.refusal("libmobi", "taking it apart", limits, ": the book is damaged"), false;
  const std::string& answer = child.message;
  if (answer.starts_with('-')) return *error = answer.substr(1), false;
  if (!answer.starts_with('+') || !from_message(std::string_view(answer).substr(1), book))
    return *error = "libmobi's parse ended with a malformed answer: the book is damaged", false;
  return true;
}

}  // namespace mcpread::readers::mobi
#endif
