#include "rtf/rtf_document.hpp"

#include "rtf/rtf_destinations.hpp"
#include "rtf/rtf_lexer.hpp"
#include "rtf/rtf_text.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <utility>

namespace mcpread::readers::rtf {
namespace {

using office::DocBlock;

struct State {
  Dest dest = Dest::body;
  int uc = 1;          // bytes of fallback after each \uN
  int font = -1;       // \fN
  // Paragraph properties (\pard resets them).
  bool in_table = false;
  int outline = -1;    // \outlinelevelN: 0 is a level-1 heading
  int style = 0;       // \sN
  bool listed = false; // \lsN
  int list_level = 0;  // \ilvlN
  // What closing this group finishes.
  enum class Owns { nothing, field, footnote, picture, marker, style } owns = Owns::nothing;
};

struct Field {
  std::string instruction;
  std::size_t result_start = std::string::npos;  // where its result begins in the paragraph
};

class Builder {
 public:
  Builder(RtfDocument* out, std::string* error) : out_(out), error_(error) {}

  bool run(std::string_view rtf) {
    Lexer lexer(rtf);
    bool group_start = false, ignorable = false;
    for (Token t = lexer.next(); t.kind != Token::Kind::end; t = lexer.next()) {
      if (t.kind != Token::Kind::byte && t.kind != Token::Kind::text) skip_ = 0;
      switch (t.kind) {
        case Token::Kind::open:
          if (stack_.size() >= kMaxGroupDepth) return fail("its groups are nested more than " + std::to_string(kMaxGroupDepth) + " deep");
          stack_.push_back(top());
          stack_.back().owns = State::Owns::nothing;
          group_start = true;
          ignorable = false;
          continue;
        case Token::Kind::close:
          if (stack_.size() <= 2) return finish();  // the document's group ends: anything after it is not RTF
          close_group();
          break;
        case Token::Kind::symbol:
          if (t.symbol == '*' && group_start) {
            ignorable = true;
            continue;
          }
          symbol(t.symbol);
          break;
        case Token::Kind::word:
          if (group_start && enter_destination(t, ignorable)) break;
          if (!word(t)) return false;
          break;
        case Token::Kind::byte:
          bytes(std::string_view(reinterpret_cast<const char*>(&t.byte), 1));
          break;
        case Token::Kind::text:
          bytes(t.data);
          break;
        case Token::Kind::binary:
          if (top().dest == Dest::picture) picture_data(t.data, true);
          break;
        case Token::Kind::end:
          break;
      }
      group_start = false;
    }
    return finish();
  }

 private:
  State& top() { return stack_.back(); }

  bool fail(std::string why) {
    *error_ = std::move(why);
    return false;
  }

  // The text a token adds goes to the sink of the current destination.
  std::string* sink() {
    switch (top().dest) {
      case Dest::body: return &paragraph_.text;
      case Dest::footnote: return &note_;
      case Dest::marker: return &marker_;
      case Dest::field_instruction: return fields_.empty() ? nullptr : &fields_.back().instruction;
      case Dest::style: return &style_name_;
      default: return nullptr;
    }
  }

  void flush() {
    if (decoding_into_ != nullptr) decoder_.flush(*decoding_into_);
    decoding_into_ = nullptr;
  }

  void aim() {
    std::string* s = sink();
    if (s != decoding_into_) {
      flush();
      decoding_into_ = s;
    }
    const auto font = fonts_.find(top().font);
    decoder_.use_codepage(font == fonts_.end() ? 0 : font->second);
  }

  void bytes(std::string_view data) {
    if (top().dest == Dest::picture) return picture_data(data, false);
    if (skip_ > 0) {  // the fallback of the \uN before
      const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(skip_), data.size());
      skip_ -= static_cast<int>(n);
      data.remove_prefix(n);
    }
    if (data.empty() || sink() == nullptr) return;
    aim();
    decoder_.add_bytes(data);
  }

