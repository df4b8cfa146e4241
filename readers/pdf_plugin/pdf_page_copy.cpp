// Copying pages from one QPDF into another without walking the source's page tree.
//
// QPDF::copyForeignObject asks of every object it visits whether it is a page or a /Pages node,
// and qpdf 11 answers that by walking the whole page tree first (getAllPages, which resolves
// every page object: 150 ms for memman.pdf's 615 pages, about 100 MB for 10,000).
// This copier tells pages by their /Type, copies what a page uses, and stops, as qpdf does, at
// other pages and at the page tree, whose references become null.
#include "plugin_internal.hpp"

#include <qpdf/Buffer.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjGen.hh>
#include <qpdf/Pipeline.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QPDFPageObjectHelper.hh>

#include <deque>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace mcpread_pdf {
namespace {

// Direct objects nested deeper than this are refused (a hostile file could nest them to exhaust
// the stack); indirect ones are copied from a queue, not by recursion.
constexpr int kMaxDepth = 256;

bool is_type(QPDFObjectHandle h, const char* type) {
  if (!h.isDictionary()) return false;
  QPDFObjectHandle t = h.getKey("/Type");
  return t.isName() && t.getName() == type;
}

// A node of the page tree other than a page: typed /Pages, or untyped with /Kids and /Count.
bool is_pages_node(QPDFObjectHandle h) {
  return is_type(h, "/Pages") || (h.isDictionary() && h.getKey("/Kids").isArray() && h.getKey("/Count").isInteger());
}

// The stream's stored bytes (decrypted, still filtered) as `local`'s data. With qpdf 10.2 and
// later they are read from the source when the subset is written, as qpdf's own copy does, so
// that a page's scanned image is not held twice; qpdf 10.1 (the portable bundle's) takes them
// now.
template <typename Handle>
auto replace_data(Handle& local, QPDFObjectHandle foreign, const QPDFObjectHandle& filter,
                  const QPDFObjectHandle& parms, int)
    -> decltype(local.replaceStreamData(std::function<bool(Pipeline*, bool, bool)>(), filter, parms)) {
  local.replaceStreamData(std::function<bool(Pipeline*, bool, bool)>(
                              [foreign](Pipeline* pipeline, bool suppress_warnings, bool will_retry) mutable {
                                return foreign.pipeStreamData(pipeline, 0, qpdf_dl_none, suppress_warnings,
                                                              will_retry);
                              }),
                          filter, parms);
}
template <typename Handle>
void replace_data(Handle& local, QPDFObjectHandle foreign, const QPDFObjectHandle& filter,
                  const QPDFObjectHandle& parms, long) {
  local.replaceStreamData(foreign.getRawStreamData(), filter, parms);
}

class Copier {
 public:
  // The pages to copy are known from the start, so that a link from one of them to another
  // (an annotation's destination) leads to that page's copy.
  Copier(QPDF& out, const std::vector<QPDFObjectHandle>& pages) : out_(out) {
    for (const QPDFObjectHandle& page : pages) pages_.insert(page.getObjGen());
  }

  QPDFObjectHandle copy_page(QPDFObjectHandle page) {
    QPDFObjectHandle copy = reference(page);
    while (!queue_.empty()) {
      auto [foreign, local] = queue_.front();
      queue_.pop_front();
      fill(foreign, local);
    }
    return copy;
  }

 private:
  // The local object standing for the foreign indirect object `h`: made (and queued to be
  // filled) on first sight; null for the page tree and for pages not copied.
  QPDFObjectHandle reference(QPDFObjectHandle h) {
    const QPDFObjGen og = h.getObjGen();
    if (const auto it = copied_.find(og); it != copied_.end()) return it->second;
    if (pages_.count(og) == 0 && (is_type(h, "/Page") || is_pages_node(h))) return QPDFObjectHandle::newNull();
    QPDFObjectHandle local = h.isStream() ? QPDFObjectHandle::newStream(&out_)
                                          : out_.makeIndirectObject(QPDFObjectHandle::newNull());
    copied_.emplace(og, local);
    queue_.emplace_back(h, local);
    return local;
  }

