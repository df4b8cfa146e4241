// An OpenDocument text (ODT): content.xml's office:text, with the list styles of content.xml and
// styles.xml saying which lists are numbered. A package whose manifest lists encryption data is
// password-protected: its content.xml is ciphertext.
#include "office/builders.hpp"
#include "package/parts.hpp"
#include "package/xml.hpp"

#include <algorithm>
#include <map>

namespace mcpread::readers::office {
namespace {

namespace xml = package::xml;

using pugi::xml_node;
using xml::attr;
using xml::child;
using xml::is;

class Builder {
 public:
  Builder(package::ZipArchive& zip, Document& doc, std::string& error)
      : zip_(zip), parts_(zip, error), doc_(doc), error_(error) {}

  bool run() {
    if (zip_.find("META-INF/manifest.xml") != nullptr) {
      pugi::xml_document manifest;
      if (!parts_.load("META-INF/manifest.xml", &manifest)) return false;
      if (xml::descendant(manifest, "encryption-data")) {
        error_ = "it is password-protected (encrypted): its text cannot be read without the password";
        return false;
      }
    }
    if (zip_.find("content.xml") == nullptr) {
      error_ = "its package has no \"content.xml\" (the document's text)";
      return false;
    }
    if (zip_.find("styles.xml") != nullptr) {
      pugi::xml_document styles;
      if (!parts_.load("styles.xml", &styles)) return false;
      list_styles(styles);
    }
    pugi::xml_document content;
    if (!parts_.load("content.xml", &content)) return false;
    list_styles(content);
    const xml_node text = child(child(child(content, "document-content"), "body"), "text");
    if (!text) {
      error_ = "\"content.xml\" has no office:text (is it a text document?)";
      return false;
    }
    blocks(text, -1, "");
    return true;
  }

 private:
  // Every text:list-style (automatic or named): which of its levels are numbered.
  void list_styles(const pugi::xml_document& d) {
    auto visit = [&](xml_node styles) {
      for (xml_node s : styles.children())
        if (is(s, "list-style"))
          for (xml_node l : s.children())
            if (is(l, "list-level-style-number"))
              numbered_[std::string(attr(s, "name"))][xml::small_int(attr(l, "level"), 1) - 1] =
                  !attr(l, "num-format").empty();
    };
    const xml_node root = d.first_child();
    visit(child(root, "automatic-styles"));
    visit(child(root, "styles"));
  }

  void blocks(xml_node parent, int list_level, std::string_view list_style) {
    for (xml_node n : parent.children()) {
      if (n.type() != pugi::node_element) continue;
      const std::string_view name = xml::local(n);
      if (name == "p" || name == "h") {
        paragraph(n, list_level, list_style, nullptr);
      } else if (name == "list") {
        const std::string_view style = attr(n, "style-name").empty() ? list_style : attr(n, "style-name");
        if (list_level < 0) ++lists_;  // a new top-level list
        list_items(n, list_level + 1, style);
      } else if (name == "table") {
        table(n);
      } else if (name == "numbered-paragraph") {  // ODF 1.2: a list item outside a list
        const std::size_t number = static_cast<std::size_t>(std::max(xml::small_int(attr(n, "start-value"), 1), 1));
        const std::string_view style = attr(n, "style-name").empty() ? list_style : attr(n, "style-name");
        for (xml_node p : n.children())
          if (is(p, "p") || is(p, "h")) {
            ++lists_;
            paragraph(p, std::clamp(xml::small_int(attr(n, "level"), 1), 1, 9) - 1, style, &number);
          }
      } else if (name == "section" || name == "index-body" || name == "table-of-content" ||
                 name == "alphabetical-index" || name == "illustration-index" || name == "bibliography" ||
                 name == "user-index" || name == "object-index" || name == "table-index" ||
                 name == "change" || name == "inserted" || name == "deletion-skip") {
        blocks(n, list_level, list_style);
      }
    }
  }

  void list_items(xml_node list, int level, std::string_view style) {
    std::size_t number = 0;
    for (xml_node item : list.children()) {
      if (!is(item, "list-item") && !is(item, "list-header")) continue;
      bool first = true;
      for (xml_node n : item.children()) {
        if (is(n, "p") || is(n, "h")) {
          if (first) ++number;
          paragraph(n, level, style, first ? &number : nullptr);
          first = false;
        } else if (is(n, "list")) {
          list_items(n, level + 1, attr(n, "style-name").empty() ? style : attr(n, "style-name"));
        } else if (is(n, "table")) {
          table(n);
        }
      }
    }
  }

  // A paragraph or heading; inside a list, the first paragraph of an item (number set) is the
  // item, the following ones continue it as plain paragraphs.
  void paragraph(xml_node p, int list_level, std::string_view list_style, const std::size_t* number) {
    Inline in;
    inline_of(p, in);
    DocBlock b;
    if (!take_paragraph(in, &b)) return;
    if (is(p, "h") && !b.text.empty()) {
      b.type = DocBlock::Type::heading;
      b.level = std::clamp(xml::small_int(attr(p, "outline-level"), 1), 1, 6);
    } else if (list_level >= 0 && number != nullptr) {
      b.type = DocBlock::Type::list_item;
      b.level = std::min(list_level, 8);
      const auto levels = numbered_.find(std::string(list_style));
      b.ordered = levels != numbered_.end() && levels->second.count(b.level) && levels->second.at(b.level);
      b.number = *number;
      b.list = std::to_string(lists_);
    }
    add_block(doc_, std::move(b));
  }

