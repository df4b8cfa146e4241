#pragma once
// What a reader suggests doing next, as values: read the file as another kind, go on from an
// offset (and a column), select pages, decode with another charset. Readers name no argument of
// the read tool: how a hint is said in the tool's terms ("call read with file_type=\"image\" and
// pages=\"3\"") is the tool host's one wording (server/src/app/hint_wording.cpp), which it hands
// to each read (ReadRequest::wording, read_resource). The readers' own sentences frame it
// ("To read more, " + hint + ".").
#include "mcpread/readers/file_kind.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace mcpread::readers {

struct Hint {
  std::optional<FileKind> as{};           // read it as this kind
  std::optional<std::uint64_t> offset{};  // from this line, cell, paragraph or entry (1-based)
  std::optional<std::uint64_t> limit{};   // this many of them
  std::optional<std::uint64_t> column{};  // lines from this character on (1-based)
  std::string pages{};                    // these pages ("3", "21-40")
  std::string encoding{};                 // decoded from this charset
  bool encoding_is_example = false;     // `encoding` is one example among others
  bool paged = false;                   // paging through what it gives (offset and limit) applies
  bool without = false;                 // leave the arguments set here out (their values unused)
};

enum class HintForm {
  arguments,   // the arguments alone: file_type="text"
  call,        // call read with file_type="text"
  call_again,  // call read again with offset=51
  Call,        // Call read with file_type="text" (a sentence's start); with `without`: Call read
               // without column
  names,       // the names of the arguments set, values unused: offset and limit
};

using HintWording = std::string (*)(const Hint&, HintForm);

// The readers' own wording, for reads without a tool host (fuzz targets, the conformance
// fixture): the values in words, naming no argument ("read it again as text, from 51").
std::string plain_wording(const Hint& hint, HintForm form);

// How one read says its hints. A value carried by the read (no process-wide state), so that two
// reads in one process may each have their own; default: plain_wording.
class Wording {
 public:
  constexpr Wording() = default;
  // Implicit, so that `request.wording = server::hint_wording;` reads as what it is.
  constexpr Wording(HintWording words) : words_(words) {}
  std::string say(const Hint& hint, HintForm form = HintForm::call) const {
    return (words_ != nullptr ? words_ : plain_wording)(hint, form);
  }

 private:
  HintWording words_ = nullptr;  // null: plain_wording
};

}  // namespace mcpread::readers
