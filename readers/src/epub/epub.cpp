// An EPUB book: META-INF/container.xml names the package document (OPF), whose manifest and spine
// give the chapters in reading order; each chapter's XHTML becomes text through the HTML reader's
// conversion, titled from the table of contents (EPUB 3 nav document or EPUB 2 NCX). A book whose
// META-INF/encryption.xml lists encrypted resources other than obfuscated fonts is DRM-protected
// and refused as such.
#include "epub/epub.hpp"

#include "html/html_text.hpp"
#include "mcpread/common/percent.hpp"
#include "package/parts.hpp"

#include <map>
#include <set>

namespace mcpread::readers::epub {
namespace {

using package::xml::attr;
using package::xml::child;
using package::xml::is;
using pugi::xml_node;

// The two font obfuscation algorithms (IDPF and Adobe): fonts so marked are no DRM.
bool font_obfuscation(std::string_view algorithm) {
  return algorithm == "http://www.idpf.org/2008/embedding" || algorithm == "http://ns.adobe.com/pdf/enc#RC";
}

// "%20" and the other escapes of an href decoded; the fragment ("#id") dropped.
std::string href_path(std::string_view href) {
  return *common::percent_decode(href.substr(0, href.find('#')), common::PercentMode::href);  // never nullopt
}

// Sentences for a refusal: the DRM check of META-INF/encryption.xml.
bool check_encryption(package::Parts& pkg, std::string* error) {
  if (!pkg.has("META-INF/encryption.xml")) return true;
  pugi::xml_document d;
  if (!pkg.load("META-INF/encryption.xml", &d)) return false;
  std::size_t encrypted = 0;
  std::string first;
  for (xml_node data : child(d, "encryption").children()) {
    if (!is(data, "EncryptedData")) continue;
    if (font_obfuscation(attr(child(data, "EncryptionMethod"), "Algorithm"))) continue;
    ++encrypted;
    if (first.empty()) first = attr(child(child(data, "CipherData"), "CipherReference"), "URI");
  }
  if (encrypted == 0) return true;
  *error = "it is DRM-protected (encrypted): META-INF/encryption.xml lists " + std::to_string(encrypted) +
           (encrypted == 1 ? " encrypted resource" : " encrypted resources") +
           (first.empty() ? std::string() : " (\"" + first + "\" first)") + ", which cannot be read without the key";
  return false;
}

// Chapter titles from the table of contents: a title per file (the first entry naming it).
class Toc {
 public:
  explicit Toc(package::Parts& pkg) : pkg_(pkg) {}

  // EPUB 3's nav document: <nav epub:type="toc"> with lists of links.
  void nav(const std::string& part) {
    pugi::xml_document d;
    std::string ignored;
    auto bytes = pkg_.zip().read(part, &ignored);
    if (!bytes || !package::xml::parse(std::move(*bytes), part, &d, &ignored)) return;  // titles are a nicety
    const std::string folder = package::folder_of(part);
    xml_node toc;
    for (const pugi::xpath_node& x : d.select_nodes("//*[local-name()='nav']"))
      if (attr(x.node(), "type") == "toc" || !toc) toc = x.node();
    if (!toc) return;
    for (const pugi::xpath_node& x : toc.select_nodes(".//*[local-name()='a']")) {
      const std::string target = package::resolve_part(folder, href_path(attr(x.node(), "href")));
      const std::string label = sections::one_line(text_of(x.node()));
      if (!target.empty() && !label.empty()) titles_.emplace(target, label);
    }
  }

  // EPUB 2's NCX: navPoint elements with a label and a content src, in document order.
  void ncx(const std::string& part) {
    pugi::xml_document d;
    std::string ignored;
    auto bytes = pkg_.zip().read(part, &ignored);
    if (!bytes || !package::xml::parse(std::move(*bytes), part, &d, &ignored)) return;
    const std::string folder = package::folder_of(part);
    for (const pugi::xpath_node& x : d.select_nodes("//*[local-name()='navPoint']")) {
      const xml_node point = x.node();
      const std::string target = package::resolve_part(folder, href_path(attr(child(point, "content"), "src")));
      const std::string label = sections::one_line(text_of(child(child(point, "navLabel"), "text")));
      if (!target.empty() && !label.empty()) titles_.emplace(target, label);
    }
  }

  std::string title(const std::string& part) const {
    const auto it = titles_.find(part);
    return it == titles_.end() ? std::string() : it->second;
  }

 private:
  static std::string text_of(xml_node n) {
    std::string out;
    for (const pugi::xpath_node& t : n.select_nodes(".//text()")) out += t.node().value();
    return out;
  }

