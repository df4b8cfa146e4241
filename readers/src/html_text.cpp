#include "html_text.hpp"

#include "dl_symbol.hpp"
#include "mcpread/readers/utf8.hpp"

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdlib>
#include <mutex>
#include <vector>

namespace mcpread::readers::html_text {
namespace {

// libxml2, loaded on the first HTML output like libvips on the first image: linked, it and the
// ICU libraries it needs would load at every start of the server, for notebooks with HTML only.
struct Api {
  decltype(&::htmlNewParserCtxt) new_context = nullptr;
  decltype(&::htmlCtxtReadMemory) read_memory = nullptr;
  decltype(&::htmlFreeParserCtxt) free_context = nullptr;
  decltype(&::xmlFreeDoc) free_doc = nullptr;
  decltype(&::xmlSetGenericErrorFunc) set_generic_error = nullptr;
  decltype(&::xmlSetStructuredErrorFunc) set_structured_error = nullptr;
  std::string error;  // empty when usable
};

const Api& api() {
  static std::once_flag once;
  static Api a;
  std::call_once(once, [] {
    void* lib = ::dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
      const char* why = ::dlerror();
      a.error = std::string("reading HTML needs libxml2 (Debian package libxml2): ") +
                (why ? why : "libxml2.so.2 cannot be loaded");
      return;
    }
    decltype(&::xmlInitParser) init = nullptr;
    const char* missing = nullptr;
    if (!load_symbol(lib, "htmlNewParserCtxt", &a.new_context)) missing = "htmlNewParserCtxt";
    else if (!load_symbol(lib, "htmlCtxtReadMemory", &a.read_memory)) missing = "htmlCtxtReadMemory";
    else if (!load_symbol(lib, "htmlFreeParserCtxt", &a.free_context)) missing = "htmlFreeParserCtxt";
    else if (!load_symbol(lib, "xmlFreeDoc", &a.free_doc)) missing = "xmlFreeDoc";
    else if (!load_symbol(lib, "xmlSetGenericErrorFunc", &a.set_generic_error)) missing = "xmlSetGenericErrorFunc";
    else if (!load_symbol(lib, "xmlSetStructuredErrorFunc", &a.set_structured_error)) missing = "xmlSetStructuredErrorFunc";
    else if (!load_symbol(lib, "xmlInitParser", &init)) missing = "xmlInitParser";
    if (missing != nullptr) {
      a.error = std::string("reading HTML needs libxml2 (Debian package libxml2): libxml2.so.2 has no ") + missing;
      return;  // the library stays loaded: unloading it is not worth the risk
    }
    init();  // once, before any thread parses (libxml2's own rule)
  });
  return a;
}

void XMLCDECL quiet_generic(void*, const char*, ...) {}
void XMLCALL quiet_structured(void*, xmlErrorPtr) {}

std::string_view name_of(const xmlNode* n) {
  return n->name != nullptr ? std::string_view(reinterpret_cast<const char*>(n->name)) : std::string_view();
}
std::string_view content_of(const xmlNode* n) {
  return n->content != nullptr ? std::string_view(reinterpret_cast<const char*>(n->content)) : std::string_view();
}
bool is_element(const xmlNode* n, std::string_view name) {
  return n->type == XML_ELEMENT_NODE && name_of(n) == name;
}

template <std::size_t N>
bool one_of(std::string_view name, const std::array<std::string_view, N>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Never shown: code, styling, metadata, embedded drawings.
constexpr std::array<std::string_view, 8> kSkipped = {"script", "style", "head", "title", "template",
                                                      "svg", "iframe", "object"};
// Set apart by a blank line.
constexpr std::array<std::string_view, 16> kParagraphs = {
    "p", "blockquote", "figure", "section", "article", "header", "footer", "details",
    "address", "fieldset", "form", "main", "nav", "aside", "dl", "caption"};
// On lines of their own.
constexpr std::array<std::string_view, 9> kLines = {"div", "tr", "dt", "dd", "summary", "figcaption",
                                                   "option", "legend", "center"};

// Inside a word's flow: their ends are no word breaks.
constexpr std::array<std::string_view, 20> kInline = {"a", "b", "i", "em", "strong", "span", "code",
                                                     "sub", "sup", "small", "u", "s", "abbr", "mark",
                                                     "font", "tt", "kbd", "var", "q", "label"};

// Whitespace as HTML collapses it, with no-break spaces read as spaces (they only keep words
// together on a screen).
void append_collapsed(std::string_view text, std::string& out, bool& pending_space) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool nbsp = c == '\xC2' && i + 1 < text.size() && text[i + 1] == '\xA0';
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || nbsp) {
      pending_space = true;
      i += nbsp ? 1 : 0;
      continue;
    }
    if (pending_space && !out.empty() && out.back() != '\n' && out.back() != ' ' && out.back() != '\t') out += ' ';
    pending_space = false;
    out += c;
  }
}

