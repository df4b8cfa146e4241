#include "ppt/ppt_deck.hpp"

#include "byte_order.hpp"
#include "markdown_text.hpp"
#include "utf8_internal.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace mcpread::readers::ppt {

namespace {

// Record types of [MS-PPT] (and the one OfficeArt container that holds a shape's text).
enum : std::uint16_t {
  kDocument = 0x03E8,
  kSlide = 0x03EE,
  kSlideAtom = 0x03EF,
  kNotes = 0x03F0,
  kSlidePersistAtom = 0x03F3,
  kOutlineTextRefAtom = 0x0F9E,
  kTextHeaderAtom = 0x0F9F,
  kTextCharsAtom = 0x0FA0,
  kTextBytesAtom = 0x0FA8,
  kSlideListWithText = 0x0FF0,
  kUserEditAtom = 0x0FF5,
  kCurrentUserAtom = 0x0FF6,
  kPersistDirectoryAtom = 0x1772,
  kClientTextbox = 0xF00D,
};
// The Current User's header token when the document is encrypted.
constexpr std::uint32_t kEncryptedToken = 0xF3D1C4DF;
constexpr std::size_t kMaxEdits = 4096;  // a longer edit chain is damaged (or a loop)

// TextHeaderAtom's text types.
enum TextType : std::uint32_t { kTitle = 0, kBody = 1, kNotesText = 2, kOther = 4, kCenterBody = 5, kCenterTitle = 6,
                                kHalfBody = 7, kQuarterBody = 8, kUnknownType = 99 };

struct Record {
  std::uint16_t type = 0;
  std::uint16_t instance = 0;
  bool container = false;
  std::string_view data;
  std::size_t end = 0;  // offset just past it in the data it was read from
};

// The record at `at`; nullopt when its header or its length runs past the end.
std::optional<Record> record_at(std::string_view s, std::size_t at) {
  if (at > s.size() || s.size() - at < 8) return std::nullopt;
  const std::uint16_t version_instance = bytes::le16(s, at);
  const std::uint32_t length = bytes::le32(s, at + 4);
  if (length > s.size() - at - 8) return std::nullopt;
  return Record{bytes::le16(s, at + 2), static_cast<std::uint16_t>(version_instance >> 4), (version_instance & 0xF) == 0xF,
                s.substr(at + 8, length), at + 8 + length};
}

// Calls visit(record) for each record of `data` in order, depth first; a container is entered
// when visit returns true.
template <class Visit>
void walk(std::string_view data, Visit&& visit, std::size_t depth = 0) {
  for (std::size_t at = 0; at < data.size();) {
    const std::optional<Record> r = record_at(data, at);
    if (!r) return;
    if (visit(*r) && r->container && depth + 1 < kMaxRecordDepth) walk(r->data, visit, depth + 1);
    at = r->end;
  }
}

// A text atom's characters as UTF-8: TextCharsAtom holds UTF-16LE, TextBytesAtom the low bytes
// of UTF-16 units whose high bytes are zero.
std::string atom_text(const Record& r) {
  std::string out;
  if (r.type == kTextCharsAtom) {
    utf8::detail::Utf16Units units;
    for (std::size_t i = 0; i + 1 < r.data.size(); i += 2) units.add(static_cast<char16_t>(bytes::le16(r.data, i)), out);
    units.finish(out);
  } else {
    for (const char c : r.data) utf8::detail::append_code_point(static_cast<unsigned char>(c), out);
  }
  return out;
}

struct Text {
  std::uint32_t type = kUnknownType;
  std::string text;
};

// Collects the text atoms of a record tree, each with the type its TextHeaderAtom gave.
class TextCollector {
 public:
  explicit TextCollector(std::vector<Text>* out) : out_(out) {}
  bool operator()(const Record& r) {
    if (r.type == kTextHeaderAtom && r.data.size() >= 4) type_ = bytes::le32(r.data, 0);
    if (r.type == kTextCharsAtom || r.type == kTextBytesAtom) out_->push_back({type_, atom_text(r)});
    return true;
  }

