// An OpenDocument presentation: content.xml's draw:page elements in order, each page's frames
// and shapes (the title first, then the others in page order), lists, tables as Markdown tables,
// images, and the text of its presentation:notes.
#include "markdown_text.hpp"
#include "office/document.hpp"
#include "package/parts.hpp"
#include "slides/slides.hpp"

#include <algorithm>
#include <set>

namespace mcpread::readers::slides {
namespace {

using package::xml::attr;
using package::xml::child;
using package::xml::is;
using pugi::xml_node;

// The inline text of a text:p or text:h: spans, links, spaces (text:s c="N"), tabs, line breaks.
void inline_text(xml_node n, std::string& out) {
  for (xml_node c : n.children()) {
    if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
      out += c.value();
      continue;
    }
    if (c.type() != pugi::node_element) continue;
    const std::string_view name = package::xml::local(c);
    if (name == "s") out.append(static_cast<std::size_t>(std::clamp(package::xml::small_int(attr(c, "c"), 1), 1, 100)), ' ');
    else if (name == "tab") out += '\t';
    else if (name == "line-break") out += '\n';
    else if (name == "note" || name == "annotation") continue;
    else inline_text(c, out);
  }
}

std::string paragraph(xml_node p) {
  std::string out;
  inline_text(p, out);
  return office::squeeze(out);
}

class PageReader {
 public:
  PageReader(sections::Section& section, std::size_t& images) : section_(section), images_(images) {}

  void page(xml_node page) {
    std::vector<std::string> blocks;
    shapes(page, blocks);
    std::string text;
    for (const auto& b : blocks)
      if (!b.empty()) text += (text.empty() ? "" : "\n\n") + b;
    section_.text = std::move(text);
    for (xml_node n : page.children())
      if (is(n, "notes")) {
        std::vector<std::string> notes;
        for (xml_node f : n.children())
          if (is(f, "frame") && attr(f, "class") == "notes") text_of(f, notes, 0);
        std::string joined;
        for (const auto& line : notes) joined += (joined.empty() ? "" : "\n") + line;
        section_.notes = std::move(joined);
      }
  }

 private:
  void shapes(xml_node parent, std::vector<std::string>& blocks) {
    for (xml_node n : parent.children()) {
      if (n.type() != pugi::node_element || is(n, "notes") || is(n, "forms")) continue;
      const std::string_view klass = attr(n, "class");
      if (klass == "page-number" || klass == "date-time" || klass == "footer" || klass == "header") continue;
      if (is(n, "g")) {
        shapes(n, blocks);
        continue;
      }
      if (klass == "title" && section_.title.empty()) {
        std::vector<std::string> lines;
        text_of(n, lines, 0, false);
        std::string t;
        for (const auto& l : lines) t += (t.empty() ? "" : " ") + l;
        for (char& c : t)
          if (c == '\n') c = ' ';
        section_.title = std::move(t);
        continue;
      }
      if (const xml_node table = child(n, "table")) {
        blocks.push_back(table_text(table));
        continue;
      }
      if (const xml_node image = child(n, "image"); image && !child(n, "text-box")) {
        picture(n, image, blocks);
        continue;
      }
      std::vector<std::string> lines;
      text_of(n, lines, 0);
      std::string block;
      for (const auto& l : lines) block += (block.empty() ? "" : "\n") + l;
      if (!block.empty()) blocks.push_back(std::move(block));
    }
  }

  // The paragraphs and lists under `n` (a frame, a text box, a custom shape), a line each. As
  // Markdown blocks (not a title's words), a number typed at a line's start is escaped: "1. "
  // would read as a numbered list's.
  void text_of(xml_node n, std::vector<std::string>& lines, int level, bool blocks = true) {
    for (xml_node c : n.children()) {
      if (is(c, "p") || is(c, "h")) {
        const std::string t = blocks ? escape_list_numbers(paragraph(c)) : paragraph(c);
        if (!t.empty()) lines.push_back(t);
      } else if (is(c, "list")) {
        text_of_list(c, lines, level);
      } else if (is(c, "text-box")) {
        text_of(c, lines, level, blocks);
      }
    }
  }

