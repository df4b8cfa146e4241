// Counting what a page draws, with qpdf's content-stream tokenizer. The glyphs are the measure
// against which the extracted text tells whether fonts without a Unicode map (no /ToUnicode, a
// CMap poppler lacks) lost characters: poppler drops such glyphs silently; the count comes from
// the content itself, so it does not depend on any font's mapping. Glyphs, images and painted
// paths together tell a page that draws nothing (a blank page needs no OCR to be called blank).
// The same pass follows the text's orientation, to tell pages that draw text turned off the
// horizontal (pdf_turned.cpp reads those).
#include "plugin_internal.hpp"

#include <qpdf/Buffer.hh>
#include <qpdf/BufferInputSource.hh>
#include <qpdf/Pipeline.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFTokenizer.hh>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcpread_pdf {
namespace {

// Form XObjects nest; a malicious file may nest them in a cycle or very deeply.
constexpr int max_form_depth = 8;

// The linear part [a b c d] of a PDF matrix (points are row vectors: x' = a x + c y + e).
struct Linear {
  double a = 1, b = 0, c = 0, d = 1;
};

// m, then n.
Linear then(const Linear& m, const Linear& n) {
  return {m.a * n.a + m.b * n.c, m.a * n.b + m.b * n.d, m.c * n.a + m.d * n.c, m.c * n.b + m.d * n.d};
}

// How glyphs drawn with this matrix are turned (turned_* of plugin_internal.hpp): mirrored,
// and/or their baseline off the page's axes by more than about 3° (a quarter or half turn is
// no turn: poppler reads those whole). A skew that keeps the baseline (an oblique style made
// with Tm) is no turn either.
int turn_of(const Linear& m) {
  const double along = std::abs(m.a), across = std::abs(m.b);
  return (m.a * m.d - m.b * m.c < 0 ? turned_mirrored : 0) |
         (std::min(along, across) > 0.05 * std::max(along, across) ? turned_slanted : 0);
}

// An operand of a content stream's operator, as far as the count needs it: a TJ array keeps
// only its strings, a dictionary (marked content's properties) nothing.
struct Operand {
  enum class Kind { number, name, string, array, other };
  Kind kind = Kind::other;
  double number = 0;
  std::string text;                  // a name (with its slash) or a string's bytes
  std::vector<std::string> strings;  // an array's strings
};

// Four numbers, or six, before an operator: a matrix's linear part.
bool linear_of(const std::vector<Operand>& operands, Linear* m) {
  if (operands.size() != 6) return false;
  for (std::size_t i = 0; i < 4; ++i)
    if (operands[i].kind != Operand::Kind::number) return false;
  *m = {operands[0].number, operands[1].number, operands[2].number, operands[3].number};
  return true;
}

// The six numbers of a form's /Matrix.
bool linear_of(QPDFObjectHandle numbers, Linear* m) {
  if (!numbers.isArray() || numbers.getArrayNItems() != 6) return false;
  std::vector<Operand> operands;
  for (QPDFObjectHandle item : numbers.getArrayAsVector())
    operands.push_back(item.isNumber() ? Operand{Operand::Kind::number, item.getNumericValue(), {}, {}} : Operand{});
  return linear_of(operands, m);
}

// A page's decoded content is tokenized whole, and a stream may inflate a thousandfold: past
// this much the page is not counted (a 1.4 MB file whose content inflated to 1.4 GiB of numbers
// took the server's memory to 23 GB, qpdf holding the content and the count every operand).
constexpr std::size_t kMaxContentBytes = std::size_t{64} << 20;
// Operands kept before an operator: none takes more than 33 (SCN with 32 colour components).
constexpr std::size_t kMaxOperands = 64;

// A content stream's decoded bytes, up to kMaxContentBytes. Past it, write throws: qpdf catches
// that, stops decoding the stream and reports it not decoded, and `over` says why.
class CappedContent : public Pipeline {
 public:
  CappedContent() : Pipeline("content stream", nullptr) {}
  // qpdf 11's signature and qpdf 10.1's (the portable bundle's): each version overrides one.
  void write(unsigned char const* data, size_t len) { append(data, len); }
  void write(unsigned char* data, size_t len) { append(data, len); }
  void finish() {}

  std::string bytes;
  bool over = false;