  void fill(QPDFObjectHandle foreign, QPDFObjectHandle local) {
    if (!foreign.isStream()) {
      const bool is_page = pages_.count(foreign.getObjGen()) > 0;
      QPDFObjectHandle copy = direct_copy(foreign, 0, is_page);
      if (is_page) inherit(foreign, copy);
      out_.replaceObject(local.getObjGen(), copy);
      return;
    }
    QPDFObjectHandle dict = foreign.getDict();
    replace_data(local, foreign, direct_copy(dict.getKey("/Filter"), 1, false),
                 direct_copy(dict.getKey("/DecodeParms"), 1, false), 0);
    // Bytes already filtered are written as stored: QPDFWriter would otherwise decode and
    // compress again every stream whose data was replaced, which qpdf's own copy does not.
    if (!dict.getKey("/Filter").isNull()) local.setFilterOnWrite(false);
    QPDFObjectHandle local_dict = local.getDict();
    for (const std::string& key : dict.getKeys()) {
      if (key == "/Length" || key == "/Filter" || key == "/DecodeParms") continue;
      local_dict.replaceKey(key, direct_copy(dict.getKey(key), 1, false));
    }
  }

  // The attributes a copied page inherits from the /Pages nodes above it (PDF 32000 7.7.3.4),
  // which the target's tree does not have, given to the copy itself as qpdf's
  // pushInheritedAttributesToPage would, without pushing them into every page of the source.
  void inherit(QPDFObjectHandle page, QPDFObjectHandle copy) {
    for (const char* key : {"/Resources", "/MediaBox", "/CropBox", "/Rotate"}) {
      if (page.hasKey(key)) continue;
      QPDFObjectHandle value = QPDFPageObjectHelper(page).getAttribute(key, false);
      if (!value.isNull()) copy.replaceKey(key, direct_copy(value, 1, false));
    }
  }

  // `h` copied for the target: direct objects rebuilt, indirect ones referenced. A copied
  // page's /Parent is left out; the target's page tree sets its own.
  QPDFObjectHandle direct_copy(QPDFObjectHandle h, int depth, bool is_page) {
    if (depth > kMaxDepth) throw std::runtime_error("objects nested more than 256 deep");
    if (depth > 0 && h.isIndirect()) return reference(h);
    if (h.isArray()) {
      std::vector<QPDFObjectHandle> items;
      for (int i = 0, n = h.getArrayNItems(); i < n; ++i) items.push_back(direct_copy(h.getArrayItem(i), depth + 1, false));
      return QPDFObjectHandle::newArray(items);
    }
    if (h.isDictionary()) {
      std::map<std::string, QPDFObjectHandle> items;
      for (const std::string& key : h.getKeys()) {
        if (is_page && key == "/Parent") continue;
        items.emplace(key, direct_copy(h.getKey(key), depth + 1, false));
      }
      return QPDFObjectHandle::newDictionary(items);
    }
    QPDFObjectHandle scalar = h;  // a number, name, string, boolean or null: shared, made direct
    scalar.makeDirect();
    return scalar;
  }

  QPDF& out_;
  std::set<QPDFObjGen> pages_;
  std::map<QPDFObjGen, QPDFObjectHandle> copied_;
  std::deque<std::pair<QPDFObjectHandle, QPDFObjectHandle>> queue_;
};

}  // namespace

std::vector<QPDFObjectHandle> copy_pages(QPDF& out, const std::vector<QPDFObjectHandle>& pages) {
  std::vector<QPDFObjectHandle> copies;
  copies.reserve(pages.size());
  Copier copier(out, pages);
  for (const QPDFObjectHandle& page : pages) copies.push_back(copier.copy_page(page));
  return copies;
}

}  // namespace mcpread_pdf
