#include "sheets/xml_stream.hpp"

#include "libxml2_api.hpp"
#include "mcpread/readers/utf8.hpp"

#include <climits>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace mcpread::readers::sheets {
namespace {

using libxml2::Api;

const Api* load_api(std::string* error) { return libxml2::api("reading spreadsheets", error); }

// Only called once a stream exists, that is once load_api() succeeded.
const Api& api() { return *load_api(nullptr); }

void XMLCDECL quiet_generic(void*, const char*, ...) {}

std::string_view sv(const xmlChar* s) { return s == nullptr ? std::string_view() : reinterpret_cast<const char*>(s); }

// `value` with each "&#38;" as "&" (see on_start).
std::string ampersands(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (std::size_t at = 0;;) {
    const std::size_t ref = value.find("&#38;", at);
    out.append(value.substr(at, ref - at));
    if (ref == std::string_view::npos) return out;
    out += '&';
    at = ref + 5;
  }
}

}  // namespace

struct XmlStream::Impl {
  XmlHandler* handler = nullptr;
  XmlStream* owner = nullptr;
  xmlParserCtxtPtr context = nullptr;
  xmlSAXHandler sax{};
  std::string part;
  std::string first_error;
  int depth = 0;
  XmlAttrs attrs;
  std::vector<std::string> decoded;  // attribute values unescaped for the element being started

  void fail(std::string why) {
    if (first_error.empty()) first_error = std::move(why);
    api().stop(context);
  }

  static Impl* of(void* ctx) { return static_cast<Impl*>(ctx); }

  static void on_start(void* ctx, const xmlChar* local, const xmlChar*, const xmlChar*, int, const xmlChar**,
                       int nb_attributes, int, const xmlChar** attributes) {
    Impl* self = of(ctx);
    if (self->owner->stopped_) return;
    if (++self->depth > kMaxNesting) {
      self->fail("\"" + self->part + "\" is nested more than " + std::to_string(kMaxNesting) + " elements deep");
      return;
    }
    self->attrs.items.clear();
    self->decoded.clear();
    self->decoded.reserve(static_cast<std::size_t>(nb_attributes));  // views into it stay put
    for (int i = 0; i < nb_attributes; ++i) {
      const xmlChar** a = attributes + 5 * i;  // local name, prefix, URI, value start, value end
      std::string_view value(reinterpret_cast<const char*>(a[3]), static_cast<std::size_t>(a[4] - a[3]));
      // Without entity substitution (never asked for: no entity tricks) libxml2 leaves every "&"
      // of an attribute value, written &amp; or &#38;, as the text "&#38;"; the value is "&".
      if (value.find("&#38;") != std::string_view::npos) value = self->decoded.emplace_back(ampersands(value));
      self->attrs.items.emplace_back(sv(a[0]), value);
    }
    self->handler->start(sv(local), self->attrs);
  }
  static void on_end(void* ctx, const xmlChar* local, const xmlChar*, const xmlChar*) {
    Impl* self = of(ctx);
    --self->depth;
    if (!self->owner->stopped_) self->handler->end(sv(local));
  }
  static void on_text(void* ctx, const xmlChar* ch, int len) {
    Impl* self = of(ctx);
    if (!self->owner->stopped_ && len > 0)
      self->handler->text(std::string_view(reinterpret_cast<const char*>(ch), static_cast<std::size_t>(len)));
  }
  static void on_doctype(void* ctx, const xmlChar*, const xmlChar*, const xmlChar*) {
    Impl* self = of(ctx);
    self->fail("\"" + self->part + "\" declares a DTD, which office documents never do (entity tricks?)");
  }
  static void on_error(void* ctx, xmlErrorPtr e) {
    Impl* self = of(ctx);
    if (e == nullptr || e->level < XML_ERR_ERROR || !self->first_error.empty()) return;
    std::string why = e->message != nullptr ? e->message : "no reason given";
    while (!why.empty() && (why.back() == '\n' || why.back() == ' ' || why.back() == '.')) why.pop_back();
    for (char& c : why)
      if (c == '\n') c = ' ';
    self->first_error = "\"" + self->part + "\" is not well-formed XML (" + utf8::sanitized(why) + " at line " +
                        std::to_string(e->line) + ")";
  }
};

XmlStream::XmlStream(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

XmlStream::~XmlStream() {
  if (impl_ && impl_->context != nullptr) api().free_context(impl_->context);
}

std::unique_ptr<XmlStream> XmlStream::create(XmlHandler& handler, std::string_view part, std::string* error) {
  const Api* loaded = load_api(error);
  if (loaded == nullptr) return nullptr;
  const Api& a = *loaded;
  a.set_generic_error(nullptr, quiet_generic);  // per thread in libxml2; the server's stderr is its log
  auto impl = std::make_unique<Impl>();
  impl->handler = &handler;
  impl->part = std::string(part);
  // Only these events: no entity declarations are kept and none is looked up, so `&name;` never
  // expands (an undeclared one is an error that stops the parser).
  impl->sax.initialized = XML_SAX2_MAGIC;
  impl->sax.startElementNs = &Impl::on_start;
  impl->sax.endElementNs = &Impl::on_end;
  impl->sax.characters = &Impl::on_text;
  impl->sax.cdataBlock = &Impl::on_text;
  impl->sax.internalSubset = &Impl::on_doctype;
  impl->sax.serror = &Impl::on_error;
  Impl* raw = impl.get();
  std::unique_ptr<XmlStream> stream(new XmlStream(std::move(impl)));
  raw->owner = stream.get();
  raw->context = a.create_push(&raw->sax, raw, nullptr, 0, nullptr);
  if (raw->context == nullptr) {
    *error = "libxml2 could not start a parser (out of memory)";
    return nullptr;
  }
  a.use_options(raw->context, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  return stream;
}

bool XmlStream::feed(std::string_view chunk, bool last) {
  if (stopped_ || !error_.empty()) return false;
  while (!chunk.empty() || last) {
    const std::size_t take = std::min<std::size_t>(chunk.size(), 1 << 20);
    const bool end = last && take == chunk.size();
    const int rc = api().parse_chunk(impl_->context, chunk.data(), static_cast<int>(take), end ? 1 : 0);
    chunk.remove_prefix(take);
    if (stopped_) return false;
    if (!impl_->first_error.empty() || rc != 0) {
      error_ = !impl_->first_error.empty() ? impl_->first_error
                                          : "\"" + impl_->part + "\" is not well-formed XML (libxml2 error " +
                                                std::to_string(rc) + ")";
      return false;
    }
    if (end) break;
  }
  return true;
}

void XmlStream::stop() {
  if (stopped_) return;
  stopped_ = true;
  api().stop(impl_->context);
}

}  // namespace mcpread::readers::sheets