// Visits the nodes under `root` (itself included) in document order without recursion (HTML
// nesting has no limit): enter(n) says whether to go into n's children; leave(n) follows the
// last of them, for each node entered.
template <class Enter, class Leave>
void walk(xmlNode* root, Enter enter, Leave leave) {
  xmlNode* n = root;
  for (;;) {
    const bool descend = enter(n);
    if (descend && n->children != nullptr) {
      n = n->children;
      continue;
    }
    if (descend) leave(n);
    while (n != root && n->next == nullptr) {
      n = n->parent;
      leave(n);
    }
    if (n == root) return;
    n = n->next;
  }
}

// A cell's (or caption's) text on one line.
std::string inline_text(xmlNode* node) {
  std::string out;
  bool space = false;
  walk(
      node,
      [&](xmlNode* n) {
        if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) append_collapsed(content_of(n), out, space);
        if (n->type != XML_ELEMENT_NODE) return false;
        if (name_of(n) == "br") space = true;
        return n == node || !one_of(name_of(n), kSkipped);
      },
      [&](xmlNode* n) {
        if (n != node && !one_of(name_of(n), kInline)) space = true;  // blocks, nested cells: words apart
      });
  return out;
}

unsigned span_of(const xmlNode* cell, const char* attribute, unsigned max) {
  for (const xmlAttr* a = cell->properties; a != nullptr; a = a->next) {
    if (a->name == nullptr || std::string_view(reinterpret_cast<const char*>(a->name)) != attribute) continue;
    if (a->children == nullptr || a->children->content == nullptr) return 1;
    const long v = std::strtol(reinterpret_cast<const char*>(a->children->content), nullptr, 10);
    return v < 1 ? 1u : static_cast<unsigned>(std::min<long>(v, max));
  }
  return 1;
}

constexpr std::size_t kMaxCells = 100000;  // a table's cells beyond this are not laid out

struct Cell {
  std::string text;
  unsigned colspan = 1;
  unsigned rowspan = 1;
  bool header = false;
};
struct Row {
  std::vector<Cell> cells;
  bool head = false;  // in <thead>
};

void add_row(xmlNode* tr, bool head, std::vector<Row>& rows) {
  Row row;
  row.head = head;
  for (xmlNode* c = tr->children; c != nullptr; c = c->next) {
    if (!is_element(c, "td") && !is_element(c, "th")) continue;
    std::string text = inline_text(c);
    for (std::size_t p = 0; (p = text.find('|', p)) != std::string::npos; p += 2) text.insert(p, 1, '\\');
    row.cells.push_back(Cell{std::move(text), span_of(c, "colspan", 1000), span_of(c, "rowspan", 65534),
                             name_of(c) == "th"});
  }
  rows.push_back(std::move(row));
}

std::string table_line(const std::vector<std::string>& cells, std::size_t width) {
  std::string line = "|";
  for (std::size_t j = 0; j < width; ++j) {
    const std::string& c = j < cells.size() ? cells[j] : std::string();
    line += c.empty() ? " |" : " " + c + " |";
  }
  return line + "\n";
}