  void table(xml_node t) {
    DocBlock b;
    b.type = DocBlock::Type::table;
    std::size_t cells = 0;
    auto rows = [&](auto& self, xml_node parent) -> void {
      for (xml_node r : parent.children()) {
        if (is(r, "table-header-rows") || is(r, "table-rows") || is(r, "table-row-group")) {
          self(self, r);
          continue;
        }
        if (!is(r, "table-row")) continue;
        std::vector<std::string> row;
        for (xml_node c : r.children()) {
          if (!is(c, "table-cell") && !is(c, "covered-table-cell")) continue;
          Inline in;
          if (is(c, "table-cell"))
            for (xml_node p : c.children()) {
              Inline part;
              if (is(p, "p") || is(p, "h")) inline_of(p, part);
              else if (is(p, "list") || is(p, "table")) inline_of(p, part);
              const std::string s = squeeze(part.text);
              if (!s.empty()) in.text += (in.text.empty() ? "" : "\n") + s;
              for (auto& i : part.images) b.images.push_back(std::move(i));
              for (auto x : part.notes) b.notes.push_back(x);
            }
          // Repeated cells (a spreadsheet-like table's empty tail) count, but only once shown.
          const int repeat = std::clamp(xml::small_int(attr(c, "number-columns-repeated"), 1), 1, 1024);
          const std::string text = squeeze(in.text);
          const int shown = text.empty() ? 1 : repeat;
          for (int i = 0; i < shown; ++i) row.push_back(text);
          if ((cells += static_cast<std::size_t>(shown)) > kMaxTableCells) return;
        }
        while (!row.empty() && row.back().empty()) row.pop_back();
        b.rows.push_back(std::move(row));
      }
    };
    rows(rows, t);
    if (b.rows.empty()) return;
    add_block(doc_, std::move(b));
  }

  void inline_of(xml_node n, Inline& in) {
    for (xml_node c : n.children()) {
      if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
        in.text += c.value();  // whitespace collapses later, as ODF says it does
        continue;
      }
      if (c.type() != pugi::node_element) continue;
      const std::string_view name = xml::local(c);
      if (name == "s") {
        in.text.append(static_cast<std::size_t>(std::clamp(xml::small_int(attr(c, "c"), 1), 1, 100)), ' ');
      } else if (name == "tab") {
        in.text += '\t';
      } else if (name == "line-break") {
        in.text += '\n';
      } else if (name == "a") {
        Inline link;
        inline_of(c, link);
        const std::string text = squeeze(link.text);
        const std::string_view href = attr(c, "href");
        if (!href.empty() && !href.starts_with('#') && !text.empty()) in.text += "[" + text + "](" + std::string(href) + ")";
        else in.text += link.text;
        for (auto& i : link.images) in.images.push_back(std::move(i));
        for (auto x : link.notes) in.notes.push_back(x);
      } else if (name == "note") {
        std::string body;
        for (xml_node p : child(c, "note-body").children()) {
          Inline part;
          inline_of(p, part);
          const std::string s = squeeze(part.text);
          if (!s.empty()) body += (body.empty() ? "" : " ") + s;
        }
        doc_.notes.push_back(Note{std::to_string(doc_.notes.size() + 1), std::move(body)});
        in.notes.push_back(doc_.notes.size() - 1);
        in.text += "[^" + doc_.notes.back().label + "]";
      } else if (name == "annotation") {
        std::string body;
        for (xml_node p : c.children())
          if (is(p, "p") || is(p, "list")) {
            Inline part;
            inline_of(p, part);
            const std::string s = squeeze(part.text);
            if (!s.empty()) body += (body.empty() ? "" : " ") + s;
          }
        const std::string author = squeeze(child(c, "creator").text().get());
        in.text += " [Comment" + (author.empty() ? std::string() : " by " + author) + ": " + body + "] ";
        ++doc_.comments;
      } else if (name == "frame") {
        frame(c, in);
      } else if (name == "p" || name == "h" || name == "list-item" || name == "table-row") {
        in.text += '\n';
        inline_of(c, in);
      } else if (name != "annotation-end" && name != "bookmark" && name != "bookmark-start" &&
                 name != "bookmark-end" && name != "soft-page-break" && name != "note-citation" &&
                 name != "tracked-changes" && name != "deletion" && name != "sequence-decls") {
        inline_of(c, in);  // spans, fields, lists and tables in cells, text boxes
      }
    }
  }

  void frame(xml_node f, Inline& in) {
    std::string alt = squeeze(child(f, "desc").text().get());
    if (alt.empty()) alt = squeeze(child(f, "title").text().get());
    const std::string label = alt.empty() ? std::string() : ": " + alt;
    for (xml_node c : f.children()) {
      if (is(c, "image")) {
        const std::string_view href = attr(c, "href");
        const std::string part = package::resolve_part("", href);
        if (!part.empty() && zip_.find(part) != nullptr) {
          in.images.push_back(part);
          in.text += " [Image " + std::to_string(doc_.images + in.images.size()) + label + "] ";
        } else if (!href.empty()) {
          in.text += " [Linked image" + label + " (" + std::string(href) + ")] ";
        }
        break;  // the first image is the picture; others are fallbacks of it
      }
      if (is(c, "text-box")) {
        for (xml_node p : c.children()) {
          in.text += '\n';
          inline_of(p, in);
        }
      }
    }
  }

  package::ZipArchive& zip_;
  package::Parts parts_;  // XML parts parsed under the package limits
  Document& doc_;
  std::string& error_;
  std::map<std::string, std::map<int, bool>> numbered_;
  std::size_t lists_ = 0;
};

}  // namespace

bool read_odt(package::ZipArchive& zip, Document* doc, std::string* error) {
  return Builder(zip, *doc, *error).run();
}

}  // namespace mcpread::readers::office
