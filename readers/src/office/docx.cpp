// A Word document (Office Open XML): the main part named by _rels/.rels, its styles (which
// paragraph styles are headings or lists), numbering (bulleted or numbered lists), relationships
// (links, images), footnotes, endnotes and comments.
#include "mcpread/common/ascii.hpp"
#include "office/builders.hpp"
#include "package/parts.hpp"
#include "package/xml.hpp"

#include <algorithm>
#include <map>
#include <optional>

namespace mcpread::readers::office {
namespace {

namespace xml = package::xml;

using pugi::xml_node;
using xml::attr;
using xml::child;
using xml::is;

struct Style {
  int heading = 0;              // 1-6, 0: not a heading
  std::string num_id;           // list numbering the style carries
  int num_level = 0;
  std::string based_on;
};

class Builder {
 public:
  Builder(package::ZipArchive& zip, Document& doc, std::string& error)
      : zip_(zip), parts_(zip, error), doc_(doc), error_(error) {}

  bool run() {
    std::string main = "word/document.xml";
    for (const auto& [id, rel] : package::rels_or_none(zip_, ""))
      if (rel.type == "officeDocument") {
        if (!rel.external && !rel.target.empty()) main = rel.target;
        break;
      }
    if (zip_.find(main) == nullptr) {
      error_ = "its package has no \"" + main + "\" (the document's text)";
      return false;
    }
    if (!parts_.rels(main, &rels_)) return false;
    std::map<std::string, std::string> parts;  // relationship type -> part
    for (const auto& [id, rel] : rels_)
      if (!rel.external) parts.emplace(rel.type, rel.target);
    if (!optional_part(parts, "styles", [&](const pugi::xml_document& d) { read_styles(d); }) ||
        !optional_part(parts, "numbering", [&](const pugi::xml_document& d) { read_numbering(d); }) ||
        !optional_part(parts, "footnotes", [&](const pugi::xml_document& d) { read_notes(d, "footnote", footnotes_); }) ||
        !optional_part(parts, "endnotes", [&](const pugi::xml_document& d) { read_notes(d, "endnote", endnotes_); }) ||
        !optional_part(parts, "comments", [&](const pugi::xml_document& d) { read_comments(d); }))
      return false;
    pugi::xml_document document;
    if (!parts_.load(main, &document)) return false;
    const xml_node body = child(child(document, "document"), "body");
    if (!body) {
      error_ = "\"" + main + "\" has no w:body";
      return false;
    }
    blocks(body);
    return true;
  }

 private:
  template <class Fn>
  bool optional_part(const std::map<std::string, std::string>& parts, const std::string& type, Fn fn) {
    const auto it = parts.find(type);
    if (it == parts.end() || zip_.find(it->second) == nullptr) return true;
    pugi::xml_document d;
    if (!parts_.load(it->second, &d)) return false;
    fn(d);
    return true;
  }

  void read_styles(const pugi::xml_document& d) {
    for (xml_node s : child(d, "styles").children()) {
      if (!is(s, "style") || attr(s, "type") != "paragraph") continue;
      Style st;
      const std::string name = common::ascii_lower(attr(child(s, "name"), "val"));
      if (name.starts_with("heading ")) st.heading = xml::small_int(name.substr(8), 0);
      else if (name == "title") st.heading = 1;
      const xml_node ppr = child(s, "pPr");
      if (const auto lvl = attr(child(ppr, "outlineLvl"), "val"); !lvl.empty() && st.heading == 0)
        st.heading = xml::small_int(lvl, 8) < 6 ? xml::small_int(lvl, 8) + 1 : 0;
      if (const xml_node num = child(ppr, "numPr")) {
        st.num_id = attr(child(num, "numId"), "val");
        st.num_level = xml::small_int(attr(child(num, "ilvl"), "val"), 0);
      }
      st.based_on = attr(child(s, "basedOn"), "val");
      styles_[std::string(attr(s, "styleId"))] = std::move(st);
    }
  }

