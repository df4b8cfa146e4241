#include "doc/doc_document.hpp"

#if defined(_WIN32)
namespace mcpread::readers::doc {

bool parse_doc(std::string_view, DocDocument*, std::string* error, const CancelToken&) {
  *error = "the Windows build of mcp-read does not include libwv, which reads them: save the document "
           "as DOCX in Word or LibreOffice and read that, or use mcp-read on Linux";
  return false;
}

bool read_doc(std::string_view bytes, DocDocument* out, std::string* error, const CancelToken& cancel) {
  return parse_doc(bytes, out, error, cancel);
}

}  // namespace mcpread::readers::doc
#else
#include "doc/doc_builder.hpp"
#include "doc/wv_api.hpp"

#include <memory>

namespace mcpread::readers::doc {

namespace {

constexpr std::string_view kOle2Magic = "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";

DocBuilder* builder_of(wvParseStruct* ps) { return static_cast<DocBuilder*>(ps->userData); }

int on_char(wvParseStruct* ps, U16 ch, U8 chartype, U16 lid) {
  builder_of(ps)->character(ch, chartype, lid);
  return 0;
}

int on_special_char(wvParseStruct* ps, U16 ch, CHP* chp) {
  builder_of(ps)->special(ch, chp);
  return 0;
}

int on_element(wvParseStruct* ps, wvTag tag, void* props, int) {
  if (tag == PARABEGIN && props != nullptr) builder_of(ps)->paragraph_begins(*static_cast<const PAP*>(props));
  else if (tag == PARAEND) builder_of(ps)->paragraph_ends();
  return 0;
}

std::string version_name(int version) {
  switch (version) {
    case WORD7: return "Word 95";
    case WORD6: return "Word 6";
    default: return "Word 97-2003";
  }
}

// The parser's input and state, released in the order libwv needs (its streams, then the
// compound file, then the bytes), whichever way the read ends.
struct Session {
  const WvApi& wv;
  GsfInput* input = nullptr;
  wvParseStruct ps{};
  bool started = false;
  ~Session() {
    if (started) wv.ole_free(&ps);
    if (input != nullptr) wv.unref(input);
  }
};

}  // namespace

bool parse_doc(std::string_view bytes, DocDocument* out, std::string* error, const CancelToken& cancel) {
  if (!bytes.starts_with(kOle2Magic)) {
    *error = "it is not an OLE2 compound file, as Word 97-2003 (and Word 6 and 95) documents are; "
             "Word for DOS and Word 2 files are not read";
    return false;
  }
  const WvApi* wv = wv_api(error);
  if (wv == nullptr) return false;
  Session s{*wv};
  s.input = wv->memory_input(reinterpret_cast<const guint8*>(bytes.data()), static_cast<gsf_off_t>(bytes.size()), FALSE);
  if (s.input == nullptr) {
    *error = "libgsf could not open it";
    return false;
  }
  const int ret = wv->init_parser(&s.ps, s.input);
  s.started = true;  // wvOLEFree is safe after any outcome: it forgets what it frees
  if (ret > 0 && (ret & 0x8000) != 0) {  // the version, with the FIB's fEncrypted flag
    *error = "it is encrypted (password-protected); mcp-read does not decrypt Word documents: open it in "
             "Word or LibreOffice with its password and save a copy without one";
    return false;
  }
  if (ret == 3) {
    *error = "its OLE2 compound file structure is damaged";
    return false;
  }
  if (ret != 0 || s.ps.mainfd == nullptr) {
    *error = "it is an OLE2 compound file without a readable Word document in it (an Excel, PowerPoint "
             "or Outlook file named .doc, or a damaged document)";
    return false;
  }
  // Word 6 to 2003 start their WordDocument stream with 0xA5DC or 0xA5EC; Word 2 files are no
  // compound files, so an older version number here is damage or a file Word never wrote.
  const unsigned ident = s.ps.fib.wIdent;
  const int version = wv->query_supported(&s.ps.fib, nullptr) & 0x7fff;
  if ((ident != 0xA5EC && ident != 0xA5DC) || (version != WORD8 && version != WORD7 && version != WORD6)) {
    *error = "its WordDocument stream does not start with the header of a Word 6 to 2003 document (version " +
             std::to_string(s.ps.fib.nFib) + "): a damaged document, or one of a Word version libwv does not read";
    return false;
  }
  out->version = version_name(version);
  DocBuilder builder(&s.ps, out, cancel);
  s.ps.userData = &builder;
  wv->set_char_handler(&s.ps, on_char);
  wv->set_special_char_handler(&s.ps, on_special_char);
  wv->set_element_handler(&s.ps, on_element);
  wv->text(&s.ps);
  builder.finish();
  return true;
}

}  // namespace mcpread::readers::doc
#endif