  void unit(std::int32_t u) {
    if (sink() == nullptr) return;
    aim();
    decoder_.add_unit(u);
  }

  void text(std::string_view utf8) {
    if (std::string* s = sink(); s != nullptr) {
      flush();
      *s += utf8;
    }
  }

  void symbol(char c) {
    switch (c) {
      case '~': return unit(0x00A0);
      case '_': return unit(0x2011);
      case '{': case '}': case '\\': return bytes(std::string_view(&c, 1));
      case '\n': return end_paragraph();
      default: return;  // \- (optional hyphen), \: and the rest add nothing
    }
  }

  bool enter_destination(const Token& t, bool ignorable) {
    State& s = top();
    if (s.dest == Dest::skip) return true;  // inside a skipped group, all is skipped
    const Dest d = destination_of(t.word, ignorable);
    if (d == Dest::none) return false;
    flush();
    if (s.dest == Dest::fonts || s.dest == Dest::styles || s.dest == Dest::style || s.dest == Dest::picture) {
      s.dest = Dest::skip;  // what the tables and pictures hold besides their entries
      return true;
    }
    // A field, its result and the groups around pictures keep the text where it is going (the
    // document's, or a footnote's); the others have their own.
    if (d == Dest::field) {
      fields_.push_back({});
      s.owns = State::Owns::field;
      return true;
    }
    if (d == Dest::field_result) {
      if (!fields_.empty() && s.dest == Dest::body) fields_.back().result_start = paragraph_.text.size();
      return true;
    }
    if (d == Dest::transparent) return true;
    s.dest = d;
    if (d == Dest::footnote) {
      s.owns = State::Owns::footnote;
      note_.clear();
    } else if (d == Dest::picture) {
      s.owns = State::Owns::picture;
      picture_ = {};
    } else if (d == Dest::marker) {
      s.owns = State::Owns::marker;
      marker_.clear();
    }
    return true;
  }

  void close_group() {
    const State closing = top();
    if (closing.owns != State::Owns::nothing || closing.dest != stack_[stack_.size() - 2].dest) flush();
    stack_.pop_back();
    switch (closing.owns) {
      case State::Owns::field: return end_field();
      case State::Owns::footnote: {
        out_->doc.notes.push_back({std::to_string(out_->doc.notes.size() + 1), office::squeeze(note_)});
        paragraph_.notes.push_back(out_->doc.notes.size() - 1);
        paragraph_.text += "[^" + out_->doc.notes.back().label + "]";
        note_.clear();
        return;
      }
      case State::Owns::picture: return end_picture();
      case State::Owns::style: {
        std::string name = style_name_.substr(0, style_name_.find(';'));
        styles_[closing.style] = heading_level_of_style(office::squeeze(name));
        style_name_.clear();
        return;
      }
      case State::Owns::marker:
      case State::Owns::nothing:
        return;
    }
  }