  package::Parts& pkg_;
  std::map<std::string, std::string> titles_;
};

struct Item {
  std::string href;  // package path, empty when it points outside the package
  std::string raw;   // as written
  std::string media_type;
  std::string properties;
};

}  // namespace

bool read_epub(package::ZipArchive& zip, sections::Deck* deck, std::string* error) {
  package::Parts pkg(zip, *error);
  deck->noun = "EPUB book";
  deck->unit = "chapter";
  if (!check_encryption(pkg, error)) return false;
  if (!pkg.has("META-INF/container.xml")) {
    *error = "its package has no \"META-INF/container.xml\" (which names the book's package document)";
    return false;
  }
  pugi::xml_document container;
  if (!pkg.load("META-INF/container.xml", &container)) return false;
  std::string opf;
  for (xml_node r : child(child(container, "container"), "rootfiles").children()) {
    if (!is(r, "rootfile")) continue;
    const std::string_view full = attr(r, "full-path");
    opf = package::resolve_part("", href_path(full));
    if (opf.empty()) {
      *error = "META-INF/container.xml names \"" + std::string(full) + "\", which points outside the package";
      return false;
    }
    break;
  }
  if (opf.empty() || !pkg.has(opf)) {
    *error = opf.empty() ? std::string("META-INF/container.xml names no package document")
                         : "its package has no \"" + opf + "\" (the package document META-INF/container.xml names)";
    return false;
  }
  pugi::xml_document package;
  if (!pkg.load(opf, &package)) return false;
  const xml_node root = child(package, "package");
  const std::string folder = package::folder_of(opf);

  // Title and authors, from the OPF metadata.
  const xml_node metadata = child(root, "metadata");
  std::string title, authors;
  for (xml_node m : metadata.children()) {
    if (is(m, "title") && title.empty()) title = sections::one_line(m.text().get());
    if (is(m, "creator")) {
      const std::string who = sections::one_line(m.text().get());
      if (!who.empty()) authors += (authors.empty() ? "" : ", ") + who;
    }
  }
  if (!title.empty()) deck->preamble += "Title: " + title;
  if (!authors.empty()) deck->preamble += std::string(deck->preamble.empty() ? "" : "\n") + "Author: " + authors;

  std::map<std::string, Item> manifest;
  for (xml_node i : child(root, "manifest").children()) {
    if (!is(i, "item")) continue;
    Item item;
    item.raw = attr(i, "href");
    item.href = package::resolve_part(folder, href_path(item.raw));
    item.media_type = attr(i, "media-type");
    item.properties = attr(i, "properties");
    manifest.emplace(std::string(attr(i, "id")), std::move(item));
  }
  Toc toc(pkg);
  const xml_node spine = child(root, "spine");
  for (const auto& [id, item] : manifest)
    if (item.properties.find("nav") != std::string::npos && !item.href.empty()) toc.nav(item.href);
  if (const auto it = manifest.find(std::string(attr(spine, "toc"))); it != manifest.end() && !it->second.href.empty())
    toc.ncx(it->second.href);

  std::set<std::string> seen;
  std::size_t images = 0;
  for (xml_node ref : spine.children()) {
    if (!is(ref, "itemref")) continue;
    if (deck->sections.size() >= sections::kMaxSections) {
      *error = "its spine lists more than " + std::to_string(sections::kMaxSections) + " chapters";
      return false;
    }
    const std::string idref(attr(ref, "idref"));
    const auto it = manifest.find(idref);
    sections::Section section;
    if (it == manifest.end()) {
      section.text = "[The spine names \"" + idref + "\", which the manifest lacks.]";
      deck->sections.push_back(std::move(section));
      continue;
    }
    const Item& item = it->second;
    if (item.href.empty()) {
      *error = "its spine names \"" + item.raw + "\", which points outside the package; such a file is refused";
      return false;
    }
    if (!seen.insert(item.href).second) continue;  // listed twice: read once
    section.title = toc.title(item.href);
    if (!pkg.has(item.href)) {
      section.text = "[\"" + item.href + "\" is missing from the package.]";
      deck->sections.push_back(std::move(section));
      continue;
    }
    auto bytes = zip.read(item.href, error);
    if (!bytes) return false;
    html_text::ImageRefs refs;
    refs.first_number = images + 1;
    const html_text::Text text = html_text::to_text(*bytes, false, &refs);
    if (!text.error.empty()) {
      *error = text.error;
      return false;
    }
    section.text = text.text;
    const std::string chapter_folder = package::folder_of(item.href);
    for (const std::string& src : refs.sources) {
      const std::string part = package::resolve_part(chapter_folder, href_path(src));
      if (!part.empty()) section.images.push_back(part);
    }
    images += refs.sources.size();
    if (section.title.empty() && section.text.starts_with('#')) {
      const std::string first = section.text.substr(0, section.text.find('\n'));
      section.title = first.substr(std::min(first.find_first_not_of('#'), first.size()));
      section.title = sections::one_line(section.title);
    }
    deck->sections.push_back(std::move(section));
  }
  return true;
}

}  // namespace mcpread::readers::epub