  void text_of_list(xml_node list, std::vector<std::string>& lines, int level) {
    for (xml_node item : list.children()) {
      if (!is(item, "list-item") && !is(item, "list-header")) continue;
      for (xml_node x : item.children()) {
        if (is(x, "list")) {
          text_of_list(x, lines, level + 1);
        } else if (is(x, "p") || is(x, "h")) {
          const std::string t = escape_list_numbers(paragraph(x));
          if (t.empty()) continue;
          std::string line(static_cast<std::size_t>(std::min(level, 8)) * 2, ' ');
          line += "- ";
          const std::string indent(line.size(), ' ');  // an item's line breaks stay under its text
          for (char c : t) {
            line += c;
            if (c == '\n') line += indent;
          }
          lines.push_back(std::move(line));
        }
      }
    }
  }

  static std::string table_text(xml_node table) {
    office::DocBlock b;
    b.type = office::DocBlock::Type::table;
    std::size_t cells = 0;
    std::vector<xml_node> rows;
    for (xml_node n : table.children()) {
      if (is(n, "table-row")) rows.push_back(n);
      else if (is(n, "table-header-rows") || is(n, "table-rows"))
        for (xml_node r : n.children())
          if (is(r, "table-row")) rows.push_back(r);
    }
    for (xml_node tr : rows) {
      std::vector<std::string> row;
      for (xml_node tc : tr.children()) {
        if (!is(tc, "table-cell") && !is(tc, "covered-table-cell")) continue;
        std::string cell;
        if (is(tc, "table-cell"))
          for (xml_node p : tc.children())
            if (is(p, "p") || is(p, "h")) {
              const std::string t = paragraph(p);
              if (!t.empty()) cell += (cell.empty() ? "" : "\n") + t;
            }
        const int repeat = std::clamp(package::xml::small_int(attr(tc, "number-columns-repeated"), 1), 1, 64);
        for (int r = 0; r < repeat; ++r) row.push_back(cell);
        if ((cells += static_cast<std::size_t>(repeat)) > office::kMaxTableCells) break;
      }
      b.rows.push_back(std::move(row));
      if (cells > office::kMaxTableCells) break;
    }
    return b.rows.empty() ? std::string() : office::render_block(b);
  }

  void picture(xml_node frame, xml_node image, std::vector<std::string>& blocks) {
    const std::string part = package::resolve_part("", attr(image, "href"));
    if (part.empty()) return;  // a linked image, or a path out of the package
    std::string alt = office::squeeze(child(frame, "desc").text().get());
    if (alt.empty()) alt = office::squeeze(child(frame, "title").text().get());
    section_.images.push_back(part);
    ++images_;
    blocks.push_back("[Image " + std::to_string(images_) + (alt.empty() ? "" : ": " + alt) + "]");
  }

  sections::Section& section_;
  std::size_t& images_;
};

}  // namespace

bool read_odp(package::ZipArchive& zip, sections::Deck* deck, std::string* error) {
  package::Parts pkg(zip, *error);
  deck->noun = "OpenDocument presentation";
  deck->unit = "slide";
  if (pkg.has("META-INF/manifest.xml")) {
    pugi::xml_document manifest;
    if (!pkg.load("META-INF/manifest.xml", &manifest)) return false;
    if (package::xml::descendant(manifest, "encryption-data")) {
      *error = "it is password-protected (encrypted): its text cannot be read without the password";
      return false;
    }
  }
  if (!pkg.has("content.xml")) {
    *error = zip.find("META-INF/manifest.xml") != nullptr || zip.find("mimetype") != nullptr
                 ? "its package has no \"content.xml\" (the presentation's pages)"
                 : "its package has no \"content.xml\" (not an OpenDocument package)";
    return false;
  }
  pugi::xml_document content;
  if (!pkg.load("content.xml", &content)) return false;
  const xml_node root = child(content, "document-content");
  // Pages hidden from the show: their drawing-page style says presentation:visibility="hidden".
  std::set<std::string> hidden_styles;
  for (xml_node s : child(root, "automatic-styles").children())
    if (is(s, "style") && attr(child(s, "drawing-page-properties"), "visibility") == "hidden")
      hidden_styles.insert(std::string(attr(s, "name")));
  std::size_t images = 0;
  for (xml_node page : child(child(root, "body"), "presentation").children()) {
    if (!is(page, "page")) continue;
    if (deck->sections.size() >= sections::kMaxSections) {
      *error = "it holds more than " + std::to_string(sections::kMaxSections) + " pages";
      return false;
    }
    sections::Section section;
    section.hidden = hidden_styles.count(std::string(attr(page, "style-name"))) != 0 || attr(page, "visibility") == "hidden";
    PageReader(section, images).page(page);
    deck->sections.push_back(std::move(section));
  }
  return true;
}

}  // namespace mcpread::readers::slides