 private:
  void append(const unsigned char* data, size_t len) {
    if (len > kMaxContentBytes - bytes.size()) {
      over = true;
      throw std::length_error("the content decodes to more than 64 MiB");
    }
    bytes.append(reinterpret_cast<const char*>(data), len);
  }
};

// `stream` decoded into `content`; throws when it cannot be, or is over the cap.
void decode_content(QPDFObjectHandle stream, CappedContent* content) {
  if (stream.pipeStreamData(content, 0, qpdf_dl_specialized)) return;
  if (content->over)
    throw std::length_error("its content decodes to more than 64 MiB, so what it draws was not counted");
  throw std::runtime_error("a content stream cannot be decoded");
}

// The page's content streams decoded and joined as qpdf joins them: a newline between two when
// the first does not end in one.
std::string page_content(QPDFObjectHandle page) {
  QPDFObjectHandle contents = page.getKey("/Contents");
  std::vector<QPDFObjectHandle> streams;
  if (contents.isStream()) streams.push_back(contents);
  else if (contents.isArray())
    for (QPDFObjectHandle item : contents.getArrayAsVector())
      if (item.isStream()) streams.push_back(item);
  CappedContent content;
  for (QPDFObjectHandle stream : streams) {
    if (!content.bytes.empty() && content.bytes.back() != '\n') content.bytes += '\n';
    decode_content(stream, &content);
  }
  return std::move(content.bytes);
}

// What QPDFTokenizer reads from: a shared_ptr in qpdf 11, a PointerHolder in qpdf 10.1 (the
// portable bundle's); both are made from a raw pointer.
template <typename Handle>
Handle input_handle_of(void (QPDFTokenizer::*)(Handle));
using InputHandle = decltype(input_handle_of(&QPDFTokenizer::expectInlineImage));

// Walks a content stream's tokens with qpdf's tokenizer, not its object parser, which made a
// heap object of every operand: counting memman.pdf's pages took a fourth as long this way.
class MarkCounter {
 public:
  MarkCounter(QPDFObjectHandle resources, int depth, std::set<QPDFObjGen>* forms, mcpread_pdf_marks* marks,
              Linear ctm, int* turned)
      : resources_(std::move(resources)), depth_(depth), forms_(forms), marks_(marks), ctm_(ctm), turned_(turned) {}

  // The decoded content (a page's streams joined, or a form's) counted.
  void count_content(std::string& content) {
    Buffer view(reinterpret_cast<unsigned char*>(content.data()), content.size());  // not copied
    InputHandle input(new BufferInputSource("content stream", &view));
    QPDFTokenizer tokenizer;
    tokenizer.allowEOF();
    int arrays = 0, dictionaries = 0;  // nesting of the operand being read
    Operand array;
    for (;;) {
      const QPDFTokenizer::Token token = tokenizer.readToken(input, "content stream", true);
      const QPDFTokenizer::token_type_e type = token.getType();
      if (type == QPDFTokenizer::tt_eof) return;
      // Operands with no operator after them only ever need the last few kept.
      if (operands_.size() >= 2 * kMaxOperands)
        operands_.erase(operands_.begin(), operands_.end() - static_cast<std::ptrdiff_t>(kMaxOperands));
      if (type == QPDFTokenizer::tt_dict_open) {
        ++dictionaries;
      } else if (type == QPDFTokenizer::tt_dict_close) {
        if (dictionaries > 0 && --dictionaries == 0 && arrays == 0) operands_.emplace_back();
      } else if (dictionaries > 0) {
        // inside marked content's properties (or an inline image's): nothing counted
      } else if (type == QPDFTokenizer::tt_array_open) {
        if (arrays++ == 0) array = Operand{Operand::Kind::array, 0, {}, {}};
      } else if (type == QPDFTokenizer::tt_array_close) {
        if (arrays > 0 && --arrays == 0) operands_.push_back(std::move(array));
      } else if (arrays > 0) {
        if (type == QPDFTokenizer::tt_string) array.strings.push_back(token.getValue());
      } else if (type == QPDFTokenizer::tt_integer || type == QPDFTokenizer::tt_real) {
        operands_.push_back({Operand::Kind::number, std::strtod(token.getValue().c_str(), nullptr), {}, {}});
      } else if (type == QPDFTokenizer::tt_name) {
        operands_.push_back({Operand::Kind::name, 0, token.getValue(), {}});
      } else if (type == QPDFTokenizer::tt_string) {
        operands_.push_back({Operand::Kind::string, 0, token.getValue(), {}});
      } else if (type == QPDFTokenizer::tt_word) {
        const std::string& op = token.getValue();
        if (op == "ID") {  // an inline image's data follows, after one white-space byte
          char space = ' ';
          input->read(&space, 1);
          tokenizer.expectInlineImage(input);
        }
        handle_operator(op);
      } else if (type == QPDFTokenizer::tt_inline_image) {
        ++marks_->images;
      } else {
        operands_.emplace_back();  // true, false, null, or a token qpdf finds bad
      }
    }
  }

