// A PowerPoint presentation (Office Open XML): ppt/presentation.xml's slide list in show order,
// each slide's shapes (title first, then the others as the slide lists them), tables as Markdown
// tables, pictures as images, and the speaker notes of its notes slide.
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

class SlideReader {
 public:
  SlideReader(package::Parts& pkg, const package::Rels& rels, sections::Section& section, std::size_t& image_count)
      : pkg_(pkg), rels_(rels), section_(section), images_(image_count) {}

  void shapes(xml_node tree) {
    // The title first: it names the slide; the other shapes in the order the slide lists them.
    std::vector<std::string> blocks;
    walk(tree, blocks);
    std::string text;
    for (const auto& b : blocks)
      if (!b.empty()) text += (text.empty() ? "" : "\n\n") + b;
    section_.text = std::move(text);
  }

 private:
  void walk(xml_node tree, std::vector<std::string>& blocks) {
    for (xml_node n : tree.children()) {
      if (is(n, "sp")) shape(n, blocks);
      else if (is(n, "grpSp")) walk(n, blocks);
      else if (is(n, "graphicFrame")) frame(n, blocks);
      else if (is(n, "pic")) picture(n, blocks);
      else if (is(n, "AlternateContent")) {
        const xml_node choice = child(n, "Choice");
        walk(choice ? choice : child(n, "Fallback"), blocks);
      }
    }
  }

  void shape(xml_node sp, std::vector<std::string>& blocks) {
    const xml_node ph = child(child(child(sp, "nvSpPr"), "nvPr"), "ph");
    const std::string_view type = attr(ph, "type");
    if (type == "sldNum" || type == "dt" || type == "ftr") return;  // the slide's furniture
    const xml_node body = child(sp, "txBody");
    const bool title = ph && (type == "title" || type == "ctrTitle");
    if (title && section_.title.empty()) {
      std::string t;
      for (xml_node p : body.children())
        if (is(p, "p")) {
          const std::string line = office::squeeze(runs(p));
          if (!line.empty()) t += (t.empty() ? "" : " ") + line;
        }
      section_.title = office::squeeze(t);
      for (char& c : section_.title)
        if (c == '\n') c = ' ';
      return;
    }
    // Placeholders of the body kind are bulleted unless a paragraph says otherwise.
    const bool bulleted = ph && (type.empty() || type == "body" || type == "obj");
    std::string out = text_body(body, bulleted);
    if (!out.empty()) blocks.push_back(std::move(out));
  }

  std::string text_body(xml_node body, bool bulleted) {
    std::string out;
    std::size_t numbers[9] = {};  // the next number of each level's numbered run
    for (xml_node p : body.children()) {
      if (!is(p, "p")) continue;
      // A number typed into the text is escaped: "1. " at a line's start is the reader's numbering.
      const std::string line = escape_list_numbers(office::squeeze(runs(p)));
      if (line.empty()) continue;
      const xml_node ppr = child(p, "pPr");
      const bool numbered = static_cast<bool>(child(ppr, "buAutoNum"));
      const bool bullet = !child(ppr, "buNone") && (bulleted || child(ppr, "buChar") || numbered);
      const auto level = static_cast<std::size_t>(std::clamp(package::xml::small_int(attr(ppr, "lvl"), 0), 0, 8));
      // A numbered run goes on until a paragraph of its level or above is not numbered.
      for (std::size_t l = numbered ? level + 1 : level; l < 9; ++l) numbers[l] = 0;
      std::string item;
      if (bullet) {
        item.assign(level * 2, ' ');
        if (numbered) {
          const int start = package::xml::small_int(attr(child(ppr, "buAutoNum"), "startAt"), 1);
          if (numbers[level] == 0) numbers[level] = static_cast<std::size_t>(start);
          item += std::to_string(numbers[level]++) + ". ";
        } else {
          item += "- ";
        }
        const std::string indent(item.size(), ' ');
        for (char c : line) {
          item += c;
          if (c == '\n') item += indent;
        }
      } else {
        item = line;
      }
      out += (out.empty() ? "" : "\n") + item;
    }
    return out;
  }

  // A paragraph's runs, fields and line breaks.
  static std::string runs(xml_node p) {
    std::string out;
    for (xml_node r : p.children()) {
      if (is(r, "r") || is(r, "fld")) out += child(r, "t").text().get();
      else if (is(r, "br")) out += '\n';
    }
    return out;
  }

  void frame(xml_node gf, std::vector<std::string>& blocks) {
    const xml_node tbl = package::xml::descendant(gf, "tbl");
    if (const xml_node ids = package::xml::descendant(gf, "relIds"); ids && !tbl) {
      diagram(attr(ids, "dm"), blocks);
      return;
    }
    if (!tbl) return;
    office::DocBlock b;
    b.type = office::DocBlock::Type::table;
    std::size_t cells = 0;
    for (xml_node tr : tbl.children()) {
      if (!is(tr, "tr")) continue;
      std::vector<std::string> row;
      for (xml_node tc : tr.children()) {
        if (!is(tc, "tc")) continue;
        const bool merged = attr(tc, "hMerge") == "1" || attr(tc, "vMerge") == "1";
        std::string cell;
        if (!merged)
          for (xml_node p : child(tc, "txBody").children())
            if (is(p, "p")) {
              const std::string line = office::squeeze(runs(p));
              if (!line.empty()) cell += (cell.empty() ? "" : "\n") + line;
            }
        row.push_back(std::move(cell));
        if (++cells > office::kMaxTableCells) break;
      }
      b.rows.push_back(std::move(row));
      if (cells > office::kMaxTableCells) break;
    }
    if (!b.rows.empty()) blocks.push_back(office::render_block(b));
  }