 private:
  std::vector<Text>* out_;
  std::uint32_t type_ = kUnknownType;
};

struct SlideEntry {
  std::uint32_t persist = 0;  // persist id of the slide's container
  std::uint32_t id = 0;       // the slide's (or notes slide's) id: what a SlideAtom's notesIdRef names
  std::vector<Text> texts;    // its placeholders' text, from the slide list
};

class Reader {
 public:
  Reader(std::string_view document, sections::Deck* deck) : doc_(document), deck_(deck) {}

  bool read(std::string_view current_user, std::string* error) {
    if (const auto user = record_at(current_user, 0); user && user->type == kCurrentUserAtom && user->data.size() >= 12) {
      if (bytes::le32(user->data, 4) == kEncryptedToken) return refuse(error, "it is encrypted (password-protected)");
      if (!read_edits(bytes::le32(user->data, 8), error)) return false;
    }
    std::vector<SlideEntry> slides, notes;
    std::string_view document;
    if (const auto d = persisted(doc_persist_); d && d->type == kDocument) document = d->data;
    // Without a usable edit chain: the slide list wherever it is in the stream.
    if (document.empty()) document = doc_;
    walk(document, [&](const Record& r) {
      if (r.type != kSlideListWithText) return r.type == kDocument;
      if (r.instance == 0) slide_list(r.data, &slides);
      if (r.instance == 2) slide_list(r.data, &notes);
      return false;
    });
    std::map<std::uint32_t, const SlideEntry*> notes_by_id;
    for (const SlideEntry& n : notes) notes_by_id[n.id] = &n;
    for (const SlideEntry& s : slides) add_slide(s, notes_by_id);
    return true;
  }

 private:
  static bool refuse(std::string* error, std::string why) {
    *error = std::move(why);
    return false;
  }

  // The persist directory, newest edit first (an older edit's entry for the same id is stale).
  bool read_edits(std::uint32_t offset, std::string* error) {
    std::set<std::uint32_t> seen;
    bool newest = true;
    while (offset != 0 && seen.size() < kMaxEdits && seen.insert(offset).second) {
      const auto edit = record_at(doc_, offset);
      if (!edit || edit->type != kUserEditAtom || edit->data.size() < 28) break;
      // An encryptSessionPersistIdRef after the fixed fields: the document is encrypted.
      if (edit->data.size() >= 32) return refuse(error, "it is encrypted (password-protected)");
      if (newest) doc_persist_ = bytes::le32(edit->data, 16);
      newest = false;
      if (const auto dir = record_at(doc_, bytes::le32(edit->data, 12)); dir && dir->type == kPersistDirectoryAtom) {
        for (std::size_t at = 0; at + 4 <= dir->data.size();) {
          const std::uint32_t entry = bytes::le32(dir->data, at);
          const std::uint32_t first = entry & 0xFFFFF, count = entry >> 20;
          at += 4;
          for (std::uint32_t i = 0; i < count && at + 4 <= dir->data.size(); ++i, at += 4)
            persist_.emplace(first + i, bytes::le32(dir->data, at));  // emplace keeps the newer entry
        }
      }
      offset = bytes::le32(edit->data, 8);
    }
    return true;
  }

  std::optional<Record> persisted(std::uint32_t id) const {
    const auto found = persist_.find(id);
    return found == persist_.end() ? std::nullopt : record_at(doc_, found->second);
  }

  // A SlideListWithText: each SlidePersistAtom starts a slide, the text atoms after it are its own.
  static void slide_list(std::string_view data, std::vector<SlideEntry>* out) {
    std::uint32_t type = kUnknownType;
    walk(data, [&](const Record& r) {
      if (r.type == kSlidePersistAtom && r.data.size() >= 4) {
        out->push_back({bytes::le32(r.data, 0), r.data.size() >= 16 ? bytes::le32(r.data, 12) : 0, {}});
        type = kUnknownType;
      } else if (r.type == kTextHeaderAtom && r.data.size() >= 4) {
        type = bytes::le32(r.data, 0);
      } else if ((r.type == kTextCharsAtom || r.type == kTextBytesAtom) && !out->empty()) {
        out->back().texts.push_back({type, atom_text(r)});
      }
      return false;
    });
  }

