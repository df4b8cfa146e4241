// See pdf_text_session.hpp.
#include "pdf_text_session.hpp"

#if defined(MCPREAD_POPPLER_CORE)
#include <poppler/Annot.h>
#include <poppler/Dict.h>
#include <poppler/Gfx.h>
#include <poppler/Object.h>
#include <poppler/PDFDoc.h>
#include <poppler/Page.h>
#include <poppler/Stream.h>
#include <poppler/TextOutputDev.h>

#include <map>
#include <utility>
#include <vector>
#endif

namespace mcpread_pdf {

#if defined(MCPREAD_POPPLER_CORE)

namespace {

constexpr double kDpi = 72;  // as page::text draws
// Levels of fonts added to a run before it starts afresh (a font's lookup walks them).
constexpr std::size_t kMaxFontLevels = 64;

// The page's fonts by resource name; false when one is not an indirect reference (a font
// written inside the resources has no identity across pages) or the resources are missing.
bool page_fonts(Page& page, std::map<std::string, Ref>* fonts) {
  Dict* resources = page.getResourceDict();
  if (resources == nullptr) return false;
  const Object font = resources->lookup("Font");
  if (font.isNull()) return true;
  if (!font.isDict()) return false;
  Dict* dict = font.getDict();
  for (int i = 0; i < dict->getLength(); ++i) {
    const Object& value = dict->getValNF(i);
    if (!value.isRef()) return false;
    (*fonts)[dict->getKey(i)] = value.getRef();
  }
  return true;
}

// poppler's text output device, told that it fills shadings itself (doing nothing): poppler
// otherwise cuts every shading into hundreds of small paths for it to ignore (a page with a
// radial shading spent most of its time there). A shading draws no text.
class TextOnlyOutputDev : public TextOutputDev {
 public:
  using TextOutputDev::TextOutputDev;
  bool useShadedFills(int) override { return true; }
  bool functionShadedFill(GfxState*, GfxFunctionShading*) override { return true; }
  bool axialShadedFill(GfxState*, GfxAxialShading*, double, double) override { return true; }
  bool radialShadedFill(GfxState*, GfxRadialShading*, double, double) override { return true; }
  bool gouraudTriangleShadedFill(GfxState*, GfxGouraudTriangleShading*) override { return true; }
  bool patchMeshShadedFill(GfxState*, GfxPatchMeshShading*) override { return true; }
};

bool same_box(const PDFRectangle& a, const PDFRectangle& b) {
  return a.x1 == b.x1 && a.y1 == b.y1 && a.x2 == b.x2 && a.y2 == b.y2;
}

}  // namespace

class TextSession {
 public:
  TextSession(const char* data, std::size_t size, const std::string& password) {
    auto* stream = new MemStream(data, 0, static_cast<Goffset>(size), Object(objNull));
    doc_ = std::make_unique<PDFDoc>(stream, GooString(password.c_str()), GooString(password.c_str()));
  }

  ~TextSession() { end_run(); }

  bool ok() const { return doc_->isOk(); }

  bool text(int k, std::string* out) {
    Page* page = doc_->getPage(k);
    if (page == nullptr) return false;
    std::map<std::string, Ref> fonts;
    if (!page_fonts(*page, &fonts)) {
      end_run();
      return draw_alone(k, out);
    }
    switch (fits_run(*page, fonts)) {
      case Fit::no:
        start_run(*page, k, fonts);
        break;
      case Fit::with_new_fonts:
        add_fonts(fonts);
        [[fallthrough]];
      case Fit::yes:
        out_->startPage(k, gfx_->getState(), doc_->getXRef());
        break;
    }
    draw(*page, out);
    return true;
  }

 private:
  enum class Fit { no, yes, with_new_fonts };

  // Whether the current Gfx can draw the page: the same box and turn, and no font name of the
  // page naming another font than the run has under it. Names the run has not seen yet are
  // added to it (add_fonts), unless it has taken many already.
  Fit fits_run(Page& page, const std::map<std::string, Ref>& fonts) const {
    if (!gfx_ || page.getRotate() != rotate_ || !same_box(*page.getCropBox(), box_)) return Fit::no;
    bool new_names = false;
    for (const auto& [name, ref] : fonts) {
      const auto it = fonts_.find(name);
      if (it == fonts_.end()) new_names = true;
      else if (it->second != ref) return Fit::no;
    }
    if (!new_names) return Fit::yes;
    return font_levels_.size() < kMaxFontLevels ? Fit::with_new_fonts : Fit::no;
  }