  void read_numbering(const pugi::xml_document& d) {
    std::map<std::string, std::map<int, bool>> abstract;  // abstractNumId -> level -> ordered
    const xml_node numbering = child(d, "numbering");
    for (xml_node a : numbering.children())
      if (is(a, "abstractNum"))
        for (xml_node l : a.children())
          if (is(l, "lvl")) {
            const std::string_view fmt = attr(child(l, "numFmt"), "val");
            abstract[std::string(attr(a, "abstractNumId"))][xml::small_int(attr(l, "ilvl"), 0)] =
                !fmt.empty() && fmt != "bullet" && fmt != "none";
          }
    for (xml_node n : numbering.children())
      if (is(n, "num")) ordered_[std::string(attr(n, "numId"))] = abstract[std::string(attr(child(n, "abstractNumId"), "val"))];
  }

  void read_notes(const pugi::xml_document& d, std::string_view element, std::map<std::string, std::string>& into) {
    for (xml_node n : d.first_child().children()) {
      if (!is(n, element) || !attr(n, "type").empty()) continue;  // separators have a type
      into[std::string(attr(n, "id"))] = paragraphs_text(n);
    }
  }

  void read_comments(const pugi::xml_document& d) {
    for (xml_node c : child(d, "comments").children())
      if (is(c, "comment")) {
        const std::string_view author = attr(c, "author");
        comments_[std::string(attr(c, "id"))] =
            "[Comment" + (author.empty() ? std::string() : " by " + std::string(author)) + ": " + paragraphs_text(c) + "]";
      }
  }

  // The paragraphs under `n` as one line (notes, comments).
  std::string paragraphs_text(xml_node n) {
    std::string out;
    for (xml_node p : n.children()) {
      Inline in;
      if (is(p, "p")) inline_of(p, in);
      else if (is(p, "tbl")) inline_of(p, in);
      else continue;
      const std::string t = squeeze(in.text);
      if (!t.empty()) out += (out.empty() ? "" : " ") + t;
    }
    return out;
  }

  const Style* style(std::string_view id) const {
    const auto it = styles_.find(std::string(id));
    return it == styles_.end() ? nullptr : &it->second;
  }

  // A style's heading level or list, following basedOn a few steps.
  Style resolved_style(std::string_view id) const {
    Style out;
    for (int step = 0; step < 10 && !id.empty(); ++step) {
      const Style* s = style(id);
      if (s == nullptr) break;
      if (out.heading == 0) out.heading = s->heading;
      if (out.num_id.empty()) {
        out.num_id = s->num_id;
        out.num_level = s->num_level;
      }
      id = s->based_on;
    }
    return out;
  }

  void blocks(xml_node parent) {
    for (xml_node n : parent.children()) {
      if (is(n, "p")) paragraph(n);
      else if (is(n, "tbl")) table(n);
      else if (is(n, "sdt")) blocks(child(n, "sdtContent"));
      else if (is(n, "customXml") || is(n, "ins") || is(n, "moveTo")) blocks(n);
    }
  }

  void paragraph(xml_node p) {
    Inline in;
    inline_of(p, in);
    DocBlock b;
    if (!take_paragraph(in, &b)) return;
    const xml_node ppr = child(p, "pPr");
    Style st = resolved_style(attr(child(ppr, "pStyle"), "val"));
    if (const auto lvl = attr(child(ppr, "outlineLvl"), "val"); !lvl.empty())
      st.heading = xml::small_int(lvl, 8) < 6 ? xml::small_int(lvl, 8) + 1 : 0;
    if (const xml_node num = child(ppr, "numPr")) {
      if (const auto id = attr(child(num, "numId"), "val"); !id.empty()) st.num_id = id;
      if (const auto l = attr(child(num, "ilvl"), "val"); !l.empty()) st.num_level = xml::small_int(l, 0);
    }
    if (st.heading > 0 && !b.text.empty()) {
      b.type = DocBlock::Type::heading;
      b.level = std::min(st.heading, 6);
    } else if (!st.num_id.empty() && st.num_id != "0") {
      b.type = DocBlock::Type::list_item;
      b.level = std::clamp(st.num_level, 0, 8);
      const auto levels = ordered_.find(st.num_id);  // a list numbering.xml lacks: bullets
      b.ordered = levels != ordered_.end() && levels->second.count(b.level) && levels->second.at(b.level);
      auto& counters = counters_[st.num_id];
      counters.resize(9, 0);
      b.number = ++counters[static_cast<std::size_t>(b.level)];
      b.list = st.num_id;
      std::fill(counters.begin() + b.level + 1, counters.end(), 0);
    }
    add_block(doc_, std::move(b));
  }