  bool word(const Token& t) {
    State& s = top();
    const std::string_view w = t.word;
    const int p = t.param;
    if (s.dest == Dest::skip) return true;
    if (s.dest == Dest::fonts) {
      if (w == "f") font_entry_ = p;
      else if (w == "fcharset" && charset_codepage(p) != 0) fonts_[font_entry_] = charset_codepage(p);
      else if (w == "cpg" && !codepage_name(p).empty()) fonts_[font_entry_] = p;
      return true;
    }
    if (s.dest == Dest::style || s.dest == Dest::styles) {
      if (w == "s" && s.dest == Dest::styles) {
        s.dest = Dest::style;
        s.owns = State::Owns::style;
        s.style = p;
        style_name_.clear();
      }
      return true;
    }
    if (s.dest == Dest::picture) {
      if (w == "pngblip") picture_.format = "png";
      else if (w == "jpegblip") picture_.format = "jpg";
      else if (w == "emfblip") picture_.format = "EMF";
      else if (w == "wmetafile") picture_.format = "WMF";
      else if (w == "macpict") picture_.format = "PICT";
      else if (w == "dibitmap" || w == "wbitmap") picture_.format = "BMP";
      return true;
    }
    if (w == "par" || w == "sect") return end_paragraph(), true;
    if (w == "page" || w == "column") return end_paragraph(), true;
    if (w == "line") return text("\n"), true;
    if (w == "tab") return text("\t"), true;
    if (w == "cell" || w == "nestcell") return end_cell();
    if (w == "row" || w == "nestrow") return end_row(), true;
    if (w == "u" && t.has_param) {
      unit(p);
      skip_ = s.uc;
      return true;
    }
    if (w == "uc" && t.has_param) s.uc = std::clamp(p, 0, 16);
    else if (w == "ansicpg" && !codepage_name(p).empty()) decoder_.set_document_codepage(p);
    else if (w == "mac") decoder_.set_document_codepage(10000);
    else if (w == "pc") decoder_.set_document_codepage(437);
    else if (w == "pca") decoder_.set_document_codepage(850);
    else if (w == "f" && t.has_param) s.font = p;
    else if (w == "pard") s.in_table = false, s.outline = -1, s.style = 0, s.listed = false, s.list_level = 0;
    else if (w == "intbl") s.in_table = !t.has_param || p != 0;  // \intbl0 (cxref's) ends the table
    else if (w == "outlinelevel" && t.has_param) s.outline = p;
    else if (w == "s" && t.has_param) s.style = p;
    else if (w == "ls" && t.has_param) s.listed = true;
    else if (w == "ilvl" && t.has_param) s.list_level = std::clamp(p, 0, 8);
    else if (const char32_t c = special_character(w); c != 0) unit(static_cast<std::int32_t>(c));
    return true;
  }

  void end_paragraph() {
    if (top().dest == Dest::footnote) return text(" ");
    if (top().dest != Dest::body) return;
    flush();
    for (Field& f : fields_) f.result_start = std::string::npos;  // a result across paragraphs is no link
    const State& s = top();
    if (s.in_table) {
      if (!cell_.text.empty() && !paragraph_.text.empty()) cell_.text += "\n";
      move_inline(paragraph_, cell_);
      return;
    }
    end_table();
    DocBlock block;
    const std::string marker = office::squeeze(std::exchange(marker_, {}));
    const bool any = office::take_paragraph(paragraph_, &block);
    paragraph_ = {};
    if (!any) return;
    const auto style = styles_.find(s.style);
    const int heading = s.outline >= 0 && s.outline < 6 ? s.outline + 1 : style != styles_.end() ? style->second : 0;
    if (heading > 0) {
      block.type = DocBlock::Type::heading;
      block.level = heading;
    } else if (s.listed || !marker.empty()) {
      block.type = DocBlock::Type::list_item;
      block.level = s.list_level;
      block.number = ordinal(marker);
      block.ordered = block.number > 0;
      block.list = "rtf";
    }
    office::add_block(out_->doc, std::move(block));
  }

  bool end_cell() {
    end_paragraph_in_cell();
    if (++cells_ > office::kMaxTableCells)
      return fail("a table holds more than " + std::to_string(office::kMaxTableCells) + " cells");
    row_.push_back(office::squeeze(cell_.text));
    table_.notes.insert(table_.notes.end(), cell_.notes.begin(), cell_.notes.end());
    table_.images.insert(table_.images.end(), cell_.images.begin(), cell_.images.end());
    cell_ = {};
    return true;
  }

  void end_paragraph_in_cell() {
    flush();
    if (!cell_.text.empty() && !paragraph_.text.empty()) cell_.text += "\n";
    move_inline(paragraph_, cell_);
    marker_.clear();
  }

  void end_row() {
    flush();
    if (std::any_of(row_.begin(), row_.end(), [](const std::string& c) { return !c.empty(); }))
      table_.rows.push_back(std::move(row_));
    row_.clear();
  }