  // A resource dictionary holding these fonts only.
  Object font_resources(const std::map<std::string, Ref>& fonts) {
    XRef* xref = doc_->getXRef();
    auto* font_dict = new Dict(xref);
    for (const auto& [name, ref] : fonts) font_dict->add(name.c_str(), Object(ref));
    auto* resources = new Dict(xref);
    resources->add("Font", Object(font_dict));
    return Object(resources);
  }

  // The page's fonts the run lacks, made once, on a resource level of their own under the
  // pages' levels: the fonts made before stay (a new Gfx would make them all again).
  void add_fonts(const std::map<std::string, Ref>& fonts) {
    std::map<std::string, Ref> added;
    for (const auto& [name, ref] : fonts) {
      if (fonts_.emplace(name, ref).second) added.emplace(name, ref);
    }
    font_levels_.push_back(font_resources(added));
    gfx_->pushResources(font_levels_.back().getDict());
  }

  // A new Gfx for `page` (whose drawing it starts), with the page's fonts.
  void start_run(Page& page, int k, const std::map<std::string, Ref>& fonts) {
    end_run();
    fonts_ = fonts;
    resources_ = font_resources(fonts_);
    out_ = std::make_unique<TextOnlyOutputDev>(&TextSession::append, this, true, 0, false, false);
    box_ = *page.getCropBox();
    rotate_ = page.getRotate();
    // As Page::createGfx and page::text: the crop box at 72 dpi, clipped to it, turned as the
    // page says.
    PDFRectangle box;
    bool crop = true;
    page.makeBox(kDpi, kDpi, rotate_, false, out_->upsideDown(), -1, -1, -1, -1, &box, &crop);
    gfx_ = std::make_unique<Gfx>(doc_.get(), out_.get(), k, resources_.getDict(), kDpi, kDpi, &box,
                                 crop ? page.getCropBox() : nullptr, rotate_, nullptr, nullptr, doc_->getXRef());
  }

  // Draws the started page as Page::displaySlice does: its content with its own resources
  // (its fonts being the run's), then its annotations.
  void draw(Page& page, std::string* out) {
    Object own;
    if (Dict* resources = page.getResourceDict()) {
      Dict* copy = resources->copy(doc_->getXRef());
      copy->remove("Font");
      own = Object(copy);
      gfx_->pushResources(own.getDict());
    }
    Object contents = page.getContents();
    if (!contents.isNull()) {
      gfx_->saveState();
      gfx_->display(&contents);
      gfx_->restoreState();
    }
    for (Annot* annot : page.getAnnots()->getAnnots()) annot->draw(gfx_.get(), false);
    if (own.isDict()) gfx_->popResources();
    sink_ = out;
    out_->endPage();
    sink_ = nullptr;
  }

  // A page whose fonts cannot be shared, drawn on its own as page::text draws it.
  bool draw_alone(int k, std::string* out) {
    TextOnlyOutputDev alone(&TextSession::append, this, true, 0, false, false);
    sink_ = out;
    doc_->displayPage(&alone, k, kDpi, kDpi, 0, false, true, false);
    sink_ = nullptr;
    return true;
  }

  // The Gfx ends its page when destroyed; that text was taken already and goes nowhere.
  void end_run() {
    gfx_.reset();
    out_.reset();
    font_levels_.clear();
    resources_ = Object();
    fonts_.clear();
  }

  static void append(void* stream, const char* text, int len) {
    auto* self = static_cast<TextSession*>(stream);
    if (self->sink_ != nullptr && len > 0) self->sink_->append(text, static_cast<std::size_t>(len));
  }

  std::unique_ptr<PDFDoc> doc_;
  std::unique_ptr<TextOnlyOutputDev> out_;
  Object resources_;                 // the run's first fonts: { /Font << name: ref ... >> }
  std::vector<Object> font_levels_;  // the fonts added since, a level each
  std::unique_ptr<Gfx> gfx_;
  std::map<std::string, Ref> fonts_;
  PDFRectangle box_;
  int rotate_ = 0;
  std::string* sink_ = nullptr;
};

bool text_session_available() { return true; }

TextSessionPtr open_text_session(const char* data, std::size_t size, const std::string& password) {
  TextSessionPtr session(new TextSession(data, size, password));
  if (!session->ok()) session.reset();
  return session;
}

bool session_page_text(TextSession& session, int page, std::string* out) { return session.text(page, out); }

void TextSessionDeleter::operator()(TextSession* session) const { delete session; }

#else  // poppler's core headers missing: page::text reads every page

class TextSession {};

bool text_session_available() { return false; }

TextSessionPtr open_text_session(const char*, std::size_t, const std::string&) { return nullptr; }

bool session_page_text(TextSession&, int, std::string*) { return false; }

void TextSessionDeleter::operator()(TextSession* session) const { delete session; }

#endif

}  // namespace mcpread_pdf