// The <table> as a Markdown table; false (nothing written) when it has no cell.
bool render_table(xmlNode* table, std::string& out) {
  std::vector<Row> rows;
  std::string caption;
  for (xmlNode* c = table->children; c != nullptr; c = c->next) {
    if (is_element(c, "tr")) add_row(c, false, rows);
    if (is_element(c, "caption")) caption = inline_text(c);
    if (is_element(c, "thead") || is_element(c, "tbody") || is_element(c, "tfoot"))
      for (xmlNode* r = c->children; r != nullptr; r = r->next)
        if (is_element(r, "tr")) add_row(r, name_of(c) == "thead", rows);
  }
  // Lay the cells out on a grid, spans repeated: a model reading a row then sees every value.
  std::vector<std::vector<std::string>> grid;
  std::vector<std::pair<unsigned, std::string>> carried;  // per column: rows left, text
  std::size_t width = 0, cells = 0;
  bool cut = false;
  for (const Row& row : rows) {
    std::vector<std::string> line;
    std::size_t col = 0;
    const auto take_carried = [&] {
      while (col < carried.size() && carried[col].first > 0) {
        line.push_back(carried[col].second);
        --carried[col++].first;
      }
    };
    for (const Cell& cell : row.cells) {
      take_carried();
      for (unsigned k = 0; k < cell.colspan; ++k, ++col) {
        line.push_back(cell.text);
        if (cell.rowspan > 1) {
          if (carried.size() <= col) carried.resize(col + 1);
          carried[col] = {cell.rowspan - 1, cell.text};
        }
      }
    }
    for (; col < carried.size(); ++col) {
      line.push_back(carried[col].first > 0 ? carried[col].second : std::string());
      if (carried[col].first > 0) --carried[col].first;
    }
    cells += line.size();
    if (cells > kMaxCells) {
      cut = true;
      break;
    }
    width = std::max(width, line.size());
    grid.push_back(std::move(line));
  }
  if (width == 0) return false;

  // The header: the <thead> rows, or a first row of <th> only, merged per column.
  std::size_t head_rows = 0;
  while (head_rows < rows.size() && head_rows < grid.size() && rows[head_rows].head) ++head_rows;
  if (head_rows == 0 && !rows.empty() && !rows[0].cells.empty() &&
      std::all_of(rows[0].cells.begin(), rows[0].cells.end(), [](const Cell& c) { return c.header; }))
    head_rows = 1;
  std::vector<std::string> header(width);
  for (std::size_t j = 0; j < width; ++j) {
    std::string last;
    for (std::size_t i = 0; i < head_rows; ++i) {
      const std::string& t = j < grid[i].size() ? grid[i][j] : std::string();
      if (t.empty() || t == last) continue;
      header[j] += (header[j].empty() ? "" : " ") + t;
      last = t;
    }
  }
  if (!caption.empty()) out += caption + "\n\n";
  out += table_line(header, width);
  out += "|";
  for (std::size_t j = 0; j < width; ++j) out += " --- |";
  out += "\n";
  for (std::size_t i = head_rows; i < grid.size(); ++i) out += table_line(grid[i], width);
  if (cut) out += "[The table has more than " + std::to_string(kMaxCells) + " cells; the rest are not shown.]\n";
  out += "\n";
  return true;
}

// Blank-line runs collapsed to one, trailing blanks removed from each line, blank lines removed
// at both ends.
std::string tidy_lines(std::string_view in) {
  std::string out;
  std::size_t blank_run = 0;
  for (std::size_t pos = 0; pos <= in.size();) {
    std::size_t end = in.find('\n', pos);
    if (end == std::string_view::npos) end = in.size();
    std::string_view line = in.substr(pos, end - pos);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    if (line.empty()) {
      ++blank_run;
    } else {
      if (!out.empty()) out += blank_run > 0 ? "\n\n" : "\n";
      out += line;
      blank_run = 0;
    }
    pos = end + 1;
  }
  return out;
}

// The document's flow of text, as plain text with Markdown tables.
class Flow {
 public:
  std::size_t tables = 0;