  void table(xml_node tbl) {
    DocBlock b;
    b.type = DocBlock::Type::table;
    std::size_t cells = 0;
    // Rows, some inside content controls (w:sdt) or custom XML.
    std::vector<xml_node> rows;
    for (xml_node n : tbl.children()) {
      if (is(n, "tr")) rows.push_back(n);
      else if (is(n, "sdt") || is(n, "customXml"))
        for (xml_node r : (is(n, "sdt") ? child(n, "sdtContent") : n).children())
          if (is(r, "tr")) rows.push_back(r);
    }
    for (xml_node tr : rows) {
      std::vector<std::string> row;
      for (xml_node tc : tr.children()) {
        if (is(tc, "sdt")) tc = child(child(tc, "sdtContent"), "tc");
        if (!is(tc, "tc")) continue;
        const xml_node tcpr = child(tc, "tcPr");
        const xml_node vmerge = child(tcpr, "vMerge");
        Inline in;
        if (!(vmerge && attr(vmerge, "val") != "restart")) cell_text(tc, in);
        row.push_back(squeeze(in.text));
        for (auto& i : in.images) b.images.push_back(std::move(i));
        for (auto n : in.notes) b.notes.push_back(n);
        const int span = std::clamp(xml::small_int(attr(child(tcpr, "gridSpan"), "val"), 1), 1, 64);
        for (int s = 1; s < span; ++s) row.emplace_back();
        if ((cells += static_cast<std::size_t>(span)) > kMaxTableCells) break;
      }
      b.rows.push_back(std::move(row));
      if (cells > kMaxTableCells) break;
    }
    if (b.rows.empty()) return;
    add_block(doc_, std::move(b));
  }

  // A cell's paragraphs (and nested tables, flattened) on lines of their own.
  void cell_text(xml_node tc, Inline& in) {
    for (xml_node n : tc.children()) {
      if (is(n, "p") || is(n, "tbl") || is(n, "sdt")) {
        Inline part;
        inline_of(n, part);
        const std::string t = squeeze(part.text);
        if (!t.empty()) in.text += (in.text.empty() ? "" : "\n") + t;
        for (auto& i : part.images) in.images.push_back(std::move(i));
        for (auto x : part.notes) in.notes.push_back(x);
      }
    }
  }

  std::size_t note(std::map<std::string, std::string>& notes, std::string_view id) {
    const auto it = notes.find(std::string(id));
    doc_.notes.push_back(Note{std::to_string(doc_.notes.size() + 1), it == notes.end() ? std::string() : it->second});
    return doc_.notes.size() - 1;
  }

  void image(std::string_view rel_id, std::string_view alt, Inline& in) {
    const auto it = rels_.find(std::string(rel_id));
    if (it == rels_.end() || it->second.target.empty()) return;
    const std::string label = alt.empty() ? std::string() : ": " + squeeze(alt);
    if (it->second.external) {
      in.text += " [Linked image" + label + " (" + it->second.target + ")] ";
      return;
    }
    in.images.push_back(it->second.target);
    in.text += " [Image " + std::to_string(doc_.images + in.images.size()) + label + "] ";
  }