  void add_slide(const SlideEntry& entry, const std::map<std::uint32_t, const SlideEntry*>& notes_by_id) {
    sections::Section section;
    std::vector<Text> texts = entry.texts;
    std::uint32_t notes_id = 0;
    // The slide's own drawing: text boxes' text (placeholders there point into the slide list,
    // whose text is already in hand) and the id of its notes slide.
    if (const auto slide = persisted(entry.persist); slide && slide->type == kSlide) {
      walk(slide->data, [&](const Record& r) {
        if (r.type == kSlideAtom && r.data.size() >= 20) notes_id = bytes::le32(r.data, 16);
        if (r.type == kClientTextbox) walk(r.data, TextCollector(&texts));
        return r.type != kClientTextbox;
      });
    }
    // Its notes slide: the notes list's entry whose id the SlideAtom names, its text in the list
    // or in the notes slide's drawing.
    std::vector<Text> notes;
    if (const auto n = notes_by_id.find(notes_id); notes_id != 0 && n != notes_by_id.end()) {
      notes = n->second->texts;
      if (const auto page = persisted(n->second->persist); notes.empty() && page && page->type == kNotes) {
        walk(page->data, [&](const Record& r) {
          if (r.type == kClientTextbox) walk(r.data, TextCollector(&notes));
          return r.type != kClientTextbox;
        });
      }
    }
    for (const Text& t : texts) {
      const bool title = (t.type == kTitle || t.type == kCenterTitle) && section.title.empty();
      const bool bulleted = t.type == kBody || t.type == kHalfBody || t.type == kQuarterBody;
      const std::string paragraphs = lines(t.text, bulleted, !title);
      if (paragraphs.empty()) continue;
      if (title) {
        section.title = squeeze_title(paragraphs);
        continue;
      }
      section.text += (section.text.empty() ? "" : "\n\n") + paragraphs;
    }
    for (const Text& t : notes)
      if (t.type == kNotesText || t.type == kBody || t.type == kUnknownType) {
        const std::string paragraphs = lines(t.text, false, true);
        if (!paragraphs.empty()) section.notes += (section.notes.empty() ? "" : "\n") + paragraphs;
      }
    deck_->sections.push_back(std::move(section));
  }

  // A text's paragraphs (PowerPoint ends each with a carriage return, a line break inside one is
  // a vertical tab) on their own lines, bulleted in body placeholders; control characters out.
  // As Markdown blocks (not a title's words), a number typed at a line's start is escaped: "1. "
  // would read as a numbered list's.
  static std::string lines(std::string_view text, bool bulleted, bool blocks) {
    std::string out, line;
    auto end_line = [&] {
      const std::size_t first = line.find_first_not_of(' ');
      if (first != std::string::npos) {
        const std::size_t last = line.find_last_not_of(' ');
        const std::string kept = line.substr(first, last - first + 1);
        out += (out.empty() ? "" : "\n") + std::string(bulleted ? "- " : "") + (blocks ? escape_list_numbers(kept) : kept);
      }
      line.clear();
    };
    for (const char c : text) {
      if (c == '\r' || c == '\n') {
        end_line();
      } else if (c == '\x0B') {
        line += bulleted ? "\n  " : "\n";
      } else if (c == '\t') {
        line += ' ';
      } else if (static_cast<unsigned char>(c) >= 0x20) {
        line += c;
      }
    }
    end_line();
    return out;
  }

  static std::string squeeze_title(std::string_view paragraphs) {
    std::string title;
    for (const char c : paragraphs) title += c == '\n' ? ' ' : c;
    return title;
  }

  std::string_view doc_;
  sections::Deck* deck_;
  std::map<std::uint32_t, std::uint32_t> persist_;  // persist id -> offset in the stream
  std::uint32_t doc_persist_ = 0;
};

}  // namespace

bool read_ppt(std::string_view document, std::string_view current_user, sections::Deck* deck, std::string* error) {
  deck->noun = "PowerPoint 97-2003 presentation";
  deck->unit = "slide";
  return Reader(document, deck).read(current_user, error);
}

}  // namespace mcpread::readers::ppt