  bool enter(xmlNode* n) {
    if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) {
      if (pre_ > 0) {
        flush_space();
        for (char c : content_of(n))
          if (c != '\r') out_ += c;
      } else {
        append_collapsed(content_of(n), out_, space_);
      }
      return false;
    }
    if (n->type != XML_ELEMENT_NODE) return n->type == XML_DOCUMENT_NODE || n->type == XML_HTML_DOCUMENT_NODE;
    const std::string_view name = name_of(n);
    if (one_of(name, kSkipped)) return false;
    if (name == "table") {
      paragraph();
      if (render_table(n, out_)) {
        ++tables;
        return false;
      }
    } else if (name == "br") {
      line_break();
    } else if (name == "hr") {
      paragraph();
    } else if (name == "pre") {
      paragraph();
      ++pre_;
    } else if (name.size() == 2 && name[0] == 'h' && name[1] >= '1' && name[1] <= '6') {
      paragraph();
      out_ += std::string(static_cast<std::size_t>(name[1] - '0'), '#') + " ";
    } else if (name == "ul" || name == "ol") {
      if (lists_.empty()) paragraph();
      else block();
      lists_.push_back(name == "ol" ? 1 : 0);
    } else if (name == "li") {
      block();
      out_ += std::string(2 * (lists_.empty() ? 0 : lists_.size() - 1), ' ');
      if (!lists_.empty() && lists_.back() > 0) out_ += std::to_string(lists_.back()++) + ". ";
      else out_ += "- ";
    } else if (one_of(name, kParagraphs)) {
      paragraph();
    } else if (one_of(name, kLines)) {
      block();
    }
    return true;
  }

  void leave(xmlNode* n) {
    if (n->type != XML_ELEMENT_NODE) return;
    const std::string_view name = name_of(n);
    if (name == "pre") {
      pre_ = std::max(0, pre_ - 1);
      paragraph();
    } else if (name == "ul" || name == "ol") {
      if (!lists_.empty()) lists_.pop_back();
      if (lists_.empty()) paragraph();
      else block();
    } else if (name == "td" || name == "th") {  // cells of a table that made no Markdown table
      out_ += '\t';
      space_ = false;
    } else if (name == "table" || one_of(name, kParagraphs) || (name.size() == 2 && name[0] == 'h' && name[1] >= '1' && name[1] <= '6')) {
      paragraph();
    } else if (name == "li" || one_of(name, kLines)) {
      block();
    }
  }

  std::string finish() const { return tidy_lines(out_); }

 private:
  void flush_space() {
    if (space_ && !out_.empty() && out_.back() != '\n' && out_.back() != ' ' && out_.back() != '\t') out_ += ' ';
    space_ = false;
  }
  void trim_end() {
    while (!out_.empty() && (out_.back() == ' ' || out_.back() == '\t')) out_.pop_back();
    space_ = false;
  }
  void line_break() {
    trim_end();
    out_ += '\n';
  }
  void block() {
    trim_end();
    if (!out_.empty() && out_.back() != '\n') out_ += '\n';
  }
  void paragraph() {
    block();
    if (!out_.empty() && !out_.ends_with("\n\n")) out_ += '\n';
  }

  std::string out_;
  bool space_ = false;
  int pre_ = 0;
  std::vector<int> lists_;  // open lists: 0 for <ul>, the next number for <ol>
};

}  // namespace

Text to_text(std::string_view html) {
  Text result;
  const Api& a = api();
  if (!a.error.empty()) {
    result.error = a.error;
    return result;
  }
  if (html.size() > static_cast<std::size_t>(INT_MAX)) {
    result.error = "the HTML is larger than libxml2 parses at once";
    return result;
  }
  // Errors go nowhere: the parser recovers as browsers do, and stderr is the server's log. The
  // handlers are per thread in libxml2, hence set on each call.
  a.set_generic_error(nullptr, quiet_generic);
  a.set_structured_error(nullptr, quiet_structured);
  htmlParserCtxtPtr context = a.new_context();
  if (context == nullptr) {
    result.error = "libxml2 could not start a parser (out of memory)";
    return result;
  }
  htmlDocPtr doc = a.read_memory(context, html.data(), static_cast<int>(html.size()), nullptr, "UTF-8",
                                 HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                                     HTML_PARSE_NONET | HTML_PARSE_IGNORE_ENC | HTML_PARSE_NODEFDTD);
  // Recovery goes on past broken markup; only a fatal error (elements nested deeper than
  // libxml2's limit of 256 levels, out of memory) stops the parser, leaving the rest unread.
  const bool stopped = context->disableSAX != 0;
  std::string why = context->lastError.message != nullptr ? context->lastError.message : "";
  while (!why.empty() && (why.back() == '\n' || why.back() == ' ' || why.back() == '.')) why.pop_back();
  a.free_context(context);
  if (doc == nullptr) return result;  // nothing parsed: the HTML holds no text
  Flow flow;
  walk(reinterpret_cast<xmlNode*>(doc), [&](xmlNode* n) { return flow.enter(n); },
       [&](xmlNode* n) { flow.leave(n); });
  a.free_doc(doc);
  result.text = flow.finish();
  if (stopped)
    result.text += std::string(result.text.empty() ? "" : "\n") +
                   "[The rest of this HTML is not shown: libxml2 stopped reading it (" +
                   (why.empty() ? std::string("no reason given") : why) + ").]";
  result.tables = flow.tables;
  if (!utf8::is_valid(result.text)) result.text = utf8::sanitized(result.text);
  return result;
}

}  // namespace mcpread::readers::html_text
