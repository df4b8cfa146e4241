#include "html_text.hpp"

#include "html_dom.hpp"
#include "libxml2_api.hpp"
#include "mcpread/readers/utf8.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdlib>
#include <vector>

namespace mcpread::readers::html_text {
namespace {

using namespace dom;

using libxml2::Api;

void XMLCDECL quiet_generic(void*, const char*, ...) {}
void XMLCALL quiet_structured(void*, xmlErrorPtr) {}

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
  Flow(bool links, ImageRefs* images) : links_(links), images_(images) {}
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
    if (images_ != nullptr && (name == "img" || name == "svg")) {
      image(n);
      return false;
    }
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
    } else if (name == "a" && links_ && pre_ == 0) {
      const std::string_view href = attribute(n, "href");
      if (!href.empty() && !href.starts_with('#') && !href.starts_with("javascript:")) {
        flush_space();
        links_open_.push_back({n, out_.size(), std::string(href)});
      }
    }
    return true;
  }

  void leave(xmlNode* n) {
    if (n->type != XML_ELEMENT_NODE) return;
    const std::string_view name = name_of(n);
    if (!links_open_.empty() && links_open_.back().node == n) {
      close_link();
      return;
    }
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

  // An attribute's value, read from the tree itself (libxml2 stores it as the attribute's text).
  static std::string_view attribute(const xmlNode* n, std::string_view name) {
    for (const xmlAttr* a = n->properties; a != nullptr; a = a->next)
      if (a->name != nullptr && std::string_view(reinterpret_cast<const char*>(a->name)) == name)
        return a->children != nullptr ? content_of(a->children) : std::string_view();
    return {};
  }
  // An <img>, or the <image> elements of an <svg> (e-book covers), as "[Image N: alt]".
  void image(xmlNode* n) {
    std::vector<std::pair<std::string_view, std::string_view>> found;  // src, alt
    if (name_of(n) == "img") {
      found.emplace_back(attribute(n, "src"), attribute(n, "alt"));
    } else {
      walk(n, [&](xmlNode* c) {
        if (c->type == XML_ELEMENT_NODE && name_of(c) == "image") {
          const std::string_view href = attribute(c, "href");
          found.emplace_back(href.empty() ? attribute(c, "xlink:href") : href, std::string_view());
        }
        return c->type == XML_ELEMENT_NODE;
      }, [](xmlNode*) {});
    }
    for (const auto& [src, alt] : found) {
      if (src.empty()) continue;
      images_->sources.emplace_back(src);
      flush_space();
      std::string text = "[Image " + std::to_string(images_->first_number + images_->sources.size() - 1);
      bool space = false;
      std::string label;
      append_collapsed(alt, label, space);
      out_ += text + (label.empty() ? "" : ": " + label) + "]";
    }
  }
  // The text since the link opened becomes [text](href) when it is one line of words.
  void close_link() {
    const OpenLink link = std::move(links_open_.back());
    links_open_.pop_back();
    std::string text = out_.substr(std::min(link.start, out_.size()));
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.pop_back();
    if (text.empty() || text.find('\n') != std::string::npos || text.find('|') != std::string::npos) return;
    out_.resize(link.start);
    out_ += "[" + text + "](" + link.href + ")";
  }
  struct OpenLink {
    const xmlNode* node;
    std::size_t start;
    std::string href;
  };

  bool links_ = false;
  ImageRefs* images_ = nullptr;
  std::vector<OpenLink> links_open_;
  std::string out_;
  bool space_ = false;
  int pre_ = 0;
  std::vector<int> lists_;  // open lists: 0 for <ul>, the next number for <ol>
};

}  // namespace

Text to_text(std::string_view html, bool links, ImageRefs* images) {
  Text result;
  const Api* loaded = libxml2::api("reading HTML", &result.error);
  if (loaded == nullptr) return result;
  const Api& a = *loaded;
  if (html.size() > static_cast<std::size_t>(INT_MAX)) {
    result.error = "the HTML is larger than libxml2 parses at once";
    return result;
  }
  // Errors go nowhere: the parser recovers as browsers do, and stderr is the server's log. The
  // handlers are per thread in libxml2, hence set on each call.
  a.set_generic_error(nullptr, quiet_generic);
  a.set_structured_error(nullptr, quiet_structured);
  htmlParserCtxtPtr context = a.html_new_context();
  if (context == nullptr) {
    result.error = "libxml2 could not start a parser (out of memory)";
    return result;
  }
  htmlDocPtr doc = a.html_read_memory(context, html.data(), static_cast<int>(html.size()), nullptr, "UTF-8",
                                 HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                                     HTML_PARSE_NONET | HTML_PARSE_IGNORE_ENC | HTML_PARSE_NODEFDTD);
  // Recovery goes on past broken markup; only a fatal error (elements nested deeper than
  // libxml2's limit of 256 levels, out of memory) stops the parser, leaving the rest unread.
  const bool stopped = context->disableSAX != 0;
  std::string why = context->lastError.message != nullptr ? context->lastError.message : "";
  while (!why.empty() && (why.back() == '\n' || why.back() == ' ' || why.back() == '.')) why.pop_back();
  a.html_free_context(context);
  if (doc == nullptr) return result;  // nothing parsed: the HTML holds no text
  Flow flow(links, images);
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
