#include "fb2/fb2_document.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <utility>
#include <vector>

namespace mcpread::readers::fb2 {

namespace {

using pugi::xml_node;

// Element names without a namespace prefix ("fb:section" is a section too).
std::string_view local(const xml_node& n) {
  const std::string_view name = n.name();
  const std::size_t colon = name.rfind(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

bool is(const xml_node& n, std::string_view name) { return n.type() == pugi::node_element && local(n) == name; }

// An href whatever prefix its XLink namespace was given (l:href, xlink:href).
std::string_view href(const xml_node& n) {
  for (const pugi::xml_attribute& a : n.attributes()) {
    const std::string_view name = a.name();
    if (name == "href" || (name.size() > 5 && name.ends_with(":href"))) return a.value();
  }
  return {};
}

class Builder {
 public:
  explicit Builder(Fb2Book* out) : out_(out) {}

  bool build(const xml_node& root, std::string* error) {
    // The notes first: the text's links to them become footnote references.
    for (const xml_node& body : root.children())
      if (is(body, "body") && is_notes(body)) collect_notes(body, 0);
    for (const xml_node& b : root.children())
      if (is(b, "binary") && b.attribute("id"))
        out_->binaries[b.attribute("id").value()] = {b.attribute("content-type").value(), b.child_value()};
    if (const xml_node info = child(child(root, "description"), "title-info")) description(info);
    for (const xml_node& body : root.children())
      if (is(body, "body") && !is_notes(body)) blocks(body, 0);
    if (!failure_.empty()) *error = failure_;
    return failure_.empty();
  }

 private:
  static xml_node child(const xml_node& n, std::string_view name) {
    for (const xml_node& c : n.children())
      if (is(c, name)) return c;
    return {};
  }

  static bool is_notes(const xml_node& body) {
    const std::string_view name = body.attribute("name").value();
    return name == "notes" || name == "comments" || name == "footnotes";
  }

  bool deeper(std::size_t depth) {
    if (depth < kMaxDepth) return true;
    if (failure_.empty()) failure_ = "its elements are nested more than " + std::to_string(kMaxDepth) + " deep";
    return false;
  }

  // Each notes section, by its id: its title ("1", "*") is the label, its paragraphs the text.
  void collect_notes(const xml_node& n, std::size_t depth) {
    if (!deeper(depth)) return;
    for (const xml_node& s : n.children()) {
      if (!is(s, "section")) continue;
      const std::string id = s.attribute("id").value();
      if (id.empty()) {
        collect_notes(s, depth + 1);
        continue;
      }
      std::string label, text;
      for (const xml_node& part : s.children()) {
        if (is(part, "title")) {
          label = office::squeeze(plain(part, depth + 1));
        } else if (is(part, "p") || is(part, "v") || is(part, "subtitle") || is(part, "text-author")) {
          text += (text.empty() ? "" : " ") + office::squeeze(plain(part, depth + 1));
        } else if (is(part, "poem") || is(part, "cite") || is(part, "stanza")) {
          text += (text.empty() ? "" : " ") + office::squeeze(plain(part, depth + 1));
        }
      }
      if (label.empty() || label.size() > 16) label = std::to_string(out_->doc.notes.size() + 1);
      out_->doc.notes.push_back({label, text});
      notes_[id] = out_->doc.notes.size() - 1;
    }
  }

  // The text of an element, its markup dropped (note labels and note text).
  std::string plain(const xml_node& n, std::size_t depth) {
    office::Inline in;
    inline_content(n, in, depth, false);
    return in.text;
  }

  void description(const xml_node& info) {
    if (const xml_node t = child(info, "book-title")) {
      out_->title = office::squeeze(plain(t, 1));
      add(office::DocBlock::Type::heading, 1, out_->title);
    }
    std::vector<std::string> authors;
    for (const xml_node& a : info.children()) {
      if (!is(a, "author")) continue;
      std::string name;
      for (const char* part : {"first-name", "middle-name", "last-name"})
        if (const xml_node p = child(a, part)) name += std::string(name.empty() ? "" : " ") + p.child_value();
      if (office::squeeze(name).empty())
        if (const xml_node nick = child(a, "nickname")) name = nick.child_value();
      if (!office::squeeze(name).empty()) authors.push_back(office::squeeze(name));
    }
    if (!authors.empty()) {
      std::string by = "by " + authors.front();
      for (std::size_t i = 1; i < authors.size(); ++i) by += (i + 1 == authors.size() ? " and " : ", ") + authors[i];
      add(office::DocBlock::Type::paragraph, 0, by);
    }
    if (const xml_node cover = child(info, "coverpage")) {
      office::Inline in;
      for (const xml_node& image : cover.children())
        if (is(image, "image")) add_image(image, in);
      paragraph(in);
    }
    if (const xml_node annotation = child(info, "annotation")) blocks(annotation, 1);
  }

  void add(office::DocBlock::Type type, int level, std::string text) {
    if (text.empty()) return;
    office::DocBlock b;
    b.type = type;
    b.level = level;
    b.text = std::move(text);
    office::add_block(out_->doc, std::move(b));
  }

  void paragraph(office::Inline& in, std::string_view prefix = {}) {
    office::DocBlock b;
    block_images_ = 0;
    if (!office::take_paragraph(in, &b)) return;
    if (!prefix.empty()) {
      std::string quoted(prefix);
      for (char c : b.text) {
        quoted += c;
        if (c == '\n') quoted += prefix;
      }
      b.text = std::move(quoted);
    }
    office::add_block(out_->doc, std::move(b));
  }

  // An image where it stands: numbered as the office readers number theirs, its alt or title as
  // its label; the picture itself follows the block.
  void add_image(const xml_node& image, office::Inline& in) {
    std::string_view target = href(image);
    if (target.starts_with("#")) target.remove_prefix(1);
    std::string label = office::squeeze(image.attribute("alt").value());
    if (label.empty()) label = office::squeeze(image.attribute("title").value());
    if (!label.empty()) label = ": " + label;
    if (out_->binaries.contains(std::string(target))) {
      in.images.emplace_back(target);
      in.text += " [Image " + std::to_string(out_->doc.images + ++block_images_) + label + "] ";
    } else {
      ++out_->images_missing;
      in.text += " [Image" + label + " not in the book" + (target.empty() ? "" : " (" + std::string(target) + ")") + "] ";
    }
  }

  // Block-level content: sections (headings by depth), paragraphs, poems, quotes, tables, images.
  // `quote` prefixes every line ("> ") inside citations and epigraphs.
  void blocks(const xml_node& n, std::size_t depth, std::string_view quote = {}) {
    if (!deeper(depth)) return;
    for (const xml_node& c : n.children()) {
      if (!failure_.empty()) return;
      if (c.type() != pugi::node_element) continue;
      const std::string_view name = local(c);
      if (name == "title") {
        std::string text;
        for (const xml_node& p : c.children())
          if (is(p, "p")) text += (text.empty() ? "" : " — ") + office::squeeze(plain(p, depth + 1));
        if (quote.empty())
          add(office::DocBlock::Type::heading, static_cast<int>(std::min<std::size_t>(depth + 1, 6)), text);
        else
          add(office::DocBlock::Type::paragraph, 0, std::string(quote) + "**" + text + "**");
      } else if (name == "section") {
        blocks(c, depth + 1, quote);
      } else if (name == "p" || name == "v") {
        office::Inline in;
        inline_content(c, in, depth + 1, true);
        paragraph(in, quote);
      } else if (name == "subtitle" || name == "text-author") {
        office::Inline in;
        inline_content(c, in, depth + 1, true);
        // A subtitle is bold, unless it is a scene break ("* * *"): no letter or digit to stress.
        const std::string text = office::squeeze(in.text);
        const bool words = std::any_of(text.begin(), text.end(), [](char ch) {
          return std::isalnum(static_cast<unsigned char>(ch)) || static_cast<unsigned char>(ch) >= 0x80;
        });
        in.text = name == "text-author" ? "— " + text : words ? "**" + text + "**" : text;
        paragraph(in, quote);
      } else if (name == "epigraph" || name == "cite" || name == "annotation") {
        blocks(c, depth + 1, name == "annotation" ? quote : std::string(quote) + "> ");
      } else if (name == "poem") {
        blocks(c, depth + 1, quote);
      } else if (name == "stanza") {
        stanza(c, depth + 1, quote);
      } else if (name == "image") {
        office::Inline in;
        add_image(c, in);
        paragraph(in, quote);
      } else if (name == "table") {
        table(c, depth + 1);
      }
    }
  }

  // A stanza is one block, its verses on their own lines.
  void stanza(const xml_node& s, std::size_t depth, std::string_view quote) {
    if (!deeper(depth)) return;
    office::Inline in;
    for (const xml_node& v : s.children()) {
      if (is(v, "title") || is(v, "subtitle")) {
        in.text += "**" + office::squeeze(plain(v, depth + 1)) + "**\n";
      } else if (is(v, "v")) {
        inline_content(v, in, depth + 1, true);
        in.text += '\n';
      }
    }
    paragraph(in, quote);
  }

  void table(const xml_node& t, std::size_t depth) {
    office::DocBlock b;
    b.type = office::DocBlock::Type::table;
    for (const xml_node& tr : t.children()) {
      if (!is(tr, "tr")) continue;
      std::vector<std::string> row;
      for (const xml_node& cell : tr.children()) {
        if (!is(cell, "td") && !is(cell, "th")) continue;
        if (++cells_ > office::kMaxTableCells) {
          failure_ = "a table holds more than " + std::to_string(office::kMaxTableCells) + " cells";
          return;
        }
        office::Inline in;
        inline_content(cell, in, depth + 1, true);
        row.push_back(office::squeeze(in.text));
        for (auto& i : in.images) b.images.push_back(std::move(i));
        for (auto x : in.notes) b.notes.push_back(x);
      }
      if (!row.empty()) b.rows.push_back(std::move(row));
    }
    block_images_ = 0;
    if (!b.rows.empty()) office::add_block(out_->doc, std::move(b));
  }

  // Inline content as Markdown: emphasis, strong, strikethrough, code, links, note references
  // and inline images; the XML's own line breaks are spaces. `markup` false gives the bare text.
  void inline_content(const xml_node& n, office::Inline& in, std::size_t depth, bool markup) {
    if (!deeper(depth)) return;
    for (const xml_node& c : n.children()) {
      if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
        for (const char* p = c.value(); *p; ++p) in.text += (*p == '\n' || *p == '\r') ? ' ' : *p;
        continue;
      }
      if (c.type() != pugi::node_element) continue;
      const std::string_view name = local(c);
      const char* mark = !markup                  ? ""
                         : name == "emphasis"     ? "*"
                         : name == "strong"       ? "**"
                         : name == "strikethrough" ? "~~"
                         : name == "code"         ? "`"
                                                  : "";
      if (name == "a") {
        link(c, in, depth, markup);
      } else if (name == "image") {
        if (markup) add_image(c, in);
      } else {
        in.text += mark;
        inline_content(c, in, depth + 1, markup);
        in.text += mark;
      }
    }
  }

  void link(const xml_node& a, office::Inline& in, std::size_t depth, bool markup) {
    std::string_view target = href(a);
    if (target.starts_with("#")) {
      const auto note = notes_.find(std::string(target.substr(1)));
      if (note != notes_.end()) {
        if (markup) {
          in.notes.push_back(note->second);
          in.text += "[^" + out_->doc.notes[note->second].label + "]";
        }
        return;
      }
    }
    const bool external = markup && (target.starts_with("http://") || target.starts_with("https://") ||
                                      target.starts_with("mailto:"));
    if (external) in.text += '[';
    inline_content(a, in, depth + 1, markup);
    if (external) in.text += "](" + std::string(target) + ")";
  }

  Fb2Book* out_;
  std::map<std::string, std::size_t> notes_;  // note section id -> Document::notes index
  std::size_t cells_ = 0;
  std::size_t block_images_ = 0;  // images in the block being built, for their numbers
  std::string failure_;
};

}  // namespace

bool read_fb2(std::string_view xml, Fb2Book* out, std::string* error) {
  out->tree = std::make_unique<pugi::xml_document>();
  // Whitespace-only text is kept: it is the space between two inline elements.
  const pugi::xml_parse_result parsed =
      out->tree->load_buffer(xml.data(), xml.size(), pugi::parse_default | pugi::parse_ws_pcdata,
                             pugi::encoding_utf8);
  if (!parsed) {
    *error = std::string("it is not well-formed XML (") + parsed.description() + " at byte " +
             std::to_string(parsed.offset) + ")";
    return false;
  }
  xml_node root;
  for (const xml_node& n : out->tree->children())
    if (is(n, "FictionBook")) root = n;
  if (!root) {
    *error = "it has no <FictionBook> root element";
    return false;
  }
  return Builder(out).build(root, error);
}

}  // namespace mcpread::readers::fb2