 private:
  void handle_operator(const std::string& op) {
    Linear m;
    if (op == "Tf" && operands_.size() == 2 && operands_[0].kind == Operand::Kind::name) {
      select_font(operands_[0].text);
      if (operands_[1].kind == Operand::Kind::number) font_sign_ = operands_[1].number < 0 ? -1 : 1;
    } else if (op == "Tj" || op == "'") {
      if (!operands_.empty()) count(operands_.back());
    } else if (op == "\"") {
      if (operands_.size() == 3) count(operands_[2]);
    } else if (op == "q") {
      if (saved_.size() < 256) saved_.push_back(ctm_);
    } else if (op == "Q") {
      if (!saved_.empty()) ctm_ = saved_.back(), saved_.pop_back();
    } else if (op == "cm" && linear_of(operands_, &m)) {
      ctm_ = then(m, ctm_);
    } else if (op == "BT") {
      tm_ = {};
    } else if (op == "Tm" && linear_of(operands_, &m)) {
      tm_ = m;
    } else if (op == "Tz" && operands_.size() == 1 && operands_[0].kind == Operand::Kind::number) {
      scale_sign_ = operands_[0].number < 0 ? -1 : 1;
    } else if (op == "TJ") {
      if (!operands_.empty() && operands_.back().kind == Operand::Kind::array)
        for (const std::string& bytes : operands_.back().strings) count_bytes(bytes);
    } else if (op == "Do" && operands_.size() == 1 && operands_[0].kind == Operand::Kind::name) {
      draw_xobject(operands_[0].text);
    } else if (op == "S" || op == "s" || op == "f" || op == "F" || op == "f*" || op == "B" || op == "B*" ||
               op == "b" || op == "b*" || op == "sh") {
      ++marks_->paints;
    }
    operands_.clear();
  }

  // isNameAndEquals, which qpdf 10.1 (the portable bundle's) lacks.
  static bool is_name(QPDFObjectHandle o, const char* name) { return o.isName() && o.getName() == name; }

  void select_font(const std::string& name) {
    composite_ = false;
    if (!resources_.isDictionary()) return;
    QPDFObjectHandle font = resources_.getKey("/Font").getKey(name);
    composite_ = font.isDictionary() && is_name(font.getKey("/Subtype"), "/Type0");
  }

  void count(const Operand& s) {
    if (s.kind == Operand::Kind::string) count_bytes(s.text);
  }

  void count_bytes(const std::string& bytes) {
    *turned_ |= turn_of(then(then({font_sign_ * scale_sign_, 0, 0, font_sign_}, tm_), ctm_));
    if (composite_) {
      marks_->glyphs += static_cast<long>(bytes.size() / 2);
      return;
    }
    for (const char c : bytes)
      if (c != ' ') ++marks_->glyphs;
  }

  void draw_xobject(const std::string& name) {
    if (!resources_.isDictionary()) return;
    QPDFObjectHandle form = resources_.getKey("/XObject").getKey(name);
    if (!form.isStream()) return;
    if (is_name(form.getDict().getKey("/Subtype"), "/Image")) {
      ++marks_->images;
      return;
    }
    if (depth_ >= max_form_depth || !is_name(form.getDict().getKey("/Subtype"), "/Form")) return;
    if (!forms_->insert(form.getObjGen()).second) return;  // each form counted once per page
    QPDFObjectHandle inner = form.getDict().getKey("/Resources");
    Linear matrix;
    linear_of(form.getDict().getKey("/Matrix"), &matrix);
    MarkCounter nested(inner.isDictionary() ? inner : resources_, depth_ + 1, forms_, marks_, then(matrix, ctm_),
                       turned_);
    CappedContent content;
    decode_content(form, &content);
    nested.count_content(content.bytes);
  }

