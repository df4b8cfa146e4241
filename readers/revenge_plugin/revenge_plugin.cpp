// The C interface of revenge_plugin_api.h: each importer's own detection on the bytes, then its
// parse into the collector of the kind asked for (text, spreadsheet, deck of pages). A document
// of another kind is recognised and refused with what it is and how to read it.
#include "deck_collector.hpp"
#include "revenge_plugin_api.h"
#include "sheet_collector.hpp"
#include "text_collector.hpp"

#include <libabw/libabw.h>
#include <libcdr/libcdr.h>
#include <libe-book/libe-book.h>
#include <libetonyek/libetonyek.h>
#include <libfreehand/libfreehand.h>
#include <libmspub/libmspub.h>
#include <libmwaw/libmwaw.hxx>
#include <libpagemaker/libpagemaker.h>
#include <libqxp/libqxp.h>
#include <libstaroffice/libstaroffice.hxx>
#include <librevenge-stream/librevenge-stream.h>
#include <libvisio/libvisio.h>
#include <libwpd/libwpd.h>
#include <libwps/libwps.h>
#include <libzmf/libzmf.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <limits>
#include <string>

namespace {

using mcpread_revenge::DeckCollector;
using mcpread_revenge::SheetCollector;
using mcpread_revenge::TextCollector;

void set_error(char* error, std::size_t size, const std::string& text) {
  if (error == nullptr || size == 0) return;
  const std::size_t n = std::min(text.size(), size - 1);
  std::memcpy(error, text.data(), n);
  error[n] = '\0';
}

// What the importers found the bytes to be, and whether it parsed.
struct Outcome {
  bool recognised = false;
  std::string format;  // "WordPerfect document"
  std::string refusal;  // why it is not read, when recognised but not parsed
};

// A parse the importer gave up on: the bytes passed its detection, so they are damaged, cut short
// or of a version it does not know.
std::string could_not_parse(const char* importer, const char* save_as = "ODT") {
  return std::string(importer) + " could not parse it: the document is damaged, cut short or of a version " + importer +
         " does not read; open it in LibreOffice and save it as " + save_as;
}

std::string other_kind(const std::string& what) {
  return "it is " + what + ", which mcp-read does not read: only the word processors' text documents are read";
}

// A spreadsheet met where a text document was asked for: the spreadsheet reader reads it.
std::string a_sheet(const std::string& what) { return "it is " + what + ": read it with file_type=\"calc\""; }

// A Keynote presentation met where another kind was asked for: the deck reader reads it.
constexpr const char* kKeynote = "it is a Keynote presentation: read it with file_type=\"keynote\"";

std::string mwaw_name(MWAWDocument::Type type) {
  switch (type) {
    case MWAWDocument::MWAW_T_CLARISWORKS: return "ClarisWorks or AppleWorks document";
    case MWAWDocument::MWAW_T_MACWRITE: return "MacWrite document";
    case MWAWDocument::MWAW_T_MACWRITEPRO: return "MacWrite Pro document";
    case MWAWDocument::MWAW_T_MICROSOFTWORD: return "Microsoft Word for Macintosh document";
    case MWAWDocument::MWAW_T_MICROSOFTWORKS: return "Microsoft Works for Macintosh document";
    case MWAWDocument::MWAW_T_NISUSWRITER: return "Nisus Writer document";
    case MWAWDocument::MWAW_T_WRITENOW: return "WriteNow document";
    case MWAWDocument::MWAW_T_TEACHTEXT: return "TeachText or SimpleText document";
    case MWAWDocument::MWAW_T_BEAGLEWORKS: return "BeagleWorks document";
    case MWAWDocument::MWAW_T_GREATWORKS: return "GreatWorks document";
    case MWAWDocument::MWAW_T_FULLWRITE: return "FullWrite document";
    case MWAWDocument::MWAW_T_RAGTIME: return "RagTime document";
    default: return "classic Macintosh document";
  }
}

std::string ebook_name(libebook::EBOOKDocument::Type type) {
  using E = libebook::EBOOKDocument;
  switch (type) {
    case E::TYPE_PALMDOC: return "PalmDoc e-book";
    case E::TYPE_PEANUTPRESS: return "eReader (Peanut Press) e-book";
    case E::TYPE_PLUCKER: return "Plucker e-book";
    case E::TYPE_TEALDOC: return "TealDoc e-book";
    case E::TYPE_ZTXT: return "zTXT e-book";
    case E::TYPE_BBEB: return "BroadBand eBook (LRF)";
    case E::TYPE_TCR: return "TCR e-book";
    case E::TYPE_QIOO: return "QiOO e-book";
    case E::TYPE_ZVR: return "ZVR e-book";
    default: return "e-book";
  }
}

// Each importer in turn, the strictest detections first: libmwaw and libe-book also recognise
// some bytes the others own.
Outcome read_text(librevenge::RVNGInputStream& in, TextCollector& out) {
  const auto rewind = [&in] { in.seek(0, librevenge::RVNG_SEEK_SET); };
  Outcome o;
  rewind();
  if (const libwpd::WPDConfidence c = libwpd::WPDocument::isFileFormatSupported(&in); c != libwpd::WPD_CONFIDENCE_NONE) {
    o = {true, "WordPerfect document", {}};
    if (c != libwpd::WPD_CONFIDENCE_EXCELLENT) o.refusal = "it is password-protected";
    else if (rewind(); libwpd::WPDocument::parse(&in, &out, nullptr) != libwpd::WPD_OK) o.refusal = could_not_parse("libwpd");
    return o;
  }
  rewind();
  if (libabw::AbiDocument::isFileFormatSupported(&in)) {
    o = {true, "AbiWord document", {}};
    if (rewind(); !libabw::AbiDocument::parse(&in, &out)) o.refusal = could_not_parse("libabw");
    return o;
  }
  rewind();
  libetonyek::EtonyekDocument::Type iwork = libetonyek::EtonyekDocument::TYPE_UNKNOWN;
  if (libetonyek::EtonyekDocument::isSupported(&in, &iwork) == libetonyek::EtonyekDocument::CONFIDENCE_EXCELLENT) {
    if (iwork == libetonyek::EtonyekDocument::TYPE_KEYNOTE) return {true, "Keynote presentation", kKeynote};
    if (iwork == libetonyek::EtonyekDocument::TYPE_NUMBERS) return {true, "Numbers spreadsheet", a_sheet("a Numbers spreadsheet")};
    o = {true, "Pages document", {}};
    if (rewind(); !libetonyek::EtonyekDocument::parse(&in, static_cast<librevenge::RVNGTextInterface*>(&out)))
      o.refusal = could_not_parse("libetonyek");
    return o;
  }
  rewind();
  STOFFDocument::Kind star = STOFFDocument::STOFF_K_UNKNOWN;
  if (const STOFFDocument::Confidence c = STOFFDocument::isFileFormatSupported(&in, star); c != STOFFDocument::STOFF_C_NONE) {
    if (star == STOFFDocument::STOFF_K_SPREADSHEET) return {true, "StarCalc spreadsheet", a_sheet("a StarCalc spreadsheet")};
    if (star != STOFFDocument::STOFF_K_TEXT) return {true, "StarOffice file", other_kind("a StarOffice file other than a StarWriter document")};
    o = {true, "StarWriter document", {}};
    if (c != STOFFDocument::STOFF_C_EXCELLENT) o.refusal = "it is password-protected";
    else if (rewind(); STOFFDocument::parse(&in, static_cast<librevenge::RVNGTextInterface*>(&out)) != STOFFDocument::STOFF_R_OK)
      o.refusal = could_not_parse("libstaroffice");
    return o;
  }
  rewind();
  libwps::WPSKind works_kind = libwps::WPS_TEXT;
  libwps::WPSCreator creator = libwps::WPS_MSWORKS;
  bool needs_encoding = false;
  if (const libwps::WPSConfidence c = libwps::WPSDocument::isFileFormatSupported(&in, works_kind, creator, needs_encoding);
      c != libwps::WPS_CONFIDENCE_NONE) {
    if (works_kind != libwps::WPS_TEXT) return {true, "spreadsheet or database", a_sheet("a spreadsheet or a database")};
    o.recognised = true;
    o.format = creator == libwps::WPS_MSWRITE ? "Microsoft Write document"
               : creator == libwps::WPS_DOSWORD ? "Microsoft Word for DOS document"
               : creator == libwps::WPS_MSWORKS ? "Microsoft Works document"
                                                : "DOS word processor document";
    if (c != libwps::WPS_CONFIDENCE_EXCELLENT) o.refusal = "it is password-protected";
    else if (rewind(); libwps::WPSDocument::parse(&in, static_cast<librevenge::RVNGTextInterface*>(&out)) != libwps::WPS_OK)
      o.refusal = could_not_parse("libwps");
    return o;
  }
  rewind();
  MWAWDocument::Type mac_type = MWAWDocument::MWAW_T_UNKNOWN;
  MWAWDocument::Kind mac_kind = MWAWDocument::MWAW_K_UNKNOWN;
  if (const MWAWDocument::Confidence c = MWAWDocument::isFileFormatSupported(&in, mac_type, mac_kind);
      c != MWAWDocument::MWAW_C_NONE) {
    o = {true, mwaw_name(mac_type), {}};
    if (mac_kind == MWAWDocument::MWAW_K_SPREADSHEET || mac_kind == MWAWDocument::MWAW_K_DATABASE)
      o.refusal = a_sheet("a Macintosh spreadsheet or database");
    else if (mac_kind != MWAWDocument::MWAW_K_TEXT) o.refusal = other_kind("a Macintosh drawing, painting or presentation");
    else if (c != MWAWDocument::MWAW_C_EXCELLENT) o.refusal = "it is password-protected";
    else if (rewind(); MWAWDocument::parse(&in, static_cast<librevenge::RVNGTextInterface*>(&out)) != MWAWDocument::MWAW_R_OK)
      o.refusal = could_not_parse("libmwaw");
    return o;
  }
  rewind();
  libebook::EBOOKDocument::Type book = libebook::EBOOKDocument::TYPE_UNKNOWN;
  if (const auto c = libebook::EBOOKDocument::isSupported(&in, &book); c != libebook::EBOOKDocument::CONFIDENCE_NONE &&
                                                                        c != libebook::EBOOKDocument::CONFIDENCE_WEAK) {
    o = {true, ebook_name(book), {}};
    if (c != libebook::EBOOKDocument::CONFIDENCE_EXCELLENT) o.refusal = "it is encrypted, or only a part of an e-book";
    else if (rewind(); libebook::EBOOKDocument::parse(&in, &out, book) != libebook::EBOOKDocument::RESULT_OK)
      o.refusal = could_not_parse("libe-book");
    return o;
  }
  return o;
}

std::string not_a_sheet(const std::string& what) {
  return "it is " + what + ", not a spreadsheet: read it without file_type";
}

std::string mwaw_sheet_name(MWAWDocument::Type type) {
  switch (type) {
    case MWAWDocument::MWAW_T_CLARISRESOLVE: return "Claris Resolve spreadsheet";
    case MWAWDocument::MWAW_T_MICROSOFTMULTIPLAN: return "Microsoft Multiplan spreadsheet";
    case MWAWDocument::MWAW_T_WINGZ: return "Wingz spreadsheet";
    case MWAWDocument::MWAW_T_RESERVED12: return "Lotus Jazz spreadsheet";
    default: return mwaw_name(type);
  }
}

// The spreadsheets: Numbers (libetonyek), Works, Lotus 1-2-3 and Quattro Pro (libwps), StarCalc
// (libstaroffice), the classic Macintosh ones (libmwaw; their databases too, as tables).
Outcome read_sheet(librevenge::RVNGInputStream& in, SheetCollector& out) {
  const auto rewind = [&in] { in.seek(0, librevenge::RVNG_SEEK_SET); };
  Outcome o;
  rewind();
  libetonyek::EtonyekDocument::Type iwork = libetonyek::EtonyekDocument::TYPE_UNKNOWN;
  if (libetonyek::EtonyekDocument::isSupported(&in, &iwork) == libetonyek::EtonyekDocument::CONFIDENCE_EXCELLENT) {
    if (iwork == libetonyek::EtonyekDocument::TYPE_KEYNOTE) return {true, "Keynote presentation", kKeynote};
    if (iwork != libetonyek::EtonyekDocument::TYPE_NUMBERS) return {true, "iWork document", not_a_sheet("a Pages document")};
    o = {true, "Numbers spreadsheet", {}};
    if (rewind(); !libetonyek::EtonyekDocument::parse(&in, static_cast<librevenge::RVNGSpreadsheetInterface*>(&out)))
      o.refusal = could_not_parse("libetonyek", "ODS");
    return o;
  }
  rewind();
  STOFFDocument::Kind star = STOFFDocument::STOFF_K_UNKNOWN;
  if (const STOFFDocument::Confidence c = STOFFDocument::isFileFormatSupported(&in, star); c != STOFFDocument::STOFF_C_NONE) {
    if (star != STOFFDocument::STOFF_K_SPREADSHEET) return {true, "StarOffice file", not_a_sheet("a StarOffice file other than a StarCalc spreadsheet")};
    o = {true, "StarCalc spreadsheet", {}};
    if (c != STOFFDocument::STOFF_C_EXCELLENT) o.refusal = "it is password-protected";
    else if (rewind(); STOFFDocument::parse(&in, static_cast<librevenge::RVNGSpreadsheetInterface*>(&out)) != STOFFDocument::STOFF_R_OK)
      o.refusal = could_not_parse("libstaroffice", "ODS");
    return o;
  }
  rewind();
  libwps::WPSKind works_kind = libwps::WPS_TEXT;
  libwps::WPSCreator creator = libwps::WPS_MSWORKS;
  bool needs_encoding = false;
  if (const libwps::WPSConfidence c = libwps::WPSDocument::isFileFormatSupported(&in, works_kind, creator, needs_encoding);
      c != libwps::WPS_CONFIDENCE_NONE) {
    if (works_kind == libwps::WPS_TEXT) return {true, "text document", not_a_sheet("a text document")};
    o.recognised = true;
    o.format = creator == libwps::WPS_LOTUS         ? "Lotus 1-2-3 spreadsheet"
               : creator == libwps::WPS_QUATTRO_PRO ? "Quattro Pro spreadsheet"
               : creator == libwps::WPS_SYMPHONY    ? "Lotus Symphony spreadsheet"
               : creator == libwps::WPS_MULTIPLAN   ? "Microsoft Multiplan spreadsheet"
               : works_kind == libwps::WPS_DATABASE ? "Microsoft Works database"
                                                    : "Microsoft Works spreadsheet";
    if (c != libwps::WPS_CONFIDENCE_EXCELLENT) o.refusal = "it is password-protected";
    else if (rewind(); libwps::WPSDocument::parse(&in, static_cast<librevenge::RVNGSpreadsheetInterface*>(&out)) != libwps::WPS_OK)
      o.refusal = could_not_parse("libwps", "ODS");
    return o;
  }
  rewind();
  MWAWDocument::Type mac_type = MWAWDocument::MWAW_T_UNKNOWN;
  MWAWDocument::Kind mac_kind = MWAWDocument::MWAW_K_UNKNOWN;
  if (const MWAWDocument::Confidence c = MWAWDocument::isFileFormatSupported(&in, mac_type, mac_kind);
      c != MWAWDocument::MWAW_C_NONE) {
    o = {true, mwaw_sheet_name(mac_type), {}};
    if (mac_kind != MWAWDocument::MWAW_K_SPREADSHEET && mac_kind != MWAWDocument::MWAW_K_DATABASE)
      o.refusal = not_a_sheet("a Macintosh document other than a spreadsheet or a database");
    else if (c != MWAWDocument::MWAW_C_EXCELLENT) o.refusal = "it is password-protected";
    else if (rewind(); MWAWDocument::parse(&in, static_cast<librevenge::RVNGSpreadsheetInterface*>(&out)) != MWAWDocument::MWAW_R_OK)
      o.refusal = could_not_parse("libmwaw", "ODS");
    return o;
  }
  return o;
}

// The drawing importers, which all detect and parse alike, in the order they are tried: the
// stricter detections (a stream or an entry named in an OLE2 file or a zip) before the looser.
struct DrawingImporter {
  const char* format;
  const char* library;
  bool (*supported)(librevenge::RVNGInputStream*);
  bool (*parse)(librevenge::RVNGInputStream*, librevenge::RVNGDrawingInterface*);
};

bool qxp_supported(librevenge::RVNGInputStream* in) { return libqxp::QXPDocument::isSupported(in); }
bool qxp_parse(librevenge::RVNGInputStream* in, librevenge::RVNGDrawingInterface* out) {
  return libqxp::QXPDocument::parse(in, out) == libqxp::QXPDocument::RESULT_OK;
}
bool zmf_supported(librevenge::RVNGInputStream* in) { return libzmf::ZMFDocument::isSupported(in); }

constexpr DrawingImporter kDrawingImporters[] = {
    {"Microsoft Visio drawing", "libvisio", libvisio::VisioDocument::isSupported, libvisio::VisioDocument::parse},
    {"Microsoft Publisher document", "libmspub", libmspub::MSPUBDocument::isSupported, libmspub::MSPUBDocument::parse},
    {"CorelDRAW drawing", "libcdr", libcdr::CDRDocument::isSupported, libcdr::CDRDocument::parse},
    {"Corel Presentation Exchange (CMX) drawing", "libcdr", libcdr::CMXDocument::isSupported, libcdr::CMXDocument::parse},
    {"FreeHand drawing", "libfreehand", libfreehand::FreeHandDocument::isSupported, libfreehand::FreeHandDocument::parse},
    {"PageMaker document", "libpagemaker", libpagemaker::PMDocument::isSupported, libpagemaker::PMDocument::parse},
    {"QuarkXPress document", "libqxp", qxp_supported, qxp_parse},
    {"Zoner Draw drawing", "libzmf", zmf_supported, libzmf::ZMFDocument::parse},
};

// Decks of pages or slides: Keynote (libetonyek), then the drawing importers.
Outcome read_deck(librevenge::RVNGInputStream& in, DeckCollector& out) {
  const auto rewind = [&in] { in.seek(0, librevenge::RVNG_SEEK_SET); };
  Outcome o;
  rewind();
  libetonyek::EtonyekDocument::Type iwork = libetonyek::EtonyekDocument::TYPE_UNKNOWN;
  if (libetonyek::EtonyekDocument::isSupported(&in, &iwork) == libetonyek::EtonyekDocument::CONFIDENCE_EXCELLENT) {
    if (iwork == libetonyek::EtonyekDocument::TYPE_NUMBERS) return {true, "Numbers spreadsheet", a_sheet("a Numbers spreadsheet")};
    if (iwork != libetonyek::EtonyekDocument::TYPE_KEYNOTE)
      return {true, "Pages document", "it is a Pages document: read it with file_type=\"wordproc\""};
    o = {true, "Keynote presentation", {}};
    if (rewind(); !libetonyek::EtonyekDocument::parse(&in, static_cast<librevenge::RVNGPresentationInterface*>(&out)))
      o.refusal = could_not_parse("libetonyek", "ODP");
    return o;
  }
  for (const DrawingImporter& importer : kDrawingImporters) {
    rewind();
    if (!importer.supported(&in)) continue;
    o = {true, importer.format, {}};
    if (rewind(); !importer.parse(&in, &out)) o.refusal = could_not_parse(importer.library, "ODG");
    return o;
  }
  return o;
}

// One import through either interface: the importers on the bytes, the collector's answer given
// to the sink. Every failure becomes the error text: nothing may unwind into the caller (C code).
template <class Collector, class Read, class Finish>
int import(const unsigned char* data, size_t size, mcpread_revenge_sink sink, void* ctx, char* error,
           size_t error_size, Read read, Finish finish, const char* unrecognised) {
  try {
    if (size > std::numeric_limits<unsigned>::max()) {
      set_error(error, error_size, "it is larger than librevenge's streams hold (4 GiB)");
      return 0;
    }
    librevenge::RVNGStringStream in(data, static_cast<unsigned>(size));
    Collector collector;
    const Outcome o = read(in, collector);
    if (!o.recognised) {
      set_error(error, error_size, unrecognised);
      return 0;
    }
    if (!o.refusal.empty()) {
      set_error(error, error_size, o.refusal);
      return 0;
    }
    finish(collector);
    nlohmann::json answer = collector.result();
    answer["format"] = o.format;
    const std::string text = answer.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    sink(ctx, text.data(), text.size());
    return 1;
  } catch (const std::bad_alloc&) {
    set_error(error, error_size, "it needs more memory than a parse may use");
  } catch (const std::exception& e) {
    set_error(error, error_size, std::string("the importer failed: ") + e.what());
  } catch (...) {
    set_error(error, error_size, "the importer failed");
  }
  return 0;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int mcpread_revenge_api_version(void) { return MCPREAD_REVENGE_API_VERSION; }

__attribute__((visibility("default"))) int mcpread_revenge_read_text(const unsigned char* data, size_t size,
                                                                     mcpread_revenge_sink sink, void* ctx,
                                                                     char* error, size_t error_size) {
  return import<TextCollector>(
      data, size, sink, ctx, error, error_size, read_text, [](TextCollector& c) { c.endDocument(); },
      "none of the importers (libwpd, libabw, libetonyek, libstaroffice, libwps, libmwaw, libe-book) recognises it");
}

__attribute__((visibility("default"))) int mcpread_revenge_read_sheet(const unsigned char* data, size_t size,
                                                                      mcpread_revenge_sink sink, void* ctx,
                                                                      char* error, size_t error_size) {
  return import<SheetCollector>(
      data, size, sink, ctx, error, error_size, read_sheet, [](SheetCollector&) {},
      "none of the importers (libetonyek, libstaroffice, libwps, libmwaw) recognises it as a spreadsheet");
}

__attribute__((visibility("default"))) int mcpread_revenge_read_deck(const unsigned char* data, size_t size,
                                                                     mcpread_revenge_sink sink, void* ctx,
                                                                     char* error, size_t error_size) {
  return import<DeckCollector>(
      data, size, sink, ctx, error, error_size, read_deck, [](DeckCollector& c) { c.endDocument(); },
      "none of the importers (libetonyek, libvisio, libmspub, libcdr, libfreehand, libpagemaker, libqxp, libzmf) "
      "recognises it as a drawing, a publication or a presentation");
}

}  // extern "C"