  void end_table() {
    if (!cell_.text.empty()) end_cell();
    if (!row_.empty()) end_row();
    if (table_.rows.empty()) return;
    table_.type = DocBlock::Type::table;
    office::add_block(out_->doc, std::exchange(table_, {}));
  }

  void end_field() {
    Field f = std::move(fields_.back());
    fields_.pop_back();
    const std::string url = hyperlink_target(f.instruction);
    if (url.empty() || f.result_start == std::string::npos || f.result_start > paragraph_.text.size()) return;
    const std::string shown = office::squeeze(paragraph_.text.substr(f.result_start));
    if (shown.empty()) return;
    paragraph_.text.resize(f.result_start);
    paragraph_.text += "[" + shown + "](" + url + ")";
  }

  void picture_data(std::string_view data, bool binary) {
    if (picture_bytes_ >= kMaxPictureBytes) return;
    if (binary) {
      picture_.bytes += data;
      picture_bytes_ += data.size();
      return;
    }
    for (const char c : data) {
      const int v = std::isxdigit(static_cast<unsigned char>(c)) ? (std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (c | 0x20) - 'a' + 10) : -1;
      if (v < 0) continue;
      if (picture_.half < 0) {
        picture_.half = v;
      } else {
        picture_.bytes += static_cast<char>(picture_.half * 16 + v);
        picture_.half = -1;
        ++picture_bytes_;
      }
    }
  }

  void end_picture() {
    const std::size_t number = out_->doc.images + paragraph_.images.size() + cell_.images.size() + table_.images.size() + 1;
    if ((picture_.format == "png" || picture_.format == "jpg") && !picture_.bytes.empty()) {
      const std::string name = "image" + std::to_string(out_->pictures.size() + 1) + "." + picture_.format;
      out_->pictures.push_back({name, std::move(picture_.bytes)});
      paragraph_.images.push_back(name);
      paragraph_.text += " [Image " + std::to_string(number) + "] ";
    } else {
      ++out_->pictures_not_kept;
      const std::string& f = picture_.format;
      const std::string format = f.empty() ? "a picture" : (f.starts_with('E') ? "an " : "a ") + f + " picture";
      paragraph_.text += " [" + format + ", not shown] ";
    }
    picture_ = {};
  }

  // The document's group closed (or the input ended inside it): its last paragraph ends there,
  // with the paragraph properties in force.
  bool finish() {
    flush();
    if (top().dest != Dest::body) {
      State body = top();
      body.dest = Dest::body;
      stack_.push_back(body);
    }
    end_paragraph();
    end_table();
    return true;
  }

  static void move_inline(office::Inline& from, office::Inline& to) {
    to.text += from.text;
    to.notes.insert(to.notes.end(), from.notes.begin(), from.notes.end());
    to.images.insert(to.images.end(), from.images.begin(), from.images.end());
    from = {};
  }

  struct PictureState {
    std::string format;
    std::string bytes;
    int half = -1;
  };

  RtfDocument* out_;
  std::string* error_;
  std::vector<State> stack_{State{}};
  TextDecoder decoder_;
  std::string* decoding_into_ = nullptr;
  int skip_ = 0;
  std::map<int, int> fonts_;  // font number -> code page
  int font_entry_ = -1;
  std::map<int, int> styles_;  // style number -> heading level (0: not a heading)
  std::string style_name_;
  office::Inline paragraph_, cell_;
  std::vector<std::string> row_;
  DocBlock table_;
  std::size_t cells_ = 0;
  std::string note_, marker_;
  std::vector<Field> fields_;
  PictureState picture_;
  std::size_t picture_bytes_ = 0;
};

}  // namespace

bool read_rtf(std::string_view rtf, RtfDocument* out, std::string* error) {
  if (!rtf.starts_with("{\\rtf")) {
    *error = "it does not start with {\\rtf, as every RTF document does";
    return false;
  }
  Builder builder(out, error);
  return builder.run(rtf);
}

}  // namespace mcpread::readers::rtf