  // A SmartArt diagram: the text of its data part's points, an item each.
  void diagram(std::string_view rel, std::vector<std::string>& blocks) {
    const auto it = rels_.find(std::string(rel));
    if (it == rels_.end() || it->second.external || it->second.target.empty() || !pkg_.has(it->second.target)) return;
    pugi::xml_document data;
    std::string error;
    auto bytes = pkg_.zip().read(it->second.target, &error);
    if (!bytes || !package::xml::parse(std::move(*bytes), it->second.target, &data, &error)) {
      blocks.push_back("[Diagram text not shown: " + error + ".]");
      return;
    }
    std::string out;
    for (xml_node pt : child(child(data, "dataModel"), "ptLst").children()) {
      if (!is(pt, "pt")) continue;
      std::string text;
      for (xml_node p : child(pt, "t").children())
        if (is(p, "p")) {
          const std::string line = office::squeeze(runs(p));
          if (!line.empty()) text += (text.empty() ? "" : " ") + line;
        }
      if (!text.empty()) out += (out.empty() ? "- " : "\n- ") + escape_list_numbers(text);
    }
    if (!out.empty()) blocks.push_back(std::move(out));
  }

  void picture(xml_node pic, std::vector<std::string>& blocks) {
    const xml_node pr = child(child(pic, "nvPicPr"), "cNvPr");
    const std::string_view alt = attr(pr, "descr").empty() ? attr(pr, "title") : attr(pr, "descr");
    const xml_node blip = package::xml::descendant(pic, "blip");
    const auto it = rels_.find(std::string(attr(blip, "embed")));
    if (it == rels_.end() || it->second.target.empty() || it->second.external) return;
    section_.images.push_back(it->second.target);
    ++images_;
    blocks.push_back("[Image " + std::to_string(images_) + (alt.empty() ? "" : ": " + office::squeeze(alt)) + "]");
  }

  package::Parts& pkg_;
  const package::Rels& rels_;
  sections::Section& section_;
  std::size_t& images_;
};

// The relationship a p:sldId names: its r:id (its plain `id` is a number).
std::string_view rel_id(xml_node n) {
  for (pugi::xml_attribute a = n.first_attribute(); a; a = a.next_attribute()) {
    const std::string_view name = a.name();
    if (name.find(':') != std::string_view::npos && package::xml::local(name) == "id") return a.value();
  }
  return {};
}

// The text of a notes slide's body placeholder.
std::string notes_text(const pugi::xml_document& d) {
  std::string out;
  for (xml_node sp : package::xml::descendant(d, "spTree").children()) {
    if (!is(sp, "sp")) continue;
    const xml_node ph = child(child(child(sp, "nvSpPr"), "nvPr"), "ph");
    if (attr(ph, "type") != "body") continue;
    for (xml_node p : child(sp, "txBody").children()) {
      if (!is(p, "p")) continue;
      std::string line;
      for (xml_node r : p.children()) {
        if (is(r, "r") || is(r, "fld")) line += child(r, "t").text().get();
        else if (is(r, "br")) line += '\n';
      }
      line = escape_list_numbers(office::squeeze(line));
      if (!line.empty()) out += (out.empty() ? "" : "\n") + line;
    }
  }
  return out;
}

}  // namespace

bool read_pptx(package::ZipArchive& zip, sections::Deck* deck, std::string* error) {
  package::Parts pkg(zip, *error);
  deck->noun = "PowerPoint presentation";
  deck->unit = "slide";
  std::string main = "ppt/presentation.xml";
  package::Rels package_rels;
  if (!pkg.rels("", &package_rels)) return false;
  for (const auto& [id, rel] : package_rels)
    if (rel.type == "officeDocument" && !rel.target.empty() && !rel.external) main = rel.target;
  if (!pkg.has(main)) {
    *error = "its package has no \"" + main + "\" (the presentation's slide list)";
    return false;
  }
  package::Rels rels;
  pugi::xml_document presentation;
  if (!pkg.rels(main, &rels) || !pkg.load(main, &presentation)) return false;
  std::set<std::string> seen;
  std::size_t images = 0;
  for (xml_node id : child(child(presentation, "presentation"), "sldIdLst").children()) {
    if (!is(id, "sldId")) continue;
    if (deck->sections.size() >= sections::kMaxSections) {
      *error = "it lists more than " + std::to_string(sections::kMaxSections) + " slides";
      return false;
    }
    const auto it = rels.find(std::string(rel_id(id)));
    sections::Section section;
    if (it == rels.end() || it->second.target.empty() || it->second.external || !pkg.has(it->second.target)) {
      section.text = "[This slide's part is missing from the package.]";
      deck->sections.push_back(std::move(section));
      continue;
    }
    const std::string part = it->second.target;
    if (!seen.insert(part).second) continue;  // listed twice: shown once
    pugi::xml_document slide;
    package::Rels slide_rels;
    if (!pkg.load(part, &slide) || !pkg.rels(part, &slide_rels)) return false;
    const xml_node root = child(slide, "sld");
    section.hidden = attr(root, "show") == "0";
    SlideReader(pkg, slide_rels, section, images).shapes(child(child(root, "cSld"), "spTree"));
    for (const auto& [rid, rel] : slide_rels)
      if (rel.type == "notesSlide" && !rel.external && pkg.has(rel.target)) {
        pugi::xml_document notes;
        if (!pkg.load(rel.target, &notes)) return false;
        section.notes = notes_text(notes);
        break;
      }
    deck->sections.push_back(std::move(section));
  }
  return true;
}

}  // namespace mcpread::readers::slides