  QPDFObjectHandle resources_;
  int depth_;
  std::set<QPDFObjGen>* forms_;
  mcpread_pdf_marks* marks_;
  std::vector<Operand> operands_;
  bool composite_ = false;
  Linear ctm_, tm_;
  std::vector<Linear> saved_;  // q ... Q
  double font_sign_ = 1, scale_sign_ = 1;  // a negative size (Tf) or scaling (Tz) mirrors
  int* turned_;
};

}  // namespace

// Resolves only the nodes on the way: QPDF::getAllPages would resolve every page object (about
// 100 MB for 10,000 pages).
QPDFObjectHandle find_page(QPDF& q, int k) {
  QPDFObjectHandle node = q.getRoot().getKey("/Pages");
  long index = k - 1;
  for (int depth = 0; depth < 64 && node.isDictionary(); ++depth) {
    QPDFObjectHandle kids = node.getKey("/Kids");
    if (!kids.isArray()) return index == 0 ? node : QPDFObjectHandle();
    const int n = kids.getArrayNItems();
    // As many kids as pages below: each kid is one page (the usual flat tree), no walk needed.
    if (node.getKey("/Count").isInteger() && node.getKey("/Count").getIntValue() == n &&
        index < n) {
      QPDFObjectHandle kid = kids.getArrayItem(static_cast<int>(index));
      if (kid.isDictionary() && !kid.getKey("/Kids").isArray()) return kid;
    }
    QPDFObjectHandle next;
    for (int i = 0; i < n && !next.isInitialized(); ++i) {
      QPDFObjectHandle kid = kids.getArrayItem(i);
      if (!kid.isDictionary()) continue;
      QPDFObjectHandle count = kid.getKey("/Count");
      const long pages = kid.getKey("/Kids").isArray()
                             ? (count.isInteger() ? static_cast<long>(count.getIntValue()) : 0)
                             : 1;
      if (index < pages) next = kid;
      else index -= pages;
    }
    node = next;
  }
  return {};
}

// See count_marks.
constexpr int kPagesPerQpdf = 32;

int count_marks(mcpread_pdf_doc* doc, int page, mcpread_pdf_marks* marks, char* error, std::size_t error_size) {
  if (!valid_page(doc, page, error, error_size)) return MCPREAD_PDF_BAD_PAGE;
  *marks = {};
  // qpdf keeps every object it has parsed, an object stream's all at once, as long as its QPDF
  // lives: read through, memman.pdf's came to 43 MB. Opened afresh every so many pages, what it
  // holds is what the last pages drew; opening again parses only the cross-reference table (a
  // subset, too, finds its pages by /Count: pdf_subset.cpp).
  if (++doc->qpdf_counts > kPagesPerQpdf) {
    doc->qpdf.reset();
    doc->qpdf_counts = 1;
  }
  QPDFObjectHandle page_object = find_page(qpdf_of(doc), page);
  if (!page_object.isDictionary()) {
    set_error(error, error_size, "qpdf does not find page " + std::to_string(page) + " in the page tree");
    return MCPREAD_PDF_DAMAGED;
  }
  QPDFPageObjectHelper p(page_object);
  std::set<QPDFObjGen> forms;
  MarkCounter counter(p.getAttribute("/Resources", false), 0, &forms, marks, Linear{}, &marks->turned_text);
  std::string content = page_content(page_object);
  counter.count_content(content);
  QPDFObjectHandle annots = page_object.getKey("/Annots");
  if (annots.isArray()) marks->annotations = annots.getArrayNItems();
  doc->marks_page = page;
  doc->marks = *marks;
  return MCPREAD_PDF_OK;
}

}  // namespace mcpread_pdf

using namespace mcpread_pdf;

extern "C" __attribute__((visibility("default"))) int mcpread_pdf_page_marks(
    mcpread_pdf_doc* doc, int page, mcpread_pdf_marks* marks, char* error, std::size_t error_size) {
  return guarded(error, error_size, [&]() -> int {
    if (doc == nullptr || marks == nullptr) {
      set_error(error, error_size, "invalid arguments");
      return MCPREAD_PDF_FAILED;
    }
    if (doc->marks_page == page && valid_page(doc, page, error, error_size)) {  // counted with its text
      *marks = doc->marks;
      return MCPREAD_PDF_OK;
    }
    return count_marks(doc, page, marks, error, error_size);
  });
}