  // The inline content under `n` (a paragraph, a run, a link...) appended to `in`.
  void inline_of(xml_node n, Inline& in) {
    for (xml_node c : n.children()) {
      if (c.type() != pugi::node_element) continue;
      const std::string_view name = xml::local(c);
      if (name == "t") {
        in.text += c.text().get();
      } else if (name == "tab" || name == "ptab") {
        in.text += '\t';
      } else if (name == "br" || name == "cr") {
        if (attr(c, "type") != "page" && attr(c, "type") != "column") in.text += '\n';
      } else if (name == "noBreakHyphen") {
        in.text += '-';
      } else if (name == "footnoteReference" || name == "endnoteReference") {
        const std::size_t i = note(name == "footnoteReference" ? footnotes_ : endnotes_, attr(c, "id"));
        in.notes.push_back(i);
        in.text += "[^" + doc_.notes[i].label + "]";
      } else if (name == "commentReference") {
        const auto it = comments_.find(std::string(attr(c, "id")));
        if (it != comments_.end()) {
          in.text += " " + it->second + " ";
          ++doc_.comments;
        }
      } else if (name == "drawing") {
        const xml_node pr = xml::descendant(c, "docPr");
        const std::string_view alt = attr(pr, "descr").empty() ? attr(pr, "title") : attr(pr, "descr");
        if (const xml_node blip = xml::descendant(c, "blip")) image(attr(blip, "embed"), alt, in);
        if (const xml_node box = xml::descendant(c, "txbxContent")) text_box(box, in);
      } else if (name == "pict" || name == "object") {
        if (const xml_node data = xml::descendant(c, "imagedata")) image(attr(data, "id"), attr(data, "title"), in);
        if (const xml_node box = xml::descendant(c, "txbxContent")) text_box(box, in);
      } else if (name == "hyperlink") {
        Inline link;
        inline_of(c, link);
        const auto it = rels_.find(std::string(attr(c, "id")));
        const std::string text = squeeze(link.text);
        if (it != rels_.end() && it->second.external && !text.empty())
          in.text += "[" + text + "](" + it->second.target + ")";
        else
          in.text += link.text;
        for (auto& i : link.images) in.images.push_back(std::move(i));
        for (auto x : link.notes) in.notes.push_back(x);
      } else if (name == "AlternateContent") {
        if (const xml_node choice = child(c, "Choice")) inline_of(choice, in);
      } else if (name == "p") {  // a paragraph inside a text box or cell: its own line
        in.text += '\n';
        inline_of(c, in);
      } else if (name == "tbl" || name == "tr" || name == "tc" || name == "sdtContent" || name == "sdt") {
        in.text += '\n';
        inline_of(c, in);
      } else if (name != "pPr" && name != "rPr" && name != "delText" && name != "instrText" && name != "del" &&
                 name != "moveFrom" && name != "sectPr" && name != "tblPr" && name != "tcPr" && name != "trPr" &&
                 name != "tblGrid" && name != "footnoteRef" && name != "endnoteRef" && name != "annotationRef") {
        inline_of(c, in);  // runs, insertions, smart tags, fields, content controls
      }
    }
  }

  void text_box(xml_node box, Inline& in) {
    for (xml_node p : box.children()) {
      in.text += '\n';
      inline_of(p, in);
    }
  }

  package::ZipArchive& zip_;
  package::Parts parts_;  // XML parts parsed under the package limits
  Document& doc_;
  std::string& error_;
  package::Rels rels_;
  std::map<std::string, Style> styles_;
  std::map<std::string, std::map<int, bool>> ordered_;
  std::map<std::string, std::vector<std::size_t>> counters_;
  std::map<std::string, std::string> footnotes_, endnotes_, comments_;
};

}  // namespace

bool read_docx(package::ZipArchive& zip, Document* doc, std::string* error) {
  return Builder(zip, *doc, *error).run();
}

}  // namespace mcpread::readers::office
